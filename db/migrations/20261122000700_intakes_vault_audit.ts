// Evidence intake: submissions, their files (content-addressed blobs), the processing
// steps (intake jobs), the vault of encrypted contact data, and the audit log of sensitive reads.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('intakes', (t) => {
    t.uuid('id').primary();
    t.text('status').notNullable().defaultTo('received');
    t.text('status_reason');
    t.text('source').notNullable();
    t.text('summary').notNullable();
    t.text('details').notNullable().defaultTo('');
    t.decimal('loss_amount', 20, 2);
    t.string('loss_currency', 3);
    t.timestamp('occurred_at', { useTz: true });
    t.jsonb('urls').notNullable().defaultTo('[]');
    t.integer('file_count').notNullable().defaultTo(0);
    t.text('submitted_by').notNullable();
    // The case it is attached to (cases are their own feature; no FK so that either migrates first).
    t.uuid('case_id');
    t.text('task_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
    t.index(['status', 'created_at']);
    t.index(['case_id']);
  });
  await knex.raw(`ALTER TABLE intakes ADD CONSTRAINT intakes_status_check CHECK (status IN ('received','processing','processed','failed','triaged','linked','rejected','closed'))`);

  await knex.schema.createTable('intake_files', (t) => {
    t.uuid('id').primary();
    t.uuid('intake_id').notNullable().references('intakes.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('filename').notNullable();
    t.text('declared_content_type');
    t.text('content_type').notNullable();
    t.text('sha256').notNullable();
    t.bigInteger('size').notNullable();
    t.text('blob_key').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['intake_id', 'position']);
    t.index(['sha256']);
  });

  await knex.schema.createTable('intake_jobs', (t) => {
    t.uuid('id').primary();
    t.uuid('intake_id').notNullable().references('intakes.id').onDelete('CASCADE');
    t.text('step').notNullable();
    t.integer('position').notNullable();
    t.text('status').notNullable().defaultTo('queued');
    t.text('error');
    t.integer('attempts').notNullable().defaultTo(0);
    t.jsonb('result');
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['intake_id', 'step']);
  });
  await knex.raw(`ALTER TABLE intake_jobs ADD CONSTRAINT intake_jobs_status_check CHECK (status IN ('queued','running','succeeded','failed','cancelled'))`);

  // Envelope encryption: the record under its own data key (AES-256-GCM), the data key wrapped by
  // a master key named by key_id. Never plaintext.
  await knex.schema.createTable('vault_secrets', (t) => {
    t.uuid('id').primary();
    t.text('owner_kind').notNullable();
    t.uuid('owner_id').notNullable();
    t.text('key_id').notNullable();
    t.binary('wrapped_key').notNullable();
    t.binary('nonce').notNullable();
    t.binary('ciphertext').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('rewrapped_at', { useTz: true });
    t.unique(['owner_kind', 'owner_id']);
    t.index(['key_id']);
  });

  await knex.schema.createTable('audit_events', (t) => {
    t.uuid('id').primary();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('actor').notNullable();
    t.text('action').notNullable();
    t.text('target_type').notNullable();
    t.text('target_id').notNullable();
    t.text('purpose');
    t.jsonb('details').notNullable().defaultTo('{}');
    t.index(['at', 'id']);
    t.index(['target_type', 'target_id']);
    t.index(['actor', 'at']);
    t.index(['action', 'at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_events');
  await knex.schema.dropTable('vault_secrets');
  await knex.schema.dropTable('intake_jobs');
  await knex.schema.dropTable('intake_files');
  await knex.schema.dropTable('intakes');
}
