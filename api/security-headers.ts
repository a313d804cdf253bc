// Headers every answer carries, set before the route runs so that error answers, JSON and
// downloads alike have them: no MIME sniffing (a download is never run as a script or page), no
// framing (click-jacking), and a Content-Security-Policy that allows nothing. A route serving an
// HTML page (the console, /docs, /redoc) replaces the policy with exactly what that page loads,
// always keeping frame-ancestors 'none'.
import type Koa from 'koa';

/** For answers that are not pages (JSON, downloads, errors): nothing may load, nothing may frame it. */
export const NOTHING_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function pagePolicy(directives: string): string {
  return `${directives}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

export const securityHeaders: Koa.Middleware = async (ctx, next) => {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', NOTHING_CSP);
  await next();
};
