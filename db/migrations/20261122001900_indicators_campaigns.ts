// Shared tables of the intelligence layer (docs/data-model.md) that analytics, search, exports,
// TAXII and dossiers all read:
// - indicators: one row per url/domain/ip/email/wallet entity, kept by the graph's upsert path
//   (db/repositories/intelligence/entity-repository.ts). `revision` comes from one sequence and is bumped on every
//   change, so feeds can read "everything changed after revision N" in commit-independent order.
// - campaigns: named groups run by the same actors; a case belongs to at most one campaign
//   (cases.campaign_id, now a foreign key), entities join through campaign_entities.
// - cases.taxonomy: the scam-taxonomy path of a case (for example `investment/crypto/pig-butchering`).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE SEQUENCE indicator_revision_seq');
  await knex.schema.createTable('indicators', (t) => {
    t.uuid('entity_id').primary().references('entities.id').onDelete('CASCADE');
    t.text('category').notNullable().defaultTo('unclassified');
    t.smallint('confidence').notNullable();
    t.timestamp('valid_from', { useTz: true }).notNullable();
    t.text('tlp').notNullable().defaultTo('amber');
    t.bigInteger('revision').notNullable().defaultTo(knex.raw("nextval('indicator_revision_seq')"));
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['revision']);
    t.index(['category', 'confidence']);
  });
  await knex.raw("ALTER TABLE indicators ADD CONSTRAINT indicators_confidence_range CHECK (confidence BETWEEN 0 AND 100)");
  await knex.raw("ALTER TABLE indicators ADD CONSTRAINT indicators_tlp CHECK (tlp IN ('clear', 'green', 'amber', 'amber+strict', 'red'))");
  // Indicators for the entities recorded before this migration.
  await knex.raw(`
    INSERT INTO indicators (entity_id, confidence, valid_from)
    SELECT id, LEAST(95, 40 + 15 * GREATEST(sighting_count - 1, 0)), first_seen_at
      FROM entities WHERE type IN ('url', 'domain', 'ip', 'email', 'wallet')`);

  await knex.schema.createTable('campaigns', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('status').notNullable().defaultTo('active');
    t.text('taxonomy');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX campaigns_name_unique ON campaigns (lower(name))');
  await knex.raw("ALTER TABLE campaigns ADD CONSTRAINT campaigns_status CHECK (status IN ('active', 'dormant', 'closed'))");
  await knex.schema.createTable('campaign_entities', (t) => {
    t.uuid('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.uuid('entity_id').notNullable().references('entities.id').onDelete('CASCADE');
    t.text('added_by').notNullable();
    t.timestamp('added_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['campaign_id', 'entity_id']);
    t.index(['entity_id']);
  });
  await knex.schema.alterTable('cases', (t) => {
    t.text('taxonomy');
    t.foreign('campaign_id').references('campaigns.id').onDelete('SET NULL');
    t.index(['campaign_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cases', (t) => {
    t.dropIndex(['campaign_id']);
    t.dropForeign(['campaign_id']);
    t.dropColumn('taxonomy');
  });
  await knex.schema.dropTable('campaign_entities');
  await knex.schema.dropTable('campaigns');
  await knex.schema.dropTable('indicators');
  await knex.raw('DROP SEQUENCE indicator_revision_seq');
}
