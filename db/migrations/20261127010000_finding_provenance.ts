// Per-finding provenance of an ended investigation: for each wallet and PII value, the WARC record of
// its evidence bundle that holds it (or null and why). Computed once from the final evidence
// (services/evidence/finding-provenance.ts) and kept, so the detail does not re-read the archive.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('investigation_finding_provenance', (t) => {
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('value').notNullable();
    t.jsonb('provenance').nullable();
    t.text('reason').nullable();
    t.timestamp('computed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scan_id', 'kind', 'value']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('investigation_finding_provenance');
}
