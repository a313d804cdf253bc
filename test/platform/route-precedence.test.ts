// How the router picks between a literal path and a parameter path that both match a request.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../../api/route-definition';
import { http } from '../support/http';
import { startTestApi } from '../support/platform';

describe('route precedence', () => {
  let url: string;
  before(async () => {
    const routes: RouteDef[] = [
      // The parameter route comes first on purpose.
      defineRoute<{ id: string }>({
        method: 'get', path: '/things/{id}', summary: 'one', tags: ['t'], access: { public: true },
        request: { params: z.object({ id: z.string().uuid() }) },
        responses: { 200: { description: 'ok' } },
        handler: async ({ params }) => ({ body: { route: 'param', id: params.id } }),
      }),
      defineRoute<{ id: string }>({
        method: 'put', path: '/things/{id}', summary: 'put', tags: ['t'], access: { public: true },
        request: { params: z.object({ id: z.string().uuid() }) },
        responses: { 200: { description: 'ok' } },
        handler: async () => ({ body: { route: 'put' } }),
      }),
      defineRoute({
        method: 'get', path: '/things/special', summary: 'literal', tags: ['t'], access: { public: true },
        responses: { 200: { description: 'ok' } },
        handler: async () => ({ body: { route: 'literal' } }),
      }),
    ];
    url = (await startTestApi({}, { routes })).url;
  });

  it('a literal path wins over a parameter route of the same method, whatever the table order', async () => {
    const res = await http(`${url}/things/special`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { route: 'literal' });
    const id = '00000000-0000-4000-8000-000000000000';
    assert.deepEqual((await http(`${url}/things/${id}`)).body, { route: 'param', id });
  });

  it('another method on a literal path is 405 with Allow, not the parameter route of that method', async () => {
    const res = await http(`${url}/things/special`, { method: 'PUT' });
    assert.equal(res.status, 405, res.text);
    assert.equal(res.body.error.code, 'method_not_allowed');
    assert.equal(res.headers.get('allow'), 'GET, HEAD');
    assert.equal((await http(`${url}/things/00000000-0000-4000-8000-000000000000`, { method: 'PUT' })).status, 200);
  });
});
