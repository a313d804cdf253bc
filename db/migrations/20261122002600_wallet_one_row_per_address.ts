// Wallet engine v2: one row per address and network in a scan, as the engine
// answers. Until now the key held the token too, so one address seen on two pages with two
// different tokens was two rows with conflicting attributions. The token is now an attribute of
// the row, decided by evidence strength (confidence, then how the network and the token were
// chosen: token_basis is new). Rows already stored are merged: the strongest reading of each
// address stays (confidence, then the earliest found).
import type { Knex } from 'knex';

const CONFIDENCE_RANK = `CASE confidence WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('wallets', (t) => {
    t.text('token_basis').nullable();
  });
  await knex.raw(`
    DELETE FROM wallets w USING (
      SELECT id, row_number() OVER (PARTITION BY scan_id, network, address ORDER BY ${CONFIDENCE_RANK} DESC, found_at, id) AS n FROM wallets
    ) ranked
    WHERE w.id = ranked.id AND ranked.n > 1`);
  await knex.schema.alterTable('wallets', (t) => {
    t.dropUnique(['scan_id', 'network', 'token', 'address'], 'wallets_scan_network_token_address_uq');
    t.unique(['scan_id', 'network', 'address'], { indexName: 'wallets_scan_network_address_uq' });
  });
  // The state in which each wallet was first found follows the same key.
  await knex.raw(`
    DELETE FROM investigation_wallet_states s USING (
      SELECT ctid, row_number() OVER (PARTITION BY scan_id, network, address ORDER BY first_seen_at, token) AS n FROM investigation_wallet_states
    ) ranked
    WHERE s.ctid = ranked.ctid AND ranked.n > 1`);
  await knex.raw('ALTER TABLE investigation_wallet_states DROP CONSTRAINT investigation_wallet_states_pkey');
  await knex.raw('ALTER TABLE investigation_wallet_states ADD CONSTRAINT investigation_wallet_states_pkey PRIMARY KEY (scan_id, network, address)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE investigation_wallet_states DROP CONSTRAINT investigation_wallet_states_pkey');
  await knex.raw('ALTER TABLE investigation_wallet_states ADD CONSTRAINT investigation_wallet_states_pkey PRIMARY KEY (scan_id, network, token, address)');
  await knex.schema.alterTable('wallets', (t) => {
    t.dropUnique(['scan_id', 'network', 'address'], 'wallets_scan_network_address_uq');
    t.unique(['scan_id', 'network', 'token', 'address'], { indexName: 'wallets_scan_network_token_address_uq' });
    t.dropColumn('token_basis');
  });
}
