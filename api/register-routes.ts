// Mounts every declared route on the router with its access check, input validation and response.
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type Koa from 'koa';
import { decideAccess } from '../domain/accounts/access-policy';
import type { AppDeps } from './app-deps';
import type { Authenticator } from './auth/authenticate';
import { ApiError, BadRequestError, ForbiddenError, PayloadTooLargeError, UnauthorizedError, UnsupportedMediaTypeError } from './errors';
import { assertJsonDepth } from './json-depth';
import { parsePart } from './request-validation';
import type { RouteDef } from './route-definition';

export function koaPath(openApiPath: string): string {
  return openApiPath.replace(/\{([a-zA-Z0-9_]+)\}/g, ':$1');
}

export function buildRouter(routes: RouteDef[], deps: AppDeps, authenticate: Authenticator): Router {
  // A literal path beats a parameter at the same place (GET /investigations/ssi/wallets is not
  // GET /investigations/ssi/{scan_id} with scan_id "wallets"), whatever the order of the route table.
  const router = new Router({ exclusive: 'specificity' });
  // Methods of each literal (parameter-free) path: a request for such a path with another method is
  // a 405, even when a parameter route of that method would match it (PUT /playbooks/ssi/test-match
  // is not PUT /playbooks/ssi/{id}).
  const literalMethods = new Map<string, string[]>();
  for (const r of routes) {
    if (!r.path.includes('{')) literalMethods.set(r.path, [...(literalMethods.get(r.path) ?? []), r.method.toUpperCase()]);
  }
  const jsonBody = koaBody({
    json: true,
    urlencoded: false,
    text: false,
    multipart: false,
    jsonLimit: `${deps.config.api.body_limit_mb}mb`,
    jsonStrict: true,
    onError: (err: Error & { status?: number; type?: string }) => {
      if (err.status === 413) throw new PayloadTooLargeError(`request body over ${deps.config.api.body_limit_mb} MB`);
      throw new BadRequestError('invalid_json', 'the request body is not valid JSON');
    },
  });
  for (const route of routes) {
    if (!route.access) throw new Error(`route ${route.method.toUpperCase()} ${route.path} declares no access policy`);
    const path = koaPath(route.path);
    const guard: Koa.Middleware = async (ctx, next) => {
      const literal = route.path.includes('{') ? literalMethods.get(ctx.path) : undefined;
      if (literal) {
        const allow = [...literal, ...(literal.includes('GET') ? ['HEAD'] : [])].join(', ');
        ctx.set('Allow', allow);
        throw new ApiError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`, { allow });
      }
      const principal = route.access && 'public' in route.access ? null : await authenticate(ctx);
      const decision = decideAccess(route.access, principal);
      if (decision === 'unauthenticated') throw new UnauthorizedError();
      if (decision === 'forbidden') throw new ForbiddenError();
      ctx.state.principal = principal;
      if (route.request?.multipart && !ctx.is('multipart/form-data')) {
        throw new UnsupportedMediaTypeError('this endpoint takes multipart/form-data');
      }
      if (route.request?.body) {
        const length = Number(ctx.get('content-length') || 0);
        const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
        if (hasBody && !ctx.is('application/json')) {
          throw new UnsupportedMediaTypeError('this endpoint takes application/json');
        }
        if (hasBody) {
          await jsonBody(ctx, async () => undefined);
          assertJsonDepth((ctx.request as { body?: unknown }).body, deps.config.api.json_max_depth);
        }
      }
      await next();
    };
    const handle: Koa.Middleware = async (ctx) => {
      const params = parsePart(route.request?.params, ctx.params, 'params');
      const query = parsePart(route.request?.query, ctx.query, 'query');
      const rawBody = (ctx.request as { body?: unknown }).body;
      const body = parsePart(route.request?.body, rawBody === undefined ? {} : rawBody, 'body');
      const headers = parsePart(route.request?.headers, ctx.headers, 'headers') ?? {};
      const result = await route.handler({ params, query, body, headers, principal: ctx.state.principal ?? null, deps, ctx });
      if (result) {
        ctx.status = result.status ?? 200;
        if (result.body !== undefined) ctx.body = result.body;
      }
    };
    router.register(path, [route.method.toUpperCase()], [guard, handle], { name: `${route.method} ${route.path}` });
  }
  return router;
}
