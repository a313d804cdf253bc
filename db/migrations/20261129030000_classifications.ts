// One classification per investigation or intake: where it sits in the scam taxonomy, how sure, and
// why (evidence). The shown answer (taxonomy, confidence, evidence, source) is the latest automatic
// one until an analyst corrects it; then the correction stands and automatic runs only refresh the
// auto_* columns. corrected_from keeps the automatic prediction the analyst corrected (the
// classifier's accuracy is measured against it).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('classifications', (t) => {
    t.text('subject_kind').notNullable();
    t.text('subject_id').notNullable();
    t.text('taxonomy').notNullable();
    t.double('confidence').notNullable();
    t.jsonb('evidence').notNullable().defaultTo('[]');
    t.text('source').notNullable();
    t.timestamp('classified_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('auto_taxonomy');
    t.double('auto_confidence');
    t.jsonb('auto_evidence');
    t.text('auto_source');
    t.timestamp('auto_classified_at', { useTz: true });
    t.text('corrected_from');
    t.text('corrected_by');
    t.text('correction_reason');
    t.timestamp('corrected_at', { useTz: true });
    t.primary(['subject_kind', 'subject_id']);
  });
  await knex.raw("ALTER TABLE classifications ADD CONSTRAINT classifications_subject_kind CHECK (subject_kind IN ('investigation', 'intake'))");
  await knex.raw("ALTER TABLE classifications ADD CONSTRAINT classifications_source CHECK (source IN ('rules', 'llm', 'analyst'))");
  await knex.raw('CREATE INDEX classifications_corrected_idx ON classifications (corrected_at) WHERE corrected_at IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('classifications');
}
