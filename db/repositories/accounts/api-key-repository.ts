import type { Knex } from 'knex';
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

export async function insertApiKey(
  knex: Knex,
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

/** Revokes the active key with that name or id. Returns false when none matched. */
export async function revokeApiKey(knex: Knex, nameOrId: string): Promise<boolean> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(nameOrId);
  const n = await knex('api_keys')
    .whereNull('revoked_at')
    .where((q) => {
      q.where('name', nameOrId);
      if (isUuid) q.orWhere('id', nameOrId);
    })
    .update({ revoked_at: knex.fn.now() });
  return n > 0;
}
