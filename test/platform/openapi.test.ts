import assert from 'node:assert/strict';
import { allRoutes } from '../../api/route-table';
import { http } from '../support/http';
import { startTestApi } from '../support/platform';

describe('OpenAPI document and viewers', () => {
  let url: string;
  before(async () => {
    url = (await startTestApi()).url;
  });

  it('describes every registered route, and nothing else', async () => {
    const doc = (await http(`${url}/openapi.json`)).body;
    assert.equal(doc.openapi, '3.1.0');
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method} ${path}`);
    }
    const registered = new Set(allRoutes().map((r) => `${r.method} ${r.path}`));
    assert.deepEqual([...registered].filter((r) => !documented.has(r)), [], 'registered but not documented');
    assert.deepEqual([...documented].filter((r) => !registered.has(r)), [], 'documented but not registered');
  });

  it('gives each operation responses with schemas and an access description', async () => {
    const doc = (await http(`${url}/openapi.json`)).body;
    const me = doc.paths['/accounts/me'].get;
    assert.match(me.description, /authenticated/);
    assert.equal(me.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/Me');
    assert.deepEqual(doc.components.schemas.Me.properties.email.type, ['string', 'null']);
    assert.ok(doc.components.schemas.Error.properties.error);
    assert.ok(me.responses['401']);
  });

  it('serves Swagger UI at /docs and ReDoc at /redoc from local packages', async () => {
    const docs = await http(`${url}/docs`);
    assert.equal(docs.status, 200);
    assert.match(docs.text, /swagger-ui-bundle\.js/);
    assert.doesNotMatch(docs.text, /https?:\/\/(cdn|unpkg)/);
    const redoc = await http(`${url}/redoc`);
    assert.match(redoc.text, /<redoc spec-url="\/openapi.json">/);
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'redoc.standalone.js', 'swagger-init.js']) {
      const res = await fetch(`${url}/docs/assets/${asset}`);
      assert.equal(res.status, 200, asset);
      assert.ok((await res.arrayBuffer()).byteLength > 10, asset);
    }
    assert.equal((await http(`${url}/docs/assets/..%2Fpackage.json`)).status, 400);
  });
});
