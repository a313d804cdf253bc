// The review queue (reviews + the append-only review_actions log) and LEA referrals with their
// status history (docs/data-model.md).
import type { Knex } from 'knex';
import { CASE_PRIORITIES } from '../../domain/cases/case-states';
import { LEA_REFERRAL_STATUSES } from '../../domain/cases/lea-referral-states';
import { REVIEW_ACTIONS, REVIEW_DECISIONS, REVIEW_STATUSES } from '../../domain/reviews/review-rules';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reviews', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('case_id').notNullable().references('cases.id');
    t.text('status').notNullable().defaultTo('queued');
    t.text('priority').notNullable();
    // critical 4 … low 1: the queue's first ordering key.
    t.smallint('priority_rank').notNullable();
    t.text('reason').notNullable().defaultTo('');
    t.text('requested_by').notNullable();
    t.text('claimed_by');
    t.timestamp('claimed_at', { useTz: true });
    t.timestamp('claim_expires_at', { useTz: true });
    // Raised by every claim: a claim's expiry timer releases only its own claim.
    t.integer('claim_seq').notNullable().defaultTo(0);
    t.text('decision');
    t.text('rationale');
    t.text('decided_by');
    t.timestamp('decided_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['case_id'], 'reviews_case_idx');
  });
  await knex.raw(`ALTER TABLE reviews ADD CONSTRAINT reviews_status_check CHECK (status IN (${list(REVIEW_STATUSES)}))`);
  await knex.raw(`ALTER TABLE reviews ADD CONSTRAINT reviews_priority_check CHECK (priority IN (${list(CASE_PRIORITIES)}))`);
  await knex.raw(`ALTER TABLE reviews ADD CONSTRAINT reviews_decision_check CHECK (decision IS NULL OR decision IN (${list(REVIEW_DECISIONS)}))`);
  await knex.raw(`ALTER TABLE reviews ADD CONSTRAINT reviews_claim_consistent CHECK (CASE status WHEN 'claimed' THEN claimed_by IS NOT NULL AND claim_expires_at IS NOT NULL WHEN 'queued' THEN claimed_by IS NULL ELSE true END)`);
  await knex.raw(`ALTER TABLE reviews ADD CONSTRAINT reviews_decided_consistent CHECK ((status = 'decided') = (decision IS NOT NULL))`);
  // One open review per case: enqueueing a case already waiting or under review is refused.
  await knex.raw(`CREATE UNIQUE INDEX reviews_one_open_per_case ON reviews (case_id) WHERE status <> 'decided'`);
  await knex.raw(`CREATE INDEX reviews_queue_idx ON reviews (priority_rank DESC, created_at, id) WHERE status = 'queued'`);

  await knex.schema.createTable('review_actions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('review_id').notNullable().references('reviews.id');
    t.text('action').notNullable();
    t.text('actor').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.jsonb('details').notNullable().defaultTo('{}');
    t.index(['review_id', 'at'], 'review_actions_review_idx');
  });
  await knex.raw(`ALTER TABLE review_actions ADD CONSTRAINT review_actions_action_check CHECK (action IN (${list(REVIEW_ACTIONS)}))`);
  // Append-only: the log of a review is never rewritten.
  await knex.raw(`
    CREATE FUNCTION review_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'review_actions is append-only'; END $$`);
  await knex.raw(`CREATE TRIGGER review_actions_no_change BEFORE UPDATE OR DELETE ON review_actions FOR EACH ROW EXECUTE FUNCTION review_actions_append_only()`);

  await knex.schema.createTable('lea_referrals', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('case_id').notNullable().unique().references('cases.id');
    t.text('status').notNullable().defaultTo('draft');
    // Empty in a draft that a refer_to_lea decision created; required to submit.
    t.text('agency');
    t.text('jurisdiction');
    t.text('contact');
    t.text('reference');
    t.uuid('review_id').references('reviews.id');
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE lea_referrals ADD CONSTRAINT lea_referrals_status_check CHECK (status IN (${list(LEA_REFERRAL_STATUSES)}))`);

  await knex.schema.createTable('lea_referral_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('referral_id').notNullable().references('lea_referrals.id');
    t.text('from_status');
    t.text('to_status').notNullable();
    t.text('actor').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.index(['referral_id', 'at'], 'lea_referral_events_referral_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('lea_referral_events');
  await knex.schema.dropTableIfExists('lea_referrals');
  await knex.schema.dropTableIfExists('review_actions');
  await knex.raw('DROP FUNCTION IF EXISTS review_actions_append_only()');
  await knex.schema.dropTableIfExists('reviews');
}
