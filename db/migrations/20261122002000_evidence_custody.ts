// The chain of custody of evidence: one append-only row per handling of a subject's
// evidence (an investigation's capture, every export and download of its bundle, LEA package or
// PDF; dossiers may use it too): UTC time, actor, action, purpose and the hashes re-verified at that
// moment. The database refuses UPDATE and DELETE (like review_actions), so the log cannot be rewritten.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('evidence_custody', (t) => {
    t.bigIncrements('id').primary();
    t.text('subject_kind').notNullable();
    t.text('subject_id').notNullable();
    // Makes a retried write the same row (the capture entry is written once); null for downloads.
    t.text('entry_key').nullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('actor').notNullable();
    t.text('action').notNullable();
    t.text('artifact').notNullable().defaultTo('');
    t.text('purpose').notNullable().defaultTo('');
    // Package path -> `sha256:<hex>` as re-computed at this moment.
    t.jsonb('hashes').notNullable().defaultTo('{}');
    // Whether every re-computed hash equals the one recorded at capture.
    t.boolean('verified').notNullable().defaultTo(true);
    t.jsonb('details').notNullable().defaultTo('{}');
    t.unique(['subject_kind', 'subject_id', 'entry_key'], { indexName: 'evidence_custody_entry_uq' });
    t.index(['subject_kind', 'subject_id', 'id'], 'evidence_custody_subject_idx');
  });
  await knex.raw(`
    CREATE FUNCTION evidence_custody_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'evidence_custody is append-only'; END $$`);
  await knex.raw('CREATE TRIGGER evidence_custody_no_change BEFORE UPDATE OR DELETE ON evidence_custody FOR EACH ROW EXECUTE FUNCTION evidence_custody_append_only()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('evidence_custody');
  await knex.raw('DROP FUNCTION IF EXISTS evidence_custody_append_only()');
}
