// Takedowns: an abuse report about one investigated site (its recipients from RDAP and its XARF
// report), approved by a second person, mailed once per recipient, and the site watched until it is
// gone (one history row per event: created, approved, sent, each check). RDAP answers are cached
// with the time they were fetched.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('takedowns', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('scan_id').notNullable();
    t.text('url').notNullable();
    t.text('domain').notNullable();
    t.text('status').notNullable().defaultTo('draft');
    t.text('created_by').notNullable();
    t.text('approved_by');
    t.timestamp('approved_at', { useTz: true });
    t.text('sent_by');
    t.timestamp('sent_at', { useTz: true });
    t.jsonb('xarf').notNullable();
    t.text('summary').notNullable();
    t.text('site_status').notNullable().defaultTo('unknown');
    t.timestamp('checked_at', { useTz: true });
    // What the site answered when the report was made (status and the SHA-256 of its body): a later
    // check that differs is a changed site.
    t.jsonb('baseline').notNullable().defaultTo('{}');
    t.uuid('reinvestigation_scan_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['scan_id']);
  });
  await knex.raw("ALTER TABLE takedowns ADD CONSTRAINT takedowns_status CHECK (status IN ('draft', 'approved', 'sending', 'sent'))");
  await knex.raw("ALTER TABLE takedowns ADD CONSTRAINT takedowns_site_status CHECK (site_status IN ('up', 'down', 'changed', 'unknown'))");
  await knex.raw('CREATE INDEX takedowns_created_idx ON takedowns (created_at DESC, id DESC)');

  await knex.schema.createTable('takedown_recipients', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('takedown_id').notNullable().references('takedowns.id').onDelete('CASCADE');
    t.text('role').notNullable();
    t.text('email').notNullable();
    t.text('source').notNullable();
    t.text('organization');
    t.timestamp('sent_at', { useTz: true });
    t.text('message_id');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.unique(['takedown_id', 'email'], { indexName: 'takedown_recipients_uq' });
  });
  await knex.raw("ALTER TABLE takedown_recipients ADD CONSTRAINT takedown_recipients_role CHECK (role IN ('hosting', 'registrar', 'other'))");

  await knex.schema.createTable('takedown_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('takedown_id').notNullable().references('takedowns.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('actor').notNullable();
    t.text('site_status');
    t.jsonb('detail').notNullable().defaultTo('{}');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['takedown_id', 'at']);
  });

  await knex.schema.createTable('rdap_cache', (t) => {
    // `domain:<name>` or `ip:<address>`.
    t.text('query').primary();
    t.text('server').notNullable();
    t.jsonb('answer').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rdap_cache');
  await knex.schema.dropTableIfExists('takedown_events');
  await knex.schema.dropTableIfExists('takedown_recipients');
  await knex.schema.dropTableIfExists('takedowns');
}
