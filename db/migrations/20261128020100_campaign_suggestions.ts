// Campaign suggestions: the linked pairs of investigations (site_links, score ≥ the link threshold,
// kept per pair with a < b), the clusters they form (campaign_suggestions: open, accepted or
// dismissed; a dismissed or accepted cluster is never suggested again, nor any part of it), and
// investigations as campaign members (campaign_investigations), beside cases and entities.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('site_links', (t) => {
    t.uuid('scan_a').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.uuid('scan_b').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.double('score').notNullable();
    t.jsonb('reasons').notNullable().defaultTo('[]');
    t.timestamp('computed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scan_a', 'scan_b']);
    t.index(['scan_b'], 'site_links_scan_b_idx');
  });
  await knex.raw('ALTER TABLE site_links ADD CONSTRAINT site_links_ordered CHECK (scan_a < scan_b)');
  await knex.schema.createTable('campaign_suggestions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    /** The cluster's identity: a hash of its sorted investigation ids. */
    t.text('cluster_key').notNullable().unique({ indexName: 'campaign_suggestions_cluster_uq' });
    t.specificType('scan_ids', 'uuid[]').notNullable();
    t.double('score').notNullable();
    t.jsonb('members').notNullable();
    t.jsonb('reasons').notNullable();
    t.text('status').notNullable().defaultTo('open');
    t.uuid('campaign_id').nullable().references('campaigns.id').onDelete('SET NULL');
    t.text('decided_by').nullable();
    t.timestamp('decided_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['status', 'score'], 'campaign_suggestions_status_idx');
  });
  await knex.raw("ALTER TABLE campaign_suggestions ADD CONSTRAINT campaign_suggestions_status_check CHECK (status IN ('open', 'accepted', 'dismissed'))");
  await knex.raw('CREATE INDEX campaign_suggestions_scans_idx ON campaign_suggestions USING gin (scan_ids)');
  await knex.schema.createTable('campaign_investigations', (t) => {
    t.uuid('campaign_id').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('added_by').notNullable();
    t.timestamp('added_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['campaign_id', 'scan_id']);
    t.index(['scan_id'], 'campaign_investigations_scan_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('campaign_investigations');
  await knex.schema.dropTableIfExists('campaign_suggestions');
  await knex.schema.dropTableIfExists('site_links');
}
