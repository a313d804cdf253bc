// The analysts' console (console/, built into console/dist by infra/console-build.ts): a static
// single-page app at /console. Its client-side routes (/console/investigations/<scan id>/results,
// ...) answer the same index.html; its assets are content-hashed files under /console/assets. No
// data is served here: the app calls the API same-origin with the user's identity.
//
// GET /accounts/local-sign-in tells the console, on a developer's machine, which users it may sign
// in as (domain/accounts/local-sign-in.ts decides when that mode is on; elsewhere it is 404).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { localSignInEnabled } from '../../../domain/accounts/local-sign-in';
import { ROLES } from '../../../domain/accounts/roles';
import { listUsers } from '../../../db/repositories/accounts/user-repository';
import { CONSOLE_DIST } from '../../../infra/console-build';
import type { AppDeps } from '../../app-deps';
import { ApiError, NotFoundError } from '../../errors';
import { defineRoute, type RouteDef } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';

/** The console's top-level views (console/src/routes.ts keeps the same list). */
export const CONSOLE_VIEWS = ['investigations', 'wallets', 'intakes', 'cases', 'reviews', 'reports', 'dashboard', 'sign-in'] as const;
export const CONSOLE_TABS = ['overview', 'results', 'pages', 'actions', 'evidence'] as const;

const ASSET_TYPES: Record<string, string> = {
  '.js': 'application/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2', '.ico': 'image/x-icon',
};
const AssetName = z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/).refine((f) => !f.startsWith('.') && path.extname(f) in ASSET_TYPES, 'an asset file name (.js, .css, .svg, .png, .woff2, .ico)');
const Id = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'an identifier (letters, digits, "-" and "_")');

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

const LocalSignInSchema = z
  .object({
    identity_header: z.string().describe('The header the console sends with the chosen e-mail'),
    users: z.array(z.object({ email: z.string(), roles: z.array(z.enum(ROLES)) })),
  })
  .meta({ id: 'LocalSignIn' });

function localMode(deps: AppDeps): boolean {
  const a = deps.config.auth;
  return localSignInEnabled({ host: deps.config.api.host, trustProxyHeader: a.trust_proxy_header, iapAudience: a.iap_audience, allowUnverifiedHeader: a.allow_unverified_header });
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
  page('/console/{view}', z.object({ view: z.enum(CONSOLE_VIEWS) })),
  page('/console/{view}/{id}', z.object({ view: z.enum(CONSOLE_VIEWS), id: Id })),
  page('/console/{view}/{id}/{tab}', z.object({ view: z.enum(CONSOLE_VIEWS), id: Id, tab: z.enum(CONSOLE_TABS) })),
  defineRoute<{ file: string }>({
    method: 'get', path: '/console/assets/{file}', summary: 'Static files of the console (content-hashed names, cached for a year)', tags: ['console'],
    access: { public: true },
    request: { params: z.object({ file: AssetName }) },
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
    handler: async ({ deps }) => {
      if (!localMode(deps)) throw new NotFoundError('local sign-in is off: the console uses the identity-aware proxy\'s identity');
      const users = (await listUsers(deps.knex)).filter((u) => u.active);
      return { body: { identity_header: deps.config.auth.identity_header, users: users.map((u) => ({ email: u.email, roles: u.roles })) } };
    },
  }),
];
