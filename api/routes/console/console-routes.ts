// The analysts' console (console/, built into console/dist by infra/console-build.ts): a static
// single-page app at /console. Its client-side routes (/console/investigations/<scan id>/results,
// ...) answer the same index.html; its assets are content-hashed files under /console/assets. No
// data is served here: the app calls the API same-origin with the user's identity.
//
// GET /accounts/local-sign-in tells the console, on a developer's machine, which users it may sign
// in as (services/accounts/user-service.ts; domain/accounts/local-sign-in.ts decides when that mode
// is on; elsewhere it is 404).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { localSignInUsers } from '../../../services/accounts/user-service';
import { CONSOLE_DIST } from '../../../infra/console-build';
import { ApiError, NotFoundError } from '../../errors';
import { defineRoute, type RouteDef } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import { LocalSignInSchema } from '../accounts/account-schemas';
import { ASSET_TYPES, AssetParams, ViewIdParams, ViewIdTabParams, ViewParams } from './console-schemas';

const HTML_RESPONSES = {
  200: { description: 'The console (index.html; the app routes on the client)', contentType: 'text/html' },
  503: { description: 'console_not_built: the console bundle is missing (run npm run build:console)', schema: ErrorSchema },
};

class ConsoleNotBuiltError extends ApiError {
  constructor() {
    super(503, 'console_not_built', 'the console is not built: run npm run build:console (npm start and npm run api build it when missing)');
  }
}

function indexHtml(ctx: { type: string; set(name: string, value: string): void }) {
  const file = path.join(CONSOLE_DIST, 'index.html');
  if (!fs.existsSync(file)) throw new ConsoleNotBuiltError();
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'");
  return { body: fs.createReadStream(file) };
}

const page = (p: string, params?: z.ZodType) =>
  defineRoute<Record<string, string>>({
    method: 'get', path: p, summary: 'The analysts\' console (a client-side route of the single-page app)', tags: ['console'], access: { public: true },
    request: params ? { params: params as z.ZodType<Record<string, string>> } : undefined,
    responses: params ? { ...HTML_RESPONSES, 400: { description: 'Not a console route', schema: ErrorSchema } } : HTML_RESPONSES,
    handler: async ({ ctx }) => indexHtml(ctx),
  });

export const consoleRoutes: RouteDef[] = [
  page('/console'),
  page('/console/{view}', ViewParams),
  page('/console/{view}/{id}', ViewIdParams),
  page('/console/{view}/{id}/{tab}', ViewIdTabParams),
  defineRoute<{ file: string }>({
    method: 'get', path: '/console/assets/{file}', summary: 'Static files of the console (content-hashed names, cached for a year)', tags: ['console'],
    access: { public: true },
    request: { params: AssetParams },
    responses: {
      200: { description: 'The file', contentType: [...new Set(Object.values(ASSET_TYPES))] },
      400: { description: 'Not an asset file name', schema: ErrorSchema },
      404: { description: 'No such file in the console bundle', schema: ErrorSchema },
    },
    handler: async ({ params, ctx }) => {
      const file = path.join(CONSOLE_DIST, 'assets', params.file);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) throw new NotFoundError(`no console asset ${params.file}`);
      ctx.type = ASSET_TYPES[path.extname(params.file)];
      ctx.length = stat.size;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      return { body: fs.createReadStream(file) };
    },
  }),
  defineRoute({
    method: 'get', path: '/accounts/local-sign-in',
    summary: 'Developer sign-in for the console: the users one may act as. Answers only when the API trusts the unverified identity header on loopback (SVC_AUTH__TRUST_PROXY_HEADER and SVC_AUTH__ALLOW_UNVERIFIED_HEADER true, no IAP audience, SVC_API__HOST loopback); else 404',
    tags: ['accounts'], access: { public: true },
    responses: {
      200: { description: 'Local sign-in is on: the header to send and the active users', schema: LocalSignInSchema },
      404: { description: 'Local sign-in is off (the identity comes from the proxy)', schema: ErrorSchema },
    },
    handler: async ({ deps }) => ({ body: await localSignInUsers(deps) }),
  }),
];
