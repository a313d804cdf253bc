// Idempotency keys of POST requests (the Idempotency-Key header), generic over what they create:
// one row per (scope, principal, key) with the request's hash and the response to repeat.
// Used by POST /reports/generate (scope 'reports.generate'); intake submission can reuse it.
import type { Knex } from 'knex';

export interface IdempotencyKeyRow<R = unknown> {
  scope: string;
  principal: string;
  key: string;
  request_hash: string;
  response: R;
  created_at: Date;
}

/**
 * Stores the key with its response unless the key is already known; returns the row that holds
 * (the new one, or the earlier request's). Atomic: of concurrent identical requests exactly one
 * inserts (`created`), the others read its row.
 */
export async function claimIdempotencyKey<R>(
  knex: Knex,
  entry: { scope: string; principal: string; key: string; requestHash: string; response: R },
): Promise<{ created: boolean; row: IdempotencyKeyRow<R> }> {
  const ident = { scope: entry.scope, principal: entry.principal, key: entry.key };
  const [inserted] = await knex('idempotency_keys')
    .insert({ ...ident, request_hash: entry.requestHash, response: JSON.stringify(entry.response) })
    .onConflict(['scope', 'principal', 'key'])
    .ignore()
    .returning('*');
  if (inserted) return { created: true, row: inserted as IdempotencyKeyRow<R> };
  const row = await knex<IdempotencyKeyRow<R>>('idempotency_keys').where(ident).first();
  return { created: false, row: row as IdempotencyKeyRow<R> };
}
