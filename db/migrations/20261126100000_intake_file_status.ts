// Each intake file's own outcome of processing (read, truncated at the text bound, skipped for its
// type, skipped_too_large at a parser bound, parse_failed) with a reason, so that a hostile file is
// marked and the rest of the intake goes on. parse_attempts counts the reads that never ended (the
// worker stopped in the middle): a file that keeps stopping it is skipped instead of read again.
// intake_jobs.lost_attempts counts a step's attempts that ended without recording an outcome.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('intake_files', (t) => {
    t.text('status').notNullable().defaultTo('pending');
    t.text('status_reason');
    t.integer('text_chars');
    t.integer('parse_attempts').notNullable().defaultTo(0);
  });
  await knex.raw(`ALTER TABLE intake_files ADD CONSTRAINT intake_files_status_check
    CHECK (status IN ('pending','parsing','read','truncated','skipped','skipped_too_large','parse_failed'))`);
  // Files of intakes read before: their outcome from the text step's result.
  await knex.raw(`
    UPDATE intake_files f SET
      status = CASE r.status WHEN 'read' THEN 'read' WHEN 'skipped' THEN 'skipped' ELSE 'parse_failed' END,
      text_chars = CASE WHEN r.chars ~ '^[0-9]+$' THEN r.chars::integer END
    FROM (
      SELECT e->>'file_id' AS file_id, e->>'status' AS status, e->>'chars' AS chars
      FROM intake_jobs j, jsonb_array_elements(CASE WHEN jsonb_typeof(j.result->'files') = 'array' THEN j.result->'files' ELSE '[]'::jsonb END) e
      WHERE j.step = 'extract_text' AND j.status = 'succeeded'
    ) r
    WHERE f.id::text = r.file_id`);
  await knex.schema.alterTable('intake_jobs', (t) => {
    t.integer('lost_attempts').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('intake_jobs', (t) => t.dropColumn('lost_attempts'));
  await knex.raw('ALTER TABLE intake_files DROP CONSTRAINT intake_files_status_check');
  await knex.schema.alterTable('intake_files', (t) => {
    t.dropColumn('parse_attempts');
    t.dropColumn('text_chars');
    t.dropColumn('status_reason');
    t.dropColumn('status');
  });
}
