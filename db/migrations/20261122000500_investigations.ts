// Scam-site investigations (`ssi-<scan_id>` workflows): the scan, the pages captured with their
// artifacts (blob keys + SHA-256 taken at capture time), the agent's append-only action log, PII seen
// on pages, requests the egress policy blocked, the state in which each wallet was first found, and
// JSON responses kept for the final extraction sweep. Every activity write is idempotent (unique
// keys + ON CONFLICT), because Temporal retries activities.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('investigations', (t) => {
    t.uuid('scan_id').primary();
    t.text('url').notNullable();
    t.text('domain').notNullable();
    t.text('final_url').nullable();
    t.text('status').notNullable().defaultTo('queued');
    t.text('state').notNullable().defaultTo('QUEUED');
    t.text('requested_by').notNullable();
    t.uuid('playbook_id').nullable();
    t.uuid('case_id').nullable();
    t.text('label').nullable();
    t.jsonb('options').notNullable().defaultTo('{}');
    t.jsonb('redirect_chain').notNullable().defaultTo('[]');
    t.text('error').nullable();
    t.integer('wallet_count').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.index(['created_at', 'scan_id'], 'investigations_created_idx');
    t.index(['status', 'created_at'], 'investigations_status_idx');
    t.index(['requested_by'], 'investigations_requested_by_idx');
  });
  await knex.raw("ALTER TABLE investigations ADD CONSTRAINT investigations_status_check CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled'))");

  await knex.schema.createTable('investigation_pages', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('url').notNullable();
    t.integer('seq').notNullable();
    t.text('state').notNullable();
    t.text('title').nullable();
    t.integer('http_status').nullable();
    t.text('server_ip').nullable();
    t.jsonb('tls').nullable();
    t.jsonb('response_headers').notNullable().defaultTo('{}');
    t.text('screenshot_key').notNullable();
    t.text('screenshot_sha256').notNullable();
    t.bigInteger('screenshot_size').notNullable();
    t.text('dom_key').notNullable();
    t.text('dom_sha256').notNullable();
    t.bigInteger('dom_size').notNullable();
    t.text('har_key').notNullable();
    t.text('har_sha256').notNullable();
    t.bigInteger('har_size').notNullable();
    t.timestamp('captured_at', { useTz: true }).notNullable();
    t.unique(['scan_id', 'url'], { indexName: 'investigation_pages_scan_url_uq' });
  });

  await knex.schema.createTable('investigation_actions', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    // Makes a retried activity's action the same row (never a duplicate).
    t.text('action_key').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('state').notNullable();
    t.text('action').notNullable();
    t.text('target').notNullable().defaultTo('');
    t.text('outcome').notNullable().defaultTo('');
    t.integer('wallets_found').notNullable().defaultTo(0);
    t.unique(['scan_id', 'action_key'], { indexName: 'investigation_actions_key_uq' });
    t.index(['scan_id', 'id'], 'investigation_actions_scan_idx');
  });
  // Append-only: the log is evidence; rows are never changed.
  await knex.raw(`
    CREATE FUNCTION investigation_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'investigation_actions is append-only'; END $$;
    CREATE TRIGGER investigation_actions_no_update BEFORE UPDATE ON investigation_actions
      FOR EACH ROW EXECUTE FUNCTION investigation_actions_append_only();`);

  await knex.schema.createTable('investigation_pii', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('value').notNullable();
    t.text('page_url').notNullable();
    t.timestamp('found_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['scan_id', 'kind', 'value', 'page_url'], { indexName: 'investigation_pii_uq' });
  });

  await knex.schema.createTable('investigation_blocked_requests', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('resource_type').notNullable().defaultTo('');
    t.text('reason').notNullable();
    t.text('category').nullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['scan_id', 'url', 'resource_type'], { indexName: 'investigation_blocked_uq' });
  });

  await knex.schema.createTable('investigation_wallet_states', (t) => {
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('network').notNullable();
    t.text('token').notNullable();
    t.text('address').notNullable();
    t.text('state').notNullable();
    t.text('page_url').nullable();
    t.timestamp('first_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scan_id', 'network', 'token', 'address']);
  });

  await knex.schema.createTable('investigation_responses', (t) => {
    t.uuid('scan_id').notNullable().references('scan_id').inTable('investigations').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('content_type').notNullable();
    t.text('blob_key').notNullable();
    t.text('sha256').notNullable();
    t.timestamp('captured_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['scan_id', 'url', 'sha256']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['investigation_responses', 'investigation_wallet_states', 'investigation_blocked_requests', 'investigation_pii', 'investigation_actions', 'investigation_pages', 'investigations']) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.raw('DROP FUNCTION IF EXISTS investigation_actions_append_only()');
}
