// Health, readiness (services/system/readiness-service.ts), the OpenAPI document and its two
// viewers (served from npm packages: no CDN).
import fs from 'node:fs';
import path from 'node:path';
import { checkReadiness } from '../../../services/system/readiness-service';
import { buildOpenApiDocument } from '../../openapi';
import { defineRoute, type RouteDef } from '../../route-definition';
import { pagePolicy } from '../../security-headers';
import { ErrorSchema } from '../../common-schemas';
import { DocsAssetParams, HealthSchema, OpenApiDocumentSchema, ReadySchema, type DocsAssetFile } from './system-schemas';

const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const redocBundle = path.join(path.dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');

const ASSETS: Record<Exclude<DocsAssetFile, 'swagger-init.js'>, { file: string; type: string }> = {
  'swagger-ui.css': { file: path.join(swaggerDir, 'swagger-ui.css'), type: 'text/css' },
  'swagger-ui-bundle.js': { file: path.join(swaggerDir, 'swagger-ui-bundle.js'), type: 'application/javascript' },
  'swagger-ui-standalone-preset.js': { file: path.join(swaggerDir, 'swagger-ui-standalone-preset.js'), type: 'application/javascript' },
  'favicon-32x32.png': { file: path.join(swaggerDir, 'favicon-32x32.png'), type: 'image/png' },
  'redoc.standalone.js': { file: redocBundle, type: 'application/javascript' },
};

const SWAGGER_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>FIP API – Swagger UI</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="icon" href="/docs/assets/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/swagger-init.js"></script>
</body></html>`;
const SWAGGER_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });`;
const REDOC_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>FIP API – ReDoc</title></head>
<body><redoc spec-url="/openapi.json"></redoc><script src="/docs/assets/redoc.standalone.js"></script></body></html>`;

// What each viewer loads, and nothing more: its own scripts and stylesheet from /docs/assets, the
// document from /openapi.json, inline styles (both render with React style attributes, ReDoc with
// styled-components), icons as data: URIs, and ReDoc's search index in a blob: worker.
const SWAGGER_CSP = pagePolicy("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'");
const REDOC_CSP = pagePolicy("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; worker-src blob:");

let cachedDocument: Record<string, unknown> | null = null;

export function systemRoutes(getAllRoutes: () => RouteDef[]): RouteDef[] {
  return [
    defineRoute({
      method: 'get', path: '/healthz', summary: 'Liveness: the process is up', tags: ['system'], access: { public: true },
      responses: { 200: { description: 'Alive', schema: HealthSchema } },
      handler: async () => ({ body: { status: 'ok' } }),
    }),
    defineRoute({
      method: 'get', path: '/readyz', summary: 'Readiness: database and Temporal reachable', tags: ['system'], access: { public: true },
      responses: { 200: { description: 'Ready', schema: ReadySchema }, 503: { description: 'A dependency is unreachable', schema: ReadySchema } },
      handler: async ({ deps, ctx }) => {
        const { ready, checks, failures } = await checkReadiness(deps);
        // Public answers name the failing dependency only; the detail is logged with the request id.
        const log = (ctx.state.log ?? deps.log) as typeof deps.log;
        for (const { dependency, detail } of failures) log.warn({ dependency, detail }, 'readiness check failed');
        return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not_ready', checks } };
      },
    }),
    defineRoute({
      method: 'get', path: '/openapi.json', summary: 'This OpenAPI 3.1 document', tags: ['system'], access: { public: true },
      responses: { 200: { description: 'OpenAPI document', schema: OpenApiDocumentSchema } },
      handler: async () => {
        cachedDocument ??= buildOpenApiDocument(getAllRoutes());
        return { body: cachedDocument };
      },
    }),
    defineRoute({
      method: 'get', path: '/docs', summary: 'Swagger UI', tags: ['system'], access: { public: true },
      responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
      handler: async ({ ctx }) => {
        ctx.type = 'text/html';
        ctx.set('Content-Security-Policy', SWAGGER_CSP);
        return { body: SWAGGER_HTML };
      },
    }),
    defineRoute({
      method: 'get', path: '/redoc', summary: 'ReDoc', tags: ['system'], access: { public: true },
      responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
      handler: async ({ ctx }) => {
        ctx.type = 'text/html';
        ctx.set('Content-Security-Policy', REDOC_CSP);
        return { body: REDOC_HTML };
      },
    }),
    defineRoute<{ file: DocsAssetFile }>({
      method: 'get', path: '/docs/assets/{file}', summary: 'Static files of the documentation viewers', tags: ['system'],
      access: { public: true },
      request: { params: DocsAssetParams },
      responses: {
        200: { description: 'The file', contentType: [...new Set(['application/javascript', ...Object.values(ASSETS).map((a) => a.type)])] },
        400: { description: 'Unknown file', schema: ErrorSchema },
      },
      handler: async ({ params, ctx }) => {
        ctx.set('Cache-Control', 'public, max-age=3600');
        if (params.file === 'swagger-init.js') {
          ctx.type = 'application/javascript';
          return { body: SWAGGER_INIT };
        }
        const asset = ASSETS[params.file];
        ctx.type = asset.type;
        return { body: fs.createReadStream(asset.file) };
      },
    }),
  ];
}
