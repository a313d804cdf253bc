// The funnel agent's synthetic personas and what sites asked them for. A persona belongs to a site
// (its registrable domain, or host:port for an address): a revisit reuses it. Its values (name,
// e-mail, password, phone, ...) and its browser session are sealed in vault_secrets (owner kinds
// `persona` and `persona_session`); these tables hold ids, the site and timestamps only.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('personas', (t) => {
    t.uuid('id').primary();
    t.text('site').notNullable().unique();
    t.uuid('created_by_scan').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('registered_at', { useTz: true });
    t.timestamp('session_saved_at', { useTz: true });
  });
  await knex.schema.createTable('investigation_personas', (t) => {
    t.uuid('scan_id').primary().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.uuid('persona_id').notNullable().references('id').inTable('personas');
    t.boolean('reused').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('investigation_pii_exposures', (t) => {
    t.bigIncrements('id');
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('page_url').notNullable();
    t.text('state').notNullable();
    t.text('field').notNullable().defaultTo('');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['scan_id', 'kind', 'page_url', 'field']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('investigation_pii_exposures');
  await knex.schema.dropTable('investigation_personas');
  await knex.schema.dropTable('personas');
}
