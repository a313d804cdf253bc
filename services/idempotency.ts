// The Idempotency-Key of a POST that starts something (an investigation, a report, a dossier, an
// intake): the first request with a key stores what it answered; a repeat with the same key and
// the same body answers that again instead of starting a second one; the same key with another
// body is refused. The route hashes the validated body (api/idempotency-key.ts) and passes
// `{ key, hash }`; the use case calls this before it starts anything.
import type { Knex } from 'knex';
import { claimIdempotencyKey } from '../db/repositories/idempotency-key-repository';
import { UnprocessableError } from './errors';

export interface IdempotencyKey {
  key: string;
  /** SHA-256 of the request's canonical JSON body. */
  hash: string;
}

const IDEMPOTENCY_KEY_REUSED_MESSAGE = 'this Idempotency-Key was already used with a different request body; use a new key';

/**
 * The answer recorded under `(scope, principal, key)`: `response` when this request is the first
 * (`created`), else the first request's. Atomic under concurrent repeats. Throws 422
 * `idempotency_key_reused` when the key was used with a different body.
 */
export async function claimIdempotentResponse<R>(
  knex: Knex,
  scope: string,
  principal: string,
  idempotency: IdempotencyKey,
  response: R,
): Promise<{ created: boolean; response: R }> {
  const { created, row } = await claimIdempotencyKey<R>(knex, { scope, principal, key: idempotency.key, requestHash: idempotency.hash, response });
  if (row.request_hash !== idempotency.hash) throw new UnprocessableError('idempotency_key_reused', IDEMPOTENCY_KEY_REUSED_MESSAGE);
  return { created, response: row.response };
}
