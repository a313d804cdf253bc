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

  it('documents the errors the shared layers give: 400 with input, 401/403 when protected, 413/415 with a body', async () => {
    const doc = (await http(`${url}/openapi.json`)).body;
    const missing: string[] = [];
    for (const route of allRoutes()) {
      const op = doc.paths[route.path][route.method];
      const want: string[] = [];
      if (route.request?.params || route.request?.query || route.request?.body) want.push('400');
      if (!('public' in route.access)) want.push('401');
      if (!('public' in route.access) && !('authenticated' in route.access)) want.push('403');
      if (route.request?.body) want.push('413', '415');
      for (const status of want) {
        if (op.responses[status]?.content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error') missing.push(`${route.method} ${route.path} ${status}`);
      }
    }
    assert.deepEqual(missing, []);
    assert.equal(doc.paths['/healthz'].get.responses['401'], undefined, 'a public route has no 401');
  });

  it('documents the content types of files (viewer assets, report downloads) and the template names as an enum', async () => {
    const doc = (await http(`${url}/openapi.json`)).body;
    assert.deepEqual(Object.keys(doc.paths['/docs/assets/{file}'].get.responses['200'].content).sort(), ['application/javascript', 'image/png', 'text/css']);
    assert.deepEqual(Object.keys(doc.paths['/reports/generated/{id}/download'].get.responses['200'].content).sort(), [
      'application/json', 'application/pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv; charset=utf-8',
    ]);
    // Files are bytes (string/binary: generated clients keep the download); a JSON report is JSON,
    // but a byte range (206) of it is not: that media type documents no schema, so no client (or
    // fuzzer) is told to parse a slice as the whole document's type.
    const download = doc.paths['/reports/generated/{id}/download'].get.responses;
    for (const status of ['200', '206']) {
      for (const [type, media] of Object.entries(download[status].content)) {
        const want = type !== 'application/json' ? { schema: { type: 'string', format: 'binary' } } : status === '200' ? { schema: {} } : {};
        assert.deepEqual(media, want, `${status} ${type}`);
      }
    }
    const body = doc.paths['/reports/generate'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(body.properties.template.enum, ['threat-overview', 'wallet-activity', 'investigation-summary', 'intake-digest']);
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
