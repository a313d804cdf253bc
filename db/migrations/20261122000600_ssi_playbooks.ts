// SSI playbooks: URL globs (never regular expressions) and the steps the investigation agent runs
// on matching sites. Listed newest first (created_at, id); matched oldest first.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ssi_playbooks', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.specificType('url_patterns', 'text[]').notNullable();
    t.jsonb('steps').notNullable().defaultTo('[]');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('updated_by').notNullable();
    t.index(['created_at', 'id'], 'ssi_playbooks_created_idx');
  });
  await knex.raw("ALTER TABLE ssi_playbooks ADD CONSTRAINT ssi_playbooks_steps_array CHECK (jsonb_typeof(steps) = 'array')");
  await knex.raw('CREATE INDEX ssi_playbooks_enabled_idx ON ssi_playbooks (created_at, id) WHERE enabled');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('ssi_playbooks');
}
