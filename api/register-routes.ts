// Mounts every declared route on the router with its access check, input validation and response.
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type Koa from 'koa';
import { decideAccess } from './access-policy';
import type { AppDeps } from './app-deps';
import type { Authenticator } from './auth/authenticate';
import { BadRequestError, ForbiddenError, PayloadTooLargeError, UnauthorizedError, UnsupportedMediaTypeError } from './errors';
import { parsePart } from './request-validation';
import type { RouteDef } from './route-definition';

export function koaPath(openApiPath: string): string {
  return openApiPath.replace(/\{([a-zA-Z0-9_]+)\}/g, ':$1');
}

/**
 * Literal segments before parameters, position by position (stable otherwise): the router answers
 * with the first route that matches, so GET /reviews/queue or /reviews/search must come before
 * GET /reviews/{id} whatever order the route table lists them in.
 */
export function bySpecificity(a: RouteDef, b: RouteDef): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith('{');
    const pb = sb[i]!.startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

export function buildRouter(routes: RouteDef[], deps: AppDeps, authenticate: Authenticator): Router {
  const router = new Router();
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
  for (const route of [...routes].sort(bySpecificity)) {
    if (!route.access) throw new Error(`route ${route.method.toUpperCase()} ${route.path} declares no access policy`);
    const path = koaPath(route.path);
    const guard: Koa.Middleware = async (ctx, next) => {
      const principal = route.access && 'public' in route.access ? null : await authenticate(ctx);
      const decision = decideAccess(route.access, principal);
      if (decision === 'unauthenticated') throw new UnauthorizedError();
      if (decision === 'forbidden') throw new ForbiddenError();
      ctx.state.principal = principal;
      if (route.request?.body) {
        const length = Number(ctx.get('content-length') || 0);
        const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
        if (hasBody && !ctx.is('application/json')) {
          throw new UnsupportedMediaTypeError('this endpoint takes application/json');
        }
        if (hasBody) await jsonBody(ctx, async () => undefined);
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
