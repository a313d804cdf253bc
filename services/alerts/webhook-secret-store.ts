// A watchlist's webhook secret, sealed in the vault (infra/vault.ts, owner kind `watchlist-webhook`)
// like every other secret the platform must read back: the HMAC key is needed in clear to sign each
// delivery, so it is encrypted at rest rather than hashed. The watchlists table keeps no copy.
import type { Knex } from 'knex';
import { deleteVaultSecret, findVaultSecret, upsertSealedRecord } from '../../db/repositories/vault/vault-secret-repository';
import type { AppConfig } from '../../config/config';
import { vaultFor } from '../../infra/vault';

const owner = (watchlistId: string) => ({ kind: 'watchlist-webhook', id: watchlistId });
const context = (watchlistId: string) => `watchlist-webhook:${watchlistId}`;

/** Seals (or replaces) the watchlist's webhook secret, in the caller's transaction. */
export async function sealWebhookSecret(knex: Knex | Knex.Transaction, config: AppConfig, watchlistId: string, secret: string): Promise<void> {
  await upsertSealedRecord(knex, owner(watchlistId), vaultFor(config).seal(Buffer.from(secret, 'utf8'), context(watchlistId)));
}

/** The watchlist's webhook secret, or null when it has none. */
export async function openWebhookSecret(knex: Knex, config: AppConfig, watchlistId: string): Promise<string | null> {
  const sealed = await findVaultSecret(knex, owner(watchlistId));
  return sealed ? vaultFor(config).open(sealed, context(watchlistId)).toString('utf8') : null;
}

export async function dropWebhookSecret(knex: Knex | Knex.Transaction, watchlistId: string): Promise<void> {
  await deleteVaultSecret(knex, owner(watchlistId));
}
