// The persona mailboxes of the funnel agent: each address at SVC_SSI__PERSONA_EMAIL_DOMAIN that a
// persona uses, and the investigation it belongs to. The inbound SMTP receiver accepts mail only for
// these addresses and signals that investigation's workflow. The address is not a victim's contact
// (a synthetic persona's) but it is kept lower-cased and unique so a mail reaches exactly one scan.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('persona_mailboxes', (t) => {
    t.text('address').primary();
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['scan_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('persona_mailboxes');
}
