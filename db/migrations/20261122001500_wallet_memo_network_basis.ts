// Wallet engine v2: the memo / destination tag / comment that identifies the victim's
// account at an exchange (XRP, Stellar, TON, EOS, ...), and how the network was chosen
// (`default` = nothing on the page named it). Both nullable: rows written before stay valid.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('wallets', (t) => {
    t.text('memo').nullable();
    t.text('network_basis').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('wallets', (t) => {
    t.dropColumn('memo');
    t.dropColumn('network_basis');
  });
}
