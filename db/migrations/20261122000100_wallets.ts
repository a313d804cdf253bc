// Wallet addresses found by investigations (scam-site scans). Writes are idempotent on
// (scan_id, network, token, address) so retried activities do not duplicate rows.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');
  await knex.schema.createTable('wallets', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('scan_id').notNullable();
    t.text('address').notNullable();
    t.text('token').notNullable();
    t.text('network').notNullable();
    t.text('confidence').notNullable();
    t.text('source').notNullable();
    t.text('context').notNullable().defaultTo('');
    t.text('page_url').nullable();
    t.timestamp('found_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['scan_id', 'network', 'token', 'address'], { indexName: 'wallets_scan_network_token_address_uq' });
    t.index(['scan_id', 'found_at', 'id'], 'wallets_scan_found_idx');
    t.index(['address'], 'wallets_address_idx');
    t.index(['token', 'network'], 'wallets_token_network_idx');
    t.index(['network'], 'wallets_network_idx');
    t.index(['found_at', 'id'], 'wallets_found_id_idx');
  });
  await knex.raw("ALTER TABLE wallets ADD CONSTRAINT wallets_confidence_check CHECK (confidence IN ('high', 'medium', 'low'))");
  // Substring search on addresses (cross-investigation wallet search).
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm').catch(() => undefined);
  const trgm = await knex.raw("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'");
  if ((trgm as { rows: unknown[] }).rows.length) {
    await knex.raw('CREATE INDEX wallets_address_trgm_idx ON wallets USING gin (lower(address) gin_trgm_ops)');
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('wallets');
}
