// Cases (docs/data-model.md): an analyst's unit of work, and its links to intakes, investigations
// and graph entities. Losses are numeric(20,2) with an ISO 4217 currency, never floats; a case's
// total loss per currency is derived (its own recorded loss plus its linked intakes' losses).
// campaign_id has no foreign key: campaigns come later.
import type { Knex } from 'knex';
import { CASE_LINK_TYPES, CASE_PRIORITIES, CASE_STATUSES } from '../../domain/cases/case-states';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cases', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('title').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('status').notNullable().defaultTo('open');
    t.text('priority').notNullable().defaultTo('medium');
    t.text('assignee');
    t.uuid('campaign_id');
    t.decimal('loss_amount', 20, 2);
    t.specificType('loss_currency', 'char(3)');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id'], 'cases_created_idx');
    t.index(['status'], 'cases_status_idx');
    t.index(['assignee'], 'cases_assignee_idx');
    t.index(['campaign_id'], 'cases_campaign_idx');
  });
  await knex.raw(`ALTER TABLE cases ADD CONSTRAINT cases_status_check CHECK (status IN (${list(CASE_STATUSES)}))`);
  await knex.raw(`ALTER TABLE cases ADD CONSTRAINT cases_priority_check CHECK (priority IN (${list(CASE_PRIORITIES)}))`);
  await knex.raw(`ALTER TABLE cases ADD CONSTRAINT cases_loss_pair CHECK ((loss_amount IS NULL) = (loss_currency IS NULL))`);
  await knex.raw(`ALTER TABLE cases ADD CONSTRAINT cases_loss_nonneg CHECK (loss_amount IS NULL OR loss_amount >= 0)`);
  await knex.raw(`ALTER TABLE cases ADD CONSTRAINT cases_loss_currency_form CHECK (loss_currency IS NULL OR loss_currency ~ '^[A-Z]{3}$')`);

  await knex.schema.createTable('case_links', (t) => {
    t.uuid('case_id').notNullable().references('cases.id').onDelete('CASCADE');
    t.text('target_type').notNullable();
    // text, not uuid: investigations are addressed by their scan_id.
    t.text('target_id').notNullable();
    t.text('linked_by').notNullable();
    t.timestamp('linked_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['case_id', 'target_type', 'target_id']);
    t.index(['target_type', 'target_id'], 'case_links_target_idx');
  });
  await knex.raw(`ALTER TABLE case_links ADD CONSTRAINT case_links_type_check CHECK (target_type IN (${list(CASE_LINK_TYPES)}))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('case_links');
  await knex.schema.dropTableIfExists('cases');
}
