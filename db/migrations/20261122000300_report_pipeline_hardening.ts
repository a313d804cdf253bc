// Report pipeline hardening:
// - report_deliveries: a delivery is claimed before it is e-mailed (status 'sending', claim_token,
//   claim_owner, claimed_at), so two racing deliveries of one report send one e-mail;
// - report_schedules.last_error: why the last due time produced no report (invalid stored
//   options), cleared by the next completed run.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('report_deliveries', (t) => {
    t.uuid('claim_token');
    t.text('claim_owner');
    t.timestamp('claimed_at', { useTz: true });
  });
  await knex.raw('ALTER TABLE report_deliveries DROP CONSTRAINT report_deliveries_status');
  await knex.raw(`ALTER TABLE report_deliveries ADD CONSTRAINT report_deliveries_status CHECK (status IN ('pending','sending','sent','skipped','failed'))`);
  await knex.schema.alterTable('report_schedules', (t) => {
    t.text('last_error');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('report_schedules', (t) => {
    t.dropColumn('last_error');
  });
  await knex.raw(`UPDATE report_deliveries SET status = 'pending' WHERE status = 'sending'`);
  await knex.raw('ALTER TABLE report_deliveries DROP CONSTRAINT report_deliveries_status');
  await knex.raw(`ALTER TABLE report_deliveries ADD CONSTRAINT report_deliveries_status CHECK (status IN ('pending','sent','skipped','failed'))`);
  await knex.schema.alterTable('report_deliveries', (t) => {
    t.dropColumn('claimed_at');
    t.dropColumn('claim_owner');
    t.dropColumn('claim_token');
  });
}
