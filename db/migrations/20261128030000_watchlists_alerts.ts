// Watchlists (a person watches an entity, a saved search or a campaign with alert rules), the alerts
// they raise (and alerts raised without a watch, for analysts), and each alert's deliveries (e-mail,
// signed webhook) with one row per attempt: the delivery log.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('watchlists', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('owner').notNullable();
    t.text('name').notNullable();
    t.text('target_kind').notNullable();
    t.uuid('target_id').notNullable();
    t.jsonb('rules').notNullable();
    t.boolean('email').notNullable().defaultTo(true);
    t.text('webhook_url');
    t.text('webhook_secret');
    // The watched figures when last evaluated (or created): the next evaluation alerts on changes.
    t.jsonb('baseline').notNullable().defaultTo('{}');
    t.timestamp('evaluated_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['target_kind', 'target_id']);
  });
  await knex.raw('CREATE UNIQUE INDEX watchlists_owner_name_uq ON watchlists (owner, lower(name))');
  await knex.raw("ALTER TABLE watchlists ADD CONSTRAINT watchlists_target_kind CHECK (target_kind IN ('entity', 'saved_search', 'campaign'))");
  await knex.raw('CREATE INDEX watchlists_owner_created_idx ON watchlists (owner, created_at DESC, id DESC)');

  await knex.schema.createTable('alerts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('watchlist_id').references('watchlists.id').onDelete('CASCADE');
    // A person's e-mail, or `role:<role>` for alerts raised to everyone holding a role.
    t.text('recipient').notNullable();
    t.text('kind').notNullable();
    t.text('dedupe_key').notNullable();
    t.text('title').notNullable();
    t.jsonb('detail').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('acknowledged_at', { useTz: true });
    t.text('acknowledged_by');
    t.unique(['recipient', 'dedupe_key'], { indexName: 'alerts_recipient_dedupe_uq' });
    t.index(['recipient', 'created_at', 'id'], 'alerts_recipient_created_idx');
  });

  await knex.schema.createTable('alert_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('alert_id').notNullable().references('alerts.id').onDelete('CASCADE');
    t.text('channel').notNullable();
    t.text('target').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('last_error');
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['alert_id', 'channel'], { indexName: 'alert_deliveries_alert_channel_uq' });
  });
  await knex.raw("ALTER TABLE alert_deliveries ADD CONSTRAINT alert_deliveries_channel CHECK (channel IN ('email', 'webhook'))");
  await knex.raw("ALTER TABLE alert_deliveries ADD CONSTRAINT alert_deliveries_status CHECK (status IN ('pending', 'sent', 'failed', 'skipped'))");
  await knex.raw("CREATE INDEX alert_deliveries_due_idx ON alert_deliveries (next_attempt_at) WHERE status = 'pending'");

  await knex.schema.createTable('alert_delivery_attempts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('delivery_id').notNullable().references('alert_deliveries.id').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('outcome').notNullable();
    t.integer('status_code');
    t.text('error');
    t.unique(['delivery_id', 'attempt']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('alert_delivery_attempts');
  await knex.schema.dropTableIfExists('alert_deliveries');
  await knex.schema.dropTableIfExists('alerts');
  await knex.schema.dropTableIfExists('watchlists');
}
