// Resolves who is calling. An X-API-KEY header is a trusted service; otherwise the identity-aware
// proxy's header is a person, trusted only when SVC_AUTH__TRUST_PROXY_HEADER=true and, when an IAP
// audience is configured, only with a signed assertion naming the same e-mail.
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { apiKeyMatches, apiKeyPrefix } from '../../domain/accounts/api-key-format';
import { isRole, parseProxyIdentity, type Principal, type Role } from '../../domain/accounts/roles';
import { findActiveApiKeyByPrefix, touchApiKey } from '../../db/repositories/accounts/api-key-repository';
import { findActiveUserByEmail } from '../../db/repositories/accounts/user-repository';
import { UnauthorizedError } from '../errors';
import { createIapVerifier } from './iap-assertion';

export type Authenticator = (ctx: Koa.Context) => Promise<Principal | null>;

export function createAuthenticator(config: AppConfig, knex: Knex): Authenticator {
  const auth = config.auth;
  const iap = createIapVerifier(auth);
  const bootstrapAdmins = new Set(auth.bootstrap_admins.map((e) => e.toLowerCase()));

  return async (ctx) => {
    const apiKey = ctx.get('x-api-key');
    if (apiKey) {
      const prefix = apiKeyPrefix(apiKey);
      const row = prefix ? await findActiveApiKeyByPrefix(knex, prefix) : undefined;
      if (!row || !apiKeyMatches(apiKey, row.key_hash)) throw new UnauthorizedError('invalid or revoked API key');
      void touchApiKey(knex, row.id).catch(() => undefined);
      return { kind: 'service', keyId: row.id, name: row.name, scopes: row.scopes };
    }

    if (!auth.trust_proxy_header) return null;
    const header = ctx.get(auth.identity_header);
    if (!header) return null;
    const email = parseProxyIdentity(header);
    if (!email) throw new UnauthorizedError(`the ${auth.identity_header} header does not name an e-mail address`);
    if (iap) {
      const assertion = ctx.get('x-goog-iap-jwt-assertion');
      if (!assertion) throw new UnauthorizedError('missing X-Goog-IAP-JWT-Assertion');
      let asserted: string;
      try {
        asserted = await iap.verify(assertion, ctx.state.log);
      } catch {
        throw new UnauthorizedError('the IAP assertion did not verify');
      }
      if (asserted !== email) throw new UnauthorizedError('the IAP assertion names a different user');
    }
    const user = await findActiveUserByEmail(knex, email);
    const roles = new Set<Role>((user?.roles ?? []).filter(isRole));
    if (bootstrapAdmins.has(email)) roles.add('admin');
    return { kind: 'user', email, roles: [...roles].sort() };
  };
}
