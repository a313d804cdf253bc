import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { defineRoute } from '../../api/route-definition';
import { allRoutes } from '../../api/route-table';
import { http } from '../support/http';
import { startTestApi } from '../support/platform';

// Test-only routes that exercise the error mapping of the real middleware stack.
const probeRoutes = [
  defineRoute({
    method: 'post', path: '/_probe/echo', summary: 'echo', tags: ['test'], access: { public: true },
    request: { body: z.object({ name: z.string().min(2), items: z.array(z.number()).max(2) }) },
    responses: { 200: { description: 'echo' } },
    handler: async ({ body }) => ({ body }),
  }),
  defineRoute({
    method: 'get', path: '/_probe/boom', summary: 'boom', tags: ['test'], access: { public: true },
    responses: { 200: { description: 'never' } },
    handler: async () => {
      throw new Error('secret internal detail at /srv/app.ts:42');
    },
  }),
];

describe('API errors and request ids', () => {
  let url: string;
  before(async () => {
    url = (await startTestApi({ SVC_API__BODY_LIMIT_MB: '1' }, { routes: [...allRoutes(), ...probeRoutes] })).url;
  });

  it('answers 400 with field paths for invalid bodies', async () => {
    const res = await http(`${url}/_probe/echo`, { method: 'POST', json: { name: 'x', items: [1, 'a'] } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'validation_failed');
    const paths = res.body.error.details.map((d: { path: string }) => d.path).sort();
    assert.deepEqual(paths, ['body.items.1', 'body.name']);
  });

  it('answers 400 for malformed JSON, 415 for other media types, 413 for huge bodies', async () => {
    const bad = await http(`${url}/_probe/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_json');
    const text = await http(`${url}/_probe/echo`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    assert.equal(text.status, 415);
    const big = await http(`${url}/_probe/echo`, { method: 'POST', json: { name: 'x'.repeat(2 * 1024 * 1024), items: [] } });
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, 'payload_too_large');
  });

  it('answers 500 without internals, with the request id', async () => {
    const res = await http(`${url}/_probe/boom`, { headers: { 'X-Request-Id': 'req-boom-1' } });
    assert.equal(res.status, 500);
    assert.equal(res.body.error.code, 'internal_error');
    assert.doesNotMatch(res.text, /secret internal|app\.ts|at /);
    assert.equal(res.body.error.details.request_id, 'req-boom-1');
  });

  it('answers 404 and 405 in the same shape', async () => {
    const nf = await http(`${url}/nothing-here`);
    assert.equal(nf.status, 404);
    assert.equal(nf.body.error.code, 'not_found');
    const na = await http(`${url}/healthz`, { method: 'DELETE' });
    assert.equal(na.status, 405);
    assert.equal(na.body.error.code, 'method_not_allowed');
  });

  it('answers 405 with the Allow header, never 501, for a method no route serves (TRACE)', async () => {
    // fetch refuses TRACE, so this goes through node:http.
    const { status, headers, body } = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = request(`${url}/healthz`, { method: 'TRACE' }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 405);
    assert.match(String(headers['content-type']), /application\/json/);
    assert.equal(JSON.parse(body).error.code, 'method_not_allowed');
    assert.match(String(headers.allow), /GET/);
  });

  it('echoes X-Request-Id, or generates one', async () => {
    const given = await http(`${url}/healthz`, { headers: { 'X-Request-Id': 'abc-123' } });
    assert.equal(given.headers.get('x-request-id'), 'abc-123');
    const generated = await http(`${url}/healthz`);
    assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const hostile = await http(`${url}/healthz`, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    assert.notEqual(hostile.headers.get('x-request-id'), 'bad id with spaces');
  });

  it('reports readiness of the database and Temporal', async () => {
    const res = await http(`${url}/readyz`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });
});
