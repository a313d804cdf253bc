// Resolves who is calling. An X-API-KEY header is a trusted service; otherwise the identity-aware
// proxy's header is a person, trusted only when SVC_AUTH__TRUST_PROXY_HEADER=true and, when an IAP
// audience is configured, only with a signed assertion naming the same e-mail. Which service a key
// stands for and which roles a person holds are services/accounts/ (one prepared query each).
//
// The identity headers are read strictly: each at most once (Node joins a repeated header with
// ", ", and behind a proxy that passes a client's header through, "the last one wins" would let the
// client pick who it is), and the proxy's value exactly `<SVC_AUTH__IDENTITY_PREFIX><e-mail>`.
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { parseProxyIdentity, type Principal } from '../../domain/accounts/roles';
import { apiKeyPrincipal } from '../../services/accounts/api-key-service';
import { userPrincipal } from '../../services/accounts/user-service';
import { UnauthorizedError } from '../errors';
import { createIapVerifier } from './iap-assertion';

export type Authenticator = (ctx: Koa.Context) => Promise<Principal | null>;

const IAP_ASSERTION_HEADER = 'x-goog-iap-jwt-assertion';

/** How many times the request carries header `name` (case-insensitive), from the raw header list. */
export function headerCount(rawHeaders: readonly string[], name: string): number {
  const lower = name.toLowerCase();
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === lower) count++;
  return count;
}

/** The header's value when it was sent once, '' when not at all; a repeated header is a 401. */
function singleHeader(ctx: Koa.Context, name: string): string {
  const count = headerCount(ctx.req.rawHeaders, name);
  if (count > 1) throw new UnauthorizedError(`the ${name} header was sent ${count} times; exactly one is accepted`);
  return count ? ctx.get(name) : '';
}

export function createAuthenticator(config: AppConfig, knex: Knex): Authenticator {
  const auth = config.auth;
  const iap = createIapVerifier(auth);
  const bootstrapAdmins = new Set(auth.bootstrap_admins.map((e) => e.toLowerCase()));
  const deps = { knex };
  const expected = auth.identity_prefix ? `"${auth.identity_prefix}<e-mail>"` : 'a bare e-mail address';

  return async (ctx) => {
    const apiKey = singleHeader(ctx, 'x-api-key');
    if (apiKey) return apiKeyPrincipal(deps, apiKey);

    if (!auth.trust_proxy_header) return null;
    const header = singleHeader(ctx, auth.identity_header);
    if (!header) return null;
    const email = parseProxyIdentity(header, auth.identity_prefix);
    if (!email) throw new UnauthorizedError(`the ${auth.identity_header} header must be exactly ${expected}`);
    if (iap) {
      const assertion = singleHeader(ctx, IAP_ASSERTION_HEADER);
      if (!assertion) throw new UnauthorizedError('missing X-Goog-IAP-JWT-Assertion');
      let asserted: string;
      try {
        asserted = await iap.verify(assertion, ctx.state.log);
      } catch {
        throw new UnauthorizedError('the IAP assertion did not verify');
      }
      if (asserted !== email) throw new UnauthorizedError('the IAP assertion names a different user');
    }
    return userPrincipal(deps, email, bootstrapAdmins);
  };
}
