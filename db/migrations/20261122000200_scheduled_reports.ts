import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('report_schedules', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('template').notNullable();
    t.text('cadence').notNullable();
    t.jsonb('scope').notNullable();
    t.jsonb('options').notNullable();
    t.specificType('recipients', 'text[]').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('next_run_at', { useTz: true }).notNullable();
    t.timestamp('last_run_at', { useTz: true });
    t.smallint('anchor_day').notNullable();
    t.text('workflow_id').notNullable().unique();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('deactivated_at', { useTz: true });
    t.text('deactivated_by');
    t.index(['created_at', 'id']);
  });
  await knex.raw(`ALTER TABLE report_schedules ADD CONSTRAINT report_schedules_cadence CHECK (cadence IN ('daily','weekly','monthly'))`);
  await knex.raw(`ALTER TABLE report_schedules ADD CONSTRAINT report_schedules_anchor CHECK (anchor_day BETWEEN 1 AND 31)`);
  await knex.raw(`CREATE INDEX report_schedules_due ON report_schedules (next_run_at) WHERE is_active`);

  await knex.schema.createTable('generated_reports', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('schedule_id').references('report_schedules.id');
    t.timestamp('due_at', { useTz: true }).notNullable();
    t.text('template').notNullable();
    t.text('format').notNullable();
    t.text('title').notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.text('sha256').notNullable();
    t.text('blob_key').notNullable();
    t.text('task_id');
    t.text('requested_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
  });
  // One report per schedule and due time: retries, replays, duplicate workflows and the CLI job
  // running at the same moment can never produce a second one.
  await knex.raw(`CREATE UNIQUE INDEX generated_reports_run ON generated_reports (schedule_id, due_at) WHERE schedule_id IS NOT NULL`);
  // One report per one-off task (POST /reports/generate), for the same reason.
  await knex.raw(`CREATE UNIQUE INDEX generated_reports_task ON generated_reports (task_id) WHERE task_id IS NOT NULL`);

  await knex.schema.createTable('report_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('report_id').notNullable().unique().references('generated_reports.id');
    t.specificType('recipients', 'text[]').notNullable();
    t.text('status').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.text('message_id');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE report_deliveries ADD CONSTRAINT report_deliveries_status CHECK (status IN ('pending','sent','skipped','failed'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('report_deliveries');
  await knex.schema.dropTable('generated_reports');
  await knex.schema.dropTable('report_schedules');
}
