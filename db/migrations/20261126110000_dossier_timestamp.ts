// A sealed dossier's RFC 3161 trusted time: the time-stamping authority's answer over the SHA-256
// of its manifest (timestamp.tsr, null when none was obtained) and the outcome of asking (JSON:
// stamped, not_configured or unavailable, with each attempt and its error).
// Dossiers sealed before carry neither; their packages say they have no third-party timestamp.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dossiers', (t) => {
    t.binary('timestamp_token');
    t.text('timestamp_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('dossiers', (t) => {
    t.dropColumn('timestamp_token');
    t.dropColumn('timestamp_status');
  });
}
