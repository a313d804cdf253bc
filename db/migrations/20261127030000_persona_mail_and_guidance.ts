// Persona mail kept as evidence (the inbound SMTP receiver) and the agent's questions to a human
// (guidance requests). A mail's raw message is a content-addressed blob; its row holds what the
// workflow was told (codes, links) and is unique per Message-ID and scan, so a mail delivered twice
// (an MTA retry) is stored once. A guidance request records THAT it was answered and by whom, never
// the answer: the answer is sealed in vault_secrets (owner kind `guidance`).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('persona_mail', (t) => {
    t.uuid('id').primary();
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('recipient').notNullable();
    t.text('message_id').notNullable();
    t.text('from').notNullable();
    t.text('subject').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('blob_key').notNullable();
    t.text('sha256').notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.jsonb('codes').notNullable().defaultTo('[]');
    t.jsonb('links').notNullable().defaultTo('[]');
    t.boolean('signalled').notNullable().defaultTo(false);
    t.unique(['scan_id', 'message_id']);
    t.index(['scan_id', 'received_at']);
  });
  await knex.schema.createTable('guidance_requests', (t) => {
    t.uuid('request_id').primary();
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('question').notNullable();
    t.text('field');
    t.text('screenshot_key');
    t.text('status').notNullable().defaultTo('pending');
    t.timestamp('asked_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('answered_by');
    t.timestamp('answered_at', { useTz: true });
    t.timestamp('closed_at', { useTz: true });
    t.index(['scan_id', 'status']);
  });
  await knex.raw(`ALTER TABLE guidance_requests ADD CONSTRAINT guidance_requests_status_check CHECK (status IN ('pending', 'answered', 'aborted', 'expired'))`);
  await knex.raw(`ALTER TABLE guidance_requests ADD CONSTRAINT guidance_requests_kind_check CHECK (kind IN ('captcha', 'choice', 'unknown'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('guidance_requests');
  await knex.schema.dropTable('persona_mail');
}
