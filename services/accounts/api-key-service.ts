// API keys of trusted services (`fip_<prefix>_<secret>`: domain/accounts/api-key-format.ts), as
// use cases:
// - createApiKey: a new key; its secret is answered once and only its hash stored (409 when an
//   active key has that name)
// - listApiKeys: every key, never its secret or hash
// - revokeApiKey: revoke the active key with that name or id; false when none matched
// - apiKeyPrincipal: the service a presented key stands for (401 when invalid or revoked; every
//   request with a key)
import {
  findActiveApiKeyByPrefix,
  insertApiKey,
  listApiKeys as listApiKeyRows,
  revokeApiKey as revokeApiKeyRow,
  touchApiKey,
  type ApiKeySummary,
} from '../../db/repositories/accounts/api-key-repository';
import { apiKeyMatches, apiKeyPrefix, generateApiKey } from '../../domain/accounts/api-key-format';
import type { ApiKeyScope, Principal } from '../../domain/accounts/roles';
import { ConflictError, UnauthorizedError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { ApiKeySummary } from '../../db/repositories/accounts/api-key-repository';

/** PostgreSQL's unique_violation: an active key already has the name. */
const UNIQUE_VIOLATION = '23505';

export async function createApiKey(deps: Pick<ServiceDeps, 'knex'>, input: { name: string; scopes: ApiKeyScope[] }): Promise<{ key: string; summary: ApiKeySummary }> {
  const fresh = generateApiKey();
  try {
    const summary = await insertApiKey(deps.knex, { name: input.name, prefix: fresh.prefix, hash: fresh.hash, scopes: input.scopes });
    return { key: fresh.key, summary };
  } catch (err) {
    if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw new ConflictError(`an active key named ${input.name} exists; revoke it first`);
    throw err;
  }
}

export async function listApiKeys(deps: Pick<ServiceDeps, 'knex'>): Promise<ApiKeySummary[]> {
  return listApiKeyRows(deps.knex);
}

export async function revokeApiKey(deps: Pick<ServiceDeps, 'knex'>, nameOrId: string): Promise<boolean> {
  return revokeApiKeyRow(deps.knex, nameOrId);
}

/**
 * The service a presented key stands for. One prepared statement finds the key by its prefix; the
 * key's last use is recorded without making the request wait for it.
 */
export async function apiKeyPrincipal(deps: Pick<ServiceDeps, 'knex'>, key: string): Promise<Extract<Principal, { kind: 'service' }>> {
  const prefix = apiKeyPrefix(key);
  const row = prefix ? await findActiveApiKeyByPrefix(deps.knex, prefix) : undefined;
  if (!row || !apiKeyMatches(key, row.key_hash)) throw new UnauthorizedError('invalid or revoked API key');
  void touchApiKey(deps.knex, row.id).catch(() => undefined);
  return { kind: 'service', keyId: row.id, name: row.name, scopes: row.scopes };
}
