import type { Knex } from 'knex';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';
import { prepared } from '../../prepared-query';
import type { ApiKeyScope } from '../../../domain/accounts/roles';

export interface ApiKeyRow {
  id: string;
  name: string;
  key_prefix: string;
  key_hash: Buffer;
  scopes: ApiKeyScope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export type ApiKeySummary = Omit<ApiKeyRow, 'key_hash'>;

const SUMMARY_COLUMNS = ['id', 'name', 'key_prefix', 'scopes', 'created_at', 'last_used_at', 'revoked_at'];

export async function insertApiKey(
  knex: Knex | Knex.Transaction,
  key: { name: string; prefix: string; hash: Buffer; scopes: ApiKeyScope[] },
): Promise<ApiKeySummary> {
  const [row] = await knex('api_keys')
    .insert({ name: key.name, key_prefix: key.prefix, key_hash: key.hash, scopes: key.scopes })
    .returning(['id', 'name', 'key_prefix', 'scopes', 'created_at', 'last_used_at', 'revoked_at']);
  return row as ApiKeySummary;
}

/** Every request with an API key asks this: a prepared statement (db/prepared-query.ts). */
export async function findActiveApiKeyByPrefix(knex: Knex, prefix: string): Promise<ApiKeyRow | undefined> {
  return (await prepared(
    knex('api_keys').where({ key_prefix: prefix }).whereNull('revoked_at').first('id', 'name', 'key_prefix', 'key_hash', 'scopes', 'created_at', 'last_used_at', 'revoked_at'),
  )) as ApiKeyRow | undefined;
}

export async function touchApiKey(knex: Knex, id: string): Promise<void> {
  await knex('api_keys').where({ id }).update({ last_used_at: knex.fn.now() });
}

export async function listApiKeys(knex: Knex): Promise<ApiKeySummary[]> {
  return knex('api_keys')
    .select(['id', 'name', 'key_prefix', 'scopes', 'created_at', 'last_used_at', 'revoked_at'])
    .orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }]);
}

export interface ApiKeyFilter {
  /** true: only keys in use; false: only revoked ones. */
  active?: boolean;
  limit: number;
  after?: Keyset;
}

/** Newest first, keyset-paginated; never the hash. */
export async function listApiKeysPage(knex: Knex, f: ApiKeyFilter): Promise<KeysetPage<ApiKeySummary>> {
  const q = knex('api_keys').select(SUMMARY_COLUMNS);
  if (f.active === true) q.whereNull('revoked_at');
  if (f.active === false) q.whereNotNull('revoked_at');
  return keysetPage<ApiKeySummary>(knex, q, { tsColumn: 'created_at', idColumn: 'id', limit: f.limit, after: f.after });
}

export async function findApiKey(knex: Knex | Knex.Transaction, id: string): Promise<ApiKeySummary | undefined> {
  return (await knex('api_keys').where({ id }).first(SUMMARY_COLUMNS)) as ApiKeySummary | undefined;
}

/** Revokes the active key with that name or id (`idOnly`: that id only): the revoked key, or undefined when none matched. */
export async function revokeApiKey(knex: Knex | Knex.Transaction, nameOrId: string, idOnly = false): Promise<ApiKeySummary | undefined> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(nameOrId);
  if (idOnly && !isUuid) return undefined;
  const [row] = await knex('api_keys')
    .whereNull('revoked_at')
    .where((q) => {
      if (idOnly) return void q.where('id', nameOrId);
      q.where('name', nameOrId);
      if (isUuid) q.orWhere('id', nameOrId);
    })
    .update({ revoked_at: knex.fn.now() })
    .returning(SUMMARY_COLUMNS);
  return row as ApiKeySummary | undefined;
}
