// API keys of trusted services (`fip_<prefix>_<secret>`: domain/accounts/api-key-format.ts), as
// use cases. The CLI (`fip keys`) and the admin routes call the same ones; creating and revoking
// are written to the audit log in the same transaction (`actor`: who did it, `cli` for the command
// line), never the secret:
// - createApiKey: a new key; its secret is answered once and only its hash stored (409 when an
//   active key has that name)
// - listApiKeys / listApiKeysPage: every key (the page: newest first), never its secret or hash
// - revokeApiKey: revoke the active key with that name or id; undefined when none matched
// - revokeApiKeyById: the same by id for the API (404 when there is no such key; a revoked one
//   stays as it is)
// - apiKeyPrincipal: the service a presented key stands for (401 when invalid or revoked; every
//   request with a key)
import {
  findActiveApiKeyByPrefix,
  findApiKey,
  insertApiKey,
  listApiKeys as listApiKeyRows,
  listApiKeysPage as listApiKeyPage,
  revokeApiKey as revokeApiKeyRow,
  touchApiKey,
  type ApiKeyFilter,
  type ApiKeySummary,
} from '../../db/repositories/accounts/api-key-repository';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { apiKeyMatches, apiKeyPrefix, generateApiKey } from '../../domain/accounts/api-key-format';
import type { ApiKeyScope, Principal } from '../../domain/accounts/roles';
import type { KeysetPage } from '../../domain/keyset';
import { ConflictError, NotFoundError, UnauthorizedError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { ApiKeySummary } from '../../db/repositories/accounts/api-key-repository';

/** PostgreSQL's unique_violation: an active key already has the name. */
const UNIQUE_VIOLATION = '23505';

export async function createApiKey(deps: Pick<ServiceDeps, 'knex'>, actor: string, input: { name: string; scopes: ApiKeyScope[] }): Promise<{ key: string; summary: ApiKeySummary }> {
  const fresh = generateApiKey();
  try {
    const summary = await deps.knex.transaction(async (trx) => {
      const row = await insertApiKey(trx, { name: input.name, prefix: fresh.prefix, hash: fresh.hash, scopes: input.scopes });
      await recordAuditEvent(trx, { actor, action: 'api_key.create', target_type: 'api_key', target_id: row.id, details: { name: row.name, scopes: row.scopes } });
      return row;
    });
    return { key: fresh.key, summary };
  } catch (err) {
    if ((err as { code?: string }).code === UNIQUE_VIOLATION) throw new ConflictError(`an active key named ${input.name} exists; revoke it first`);
    throw err;
  }
}

export async function listApiKeys(deps: Pick<ServiceDeps, 'knex'>): Promise<ApiKeySummary[]> {
  return listApiKeyRows(deps.knex);
}

export async function listApiKeysPage(deps: Pick<ServiceDeps, 'knex'>, filter: ApiKeyFilter): Promise<KeysetPage<ApiKeySummary>> {
  return listApiKeyPage(deps.knex, filter);
}

export async function revokeApiKey(deps: Pick<ServiceDeps, 'knex'>, actor: string, nameOrId: string, idOnly = false): Promise<ApiKeySummary | undefined> {
  return deps.knex.transaction(async (trx) => {
    const row = await revokeApiKeyRow(trx, nameOrId, idOnly);
    if (row) await recordAuditEvent(trx, { actor, action: 'api_key.revoke', target_type: 'api_key', target_id: row.id, details: { name: row.name, scopes: row.scopes } });
    return row;
  });
}

export async function revokeApiKeyById(deps: Pick<ServiceDeps, 'knex'>, actor: string, id: string): Promise<ApiKeySummary> {
  const revoked = await revokeApiKey(deps, actor, id, true);
  if (revoked) return revoked;
  const existing = await findApiKey(deps.knex, id);
  if (!existing) throw new NotFoundError(`no API key ${id}`);
  return existing;
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
