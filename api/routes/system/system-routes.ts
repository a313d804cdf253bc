// Health, readiness, the OpenAPI document and its two viewers (served from npm packages: no CDN).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { buildOpenApiDocument } from '../../openapi';
import { defineRoute, type RouteDef } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';

const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const redocBundle = path.join(path.dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');

const ASSETS: Record<string, { file: string; type: string }> = {
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

let cachedDocument: Record<string, unknown> | null = null;

const HealthSchema = z.object({ status: z.literal('ok') });
const CheckSchema = z.enum(['ok', 'unavailable']);
const ReadySchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({ database: CheckSchema, temporal: CheckSchema }),
});

type CheckResult = { ok: true } | { ok: false; detail: string };

/** Public answers name the failing dependency only; the caller logs the detail with the request id. */
async function check(fn: () => Promise<unknown>, timeoutMs = 3000): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_r, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true };
  } catch (err) {
    return { ok: false, detail: err instanceof Error ? err.message.split('\n')[0] : 'unreachable' };
  } finally {
    clearTimeout(timer);
  }
}

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
        const [database, temporal] = await Promise.all([
          check(() => deps.knex.raw('select 1')),
          // a deadline, so that the SDK's retries of an unreachable server end with the check
          check(() => deps.temporal.connection.withDeadline(Date.now() + 3000, () => deps.temporal.workflowService.getSystemInfo({}))),
        ]);
        const log = (ctx.state.log ?? deps.log) as typeof deps.log;
        for (const [dependency, result] of [['database', database], ['temporal', temporal]] as const) {
          if (!result.ok) log.warn({ dependency, detail: result.detail }, 'readiness check failed');
        }
        const ready = database.ok && temporal.ok;
        const checks = { database: database.ok ? 'ok' : 'unavailable', temporal: temporal.ok ? 'ok' : 'unavailable' } as const;
        return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not_ready', checks } };
      },
    }),
    defineRoute({
      method: 'get', path: '/openapi.json', summary: 'This OpenAPI 3.1 document', tags: ['system'], access: { public: true },
      responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
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
        return { body: SWAGGER_HTML };
      },
    }),
    defineRoute({
      method: 'get', path: '/redoc', summary: 'ReDoc', tags: ['system'], access: { public: true },
      responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
      handler: async ({ ctx }) => {
        ctx.type = 'text/html';
        return { body: REDOC_HTML };
      },
    }),
    defineRoute<{ file: string }>({
      method: 'get', path: '/docs/assets/{file}', summary: 'Static files of the documentation viewers', tags: ['system'],
      access: { public: true },
      request: { params: z.object({ file: z.enum(['swagger-init.js', ...Object.keys(ASSETS)] as [string, ...string[]]) }) },
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
