import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineRoute } from '../../api/route-definition';
import { http } from '../support/http';
import { startTestApi } from '../support/platform';

const echo = defineRoute({
  method: 'get', path: '/test/echo-client', summary: 'Echoes what the app believes about the client', tags: ['test'], access: { public: true },
  responses: { 200: { description: 'ip and protocol', schema: z.object({ ip: z.string(), protocol: z.string() }) } },
  handler: async ({ ctx }) => ({ body: { ip: ctx.ip, protocol: ctx.protocol } }),
});

const forwarded = { 'X-Forwarded-For': '203.0.113.7', 'X-Forwarded-Proto': 'https' };

describe('X-Forwarded-* headers (SVC_API__TRUST_FORWARDED_HEADERS)', () => {
  it('ignores X-Forwarded-For and X-Forwarded-Proto by default', async () => {
    const { url } = await startTestApi({}, { routes: [echo] });
    const res = await http(`${url}/test/echo-client`, { headers: forwarded });
    assert.equal(res.status, 200);
    assert.match(res.body.ip, /^(::ffff:)?127\.0\.0\.1$/);
    assert.equal(res.body.protocol, 'http');
  });

  it('honours them when SVC_API__TRUST_FORWARDED_HEADERS=true', async () => {
    const { url } = await startTestApi({ SVC_API__TRUST_FORWARDED_HEADERS: 'true' }, { routes: [echo] });
    const res = await http(`${url}/test/echo-client`, { headers: forwarded });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ip: '203.0.113.7', protocol: 'https' });
  });
});
