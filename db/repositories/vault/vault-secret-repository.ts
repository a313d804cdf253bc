// Sealed records of the vault (infra/vault.ts): one per owner (e.g. an intake's contact data).
// Only ciphertext and wrapped data keys are stored here; plaintext never reaches the database.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { SealedRecord } from '../../../infra/vault';

export interface VaultSecretRow extends SealedRecord {
  id: string;
  owner_kind: string;
  owner_id: string;
  created_at: Date;
  rewrapped_at: Date | null;
}

export async function insertVaultSecret(knex: Knex | Knex.Transaction, owner: { kind: string; id: string }, sealed: SealedRecord): Promise<void> {
  await knex('vault_secrets')
    .insert({ id: randomUUID(), owner_kind: owner.kind, owner_id: owner.id, ...sealed })
    .onConflict(['owner_kind', 'owner_id'])
    .ignore();
}

/** Stores (or replaces) a sealed record: a persona's session changes as the funnel goes on, a webhook gets a new secret. */
export async function upsertSealedRecord(knex: Knex | Knex.Transaction, owner: { kind: string; id: string }, sealed: SealedRecord): Promise<void> {
  await knex('vault_secrets')
    .insert({ id: randomUUID(), owner_kind: owner.kind, owner_id: owner.id, ...sealed })
    .onConflict(['owner_kind', 'owner_id'])
    .merge(Object.keys(sealed));
}

export async function deleteVaultSecret(knex: Knex | Knex.Transaction, owner: { kind: string; id: string }): Promise<void> {
  await knex('vault_secrets').where({ owner_kind: owner.kind, owner_id: owner.id }).delete();
}

export async function findVaultSecret(knex: Knex, owner: { kind: string; id: string }): Promise<VaultSecretRow | undefined> {
  return knex<VaultSecretRow>('vault_secrets').where({ owner_kind: owner.kind, owner_id: owner.id }).first();
}

/** Up to `limit` records whose data key is not wrapped by `activeKeyId`, in id order after `afterId`. */
export async function listSecretsNotWrappedBy(knex: Knex, activeKeyId: string, limit: number, afterId?: string): Promise<VaultSecretRow[]> {
  const q = knex<VaultSecretRow>('vault_secrets').whereNot('key_id', activeKeyId).orderBy('id').limit(limit);
  if (afterId) q.where('id', '>', afterId);
  return q;
}

/** Replaces the wrapped data key when the row still carries the one that was read (no lost update). */
export async function updateWrappedKey(knex: Knex, id: string, from: { key_id: string }, to: { key_id: string; wrapped_key: Buffer }): Promise<boolean> {
  const n = await knex('vault_secrets')
    .where({ id, key_id: from.key_id })
    .update({ key_id: to.key_id, wrapped_key: to.wrapped_key, rewrapped_at: knex.fn.now() });
  return n === 1;
}

export async function countSecretsByKey(knex: Knex): Promise<Array<{ key_id: string; count: number }>> {
  const rows = (await knex('vault_secrets').select('key_id').count<Array<{ key_id: string; count: string }>>('* as count').groupBy('key_id')) as Array<{ key_id: string; count: string }>;
  return rows.map((r) => ({ key_id: r.key_id, count: Number(r.count) }));
}
