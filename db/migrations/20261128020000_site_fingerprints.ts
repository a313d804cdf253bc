// Site fingerprints for similar sites and campaign suggestions: one row per captured page (its DOM
// simhash, text MinHash, asset hashes, favicon hash, screenshot dHash), and the LSH buckets of each
// investigation (domain/similarity/site-similarity.ts, siteBuckets) that a similar-sites query
// looks up by equality. The fingerprint activity rewrites both for its scan (idempotent).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('site_page_fingerprints', (t) => {
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('page_url').notNullable();
    t.text('dom_simhash').notNullable();
    t.integer('dom_elements').notNullable();
    t.specificType('text_minhash', 'bigint[]').notNullable();
    t.specificType('asset_hashes', 'text[]').notNullable();
    t.integer('favicon_hash').nullable();
    t.text('screenshot_hash').nullable();
    /** The screenshot was blank or near-blank: no perceptual hash, no weight. */
    t.boolean('screenshot_blank').notNullable().defaultTo(false);
    t.timestamp('computed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scan_id', 'page_url']);
  });
  await knex.schema.createTable('site_buckets', (t) => {
    t.text('bucket').notNullable();
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.primary(['bucket', 'scan_id']);
    t.index(['scan_id'], 'site_buckets_scan_idx');
  });
  await knex.raw('CREATE INDEX site_page_fingerprints_favicon_idx ON site_page_fingerprints (favicon_hash) WHERE favicon_hash IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('site_buckets');
  await knex.schema.dropTableIfExists('site_page_fingerprints');
}
