// Intelligence search: full text, substring and filter indexes over the records search
// reads, the caller's search history, and saved searches with their shares.
// - Full text: a generated, stored `search_tsv` column (English configuration, weighted: titles A,
//   bodies B, the rest C) with a GIN index on cases, intakes (summary and details only: contact data
//   is in the vault), investigations, entities and wallets. Generated columns keep themselves up to
//   date on every write, so no feature has to remember to refresh a search document.
// - Substrings and wildcards: pg_trgm GIN indexes on entity values (wallet, domain and URL entities),
//   investigation domains and URLs (wallets.address has one on lower(address) since its migration).
// - Filters: plain btree indexes on the compared columns (losses, taxonomy, first seen).
import type { Knex } from 'knex';

const TSV: Array<[string, string]> = [
  ['cases', "setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B') || setweight(to_tsvector('english', coalesce(taxonomy, '')), 'C')"],
  ['intakes', "setweight(to_tsvector('english', coalesce(summary, '')), 'A') || setweight(to_tsvector('english', coalesce(details, '')), 'B')"],
  ['investigations', "setweight(to_tsvector('english', coalesce(label, '')), 'A') || setweight(to_tsvector('english', coalesce(domain, '')), 'A') || setweight(to_tsvector('english', coalesce(url, '')), 'B')"],
  // The normalized value too when it is written differently (an IBAN displayed in groups of four).
  ['entities', "setweight(to_tsvector('english', display_value || CASE WHEN value = display_value THEN '' ELSE ' ' || value END), 'A')"],
  ['wallets', "setweight(to_tsvector('english', coalesce(address, '')), 'A') || setweight(to_tsvector('english', coalesce(network, '') || ' ' || coalesce(token, '')), 'B') || setweight(to_tsvector('english', coalesce(context, '')), 'C')"],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  for (const [table, expr] of TSV) {
    await knex.raw(`ALTER TABLE ${table} ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (${expr}) STORED`);
    await knex.raw(`CREATE INDEX ${table}_search_tsv_idx ON ${table} USING gin (search_tsv)`);
  }
  await knex.raw('CREATE INDEX entities_value_trgm_idx ON entities USING gin (value gin_trgm_ops)');
  await knex.raw('CREATE INDEX investigations_domain_trgm_idx ON investigations USING gin (domain gin_trgm_ops)');
  await knex.raw('CREATE INDEX investigations_url_trgm_idx ON investigations USING gin (url gin_trgm_ops)');
  await knex.raw('CREATE INDEX cases_loss_amount_idx ON cases (loss_amount)');
  await knex.raw('CREATE INDEX cases_taxonomy_idx ON cases (taxonomy text_pattern_ops)');
  await knex.raw('CREATE INDEX intakes_loss_amount_idx ON intakes (loss_amount)');
  await knex.raw('CREATE INDEX entities_first_seen_idx ON entities (first_seen_at)');

  await knex.schema.createTable('search_history', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('owner').notNullable();
    t.text('query').notNullable();
    t.specificType('types', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('filters').notNullable().defaultTo('{}');
    t.integer('result_count').notNullable();
    t.timestamp('searched_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['owner', 'searched_at', 'id'], 'search_history_owner_idx');
  });

  await knex.schema.createTable('saved_searches', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('owner').notNullable();
    t.text('name').notNullable();
    t.text('query').notNullable();
    t.specificType('types', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('filters').notNullable().defaultTo('{}');
    t.text('sort').notNullable().defaultTo('relevance');
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.text('visibility').notNullable().defaultTo('private');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id'], 'saved_searches_created_idx');
  });
  await knex.raw('CREATE UNIQUE INDEX saved_searches_owner_name_uq ON saved_searches (owner, lower(name))');
  await knex.raw('CREATE INDEX saved_searches_tags_idx ON saved_searches USING gin (tags)');
  await knex.raw("ALTER TABLE saved_searches ADD CONSTRAINT saved_searches_visibility CHECK (visibility IN ('private', 'public'))");

  await knex.schema.createTable('saved_search_shares', (t) => {
    t.uuid('saved_search_id').notNullable().references('saved_searches.id').onDelete('CASCADE');
    t.text('grantee_kind').notNullable();
    t.text('grantee').notNullable();
    t.text('permission').notNullable();
    t.text('shared_by').notNullable();
    t.timestamp('shared_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['saved_search_id', 'grantee_kind', 'grantee']);
    t.index(['grantee_kind', 'grantee'], 'saved_search_shares_grantee_idx');
  });
  await knex.raw("ALTER TABLE saved_search_shares ADD CONSTRAINT saved_search_shares_kind CHECK (grantee_kind IN ('user', 'role'))");
  await knex.raw("ALTER TABLE saved_search_shares ADD CONSTRAINT saved_search_shares_permission CHECK (permission IN ('viewer', 'editor'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('saved_search_shares');
  await knex.schema.dropTableIfExists('saved_searches');
  await knex.schema.dropTableIfExists('search_history');
  for (const idx of ['entities_first_seen_idx', 'intakes_loss_amount_idx', 'cases_taxonomy_idx', 'cases_loss_amount_idx', 'investigations_url_trgm_idx', 'investigations_domain_trgm_idx', 'entities_value_trgm_idx']) {
    await knex.raw(`DROP INDEX IF EXISTS ${idx}`);
  }
  for (const [table] of TSV) await knex.raw(`ALTER TABLE ${table} DROP COLUMN IF EXISTS search_tsv`);
}
