// The Koa application: request ids, structured logs, one error shape, then the route table. Under
// /taxii2/ the error shape is TAXII 2.1's error message in the TAXII media type (what TAXII clients
// parse), and a 401 carries the HTTP Basic challenge TAXII clients answer.
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type { AppDeps } from './app-deps';
import { createAuthenticator, type Authenticator } from './auth/authenticate';
import { TAXII_BASIC_REALM, TAXII_MEDIA_TYPE, isTaxiiPath, taxiiErrorMessage } from '../domain/exports/taxii';
import { ApiError, NotFoundError, errorBody } from './errors';
import { buildRouter } from './register-routes';
import { isCountedWrite, notifyAnalyticsChanged } from '../services/analytics/analytics-refresh-trigger';
import { allRoutes } from './route-table';
import { securityHeaders } from './security-headers';
import type { RouteDef } from './route-definition';

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

export interface AppOptions {
  authenticate?: Authenticator;
  /** Routes to serve; the platform's route table by default (tests may add their own). */
  routes?: RouteDef[];
}

export function createApp(deps: AppDeps, options: AppOptions = {}): Koa {
  const authenticate = options.authenticate ?? createAuthenticator(deps.config, deps.knex);
  const app = new Koa({ proxy: deps.config.api.trust_forwarded_headers });
  app.silent = true;

  app.use(securityHeaders);
  app.use(async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const log = deps.log.child({ request_id: requestId });
    ctx.state.log = log;
    const started = process.hrtime.bigint();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new NotFoundError(`no route for ${ctx.method} ${ctx.path}`);
      // The router answers 501 for a method it serves on no path (TRACE, ...): that is a 405 too, never a 5xx.
      if ((ctx.status === 405 || ctx.status === 501) && !ctx.body) {
        throw new ApiError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`, { allow: ctx.response.get('Allow') });
      }
    } catch (err) {
      const apiErr =
        err instanceof ApiError
          ? err
          : new ApiError(500, 'internal_error', 'internal error; quote the request id when reporting it', { request_id: requestId });
      if (!(err instanceof ApiError)) log.error({ err }, 'unhandled error');
      ctx.status = apiErr.status;
      if (isTaxiiPath(ctx.path)) {
        ctx.body = taxiiErrorMessage(apiErr.status, apiErr.code, apiErr.message, apiErr.details, requestId);
        ctx.set('Content-Type', TAXII_MEDIA_TYPE);
        if (apiErr.status === 401) ctx.set('WWW-Authenticate', `Basic realm="${TAXII_BASIC_REALM}", charset="UTF-8"`);
      } else {
        ctx.body = errorBody(apiErr);
        ctx.type = 'application/json';
      }
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  });

  // Writes the dashboards count refresh them soon after (debounced by the refresher workflow).
  app.use(async (ctx, next) => {
    await next();
    if (isCountedWrite(ctx.method, ctx.path, ctx.status)) notifyAnalyticsChanged(deps);
  });

  const router = buildRouter(options.routes ?? allRoutes(), deps, authenticate);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  return app;
}
