// The review queue and its append-only action log. The only SQL for reviews.
// A claim is ONE conditional UPDATE: of any number of concurrent claims exactly one matches the
// row (PostgreSQL re-checks the condition on the locked row), the others see it claimed.
import type { Knex } from 'knex';
import { priorityRank, type CasePriority } from '../../../domain/cases/case-states';
import { caseStatusAfterDecision, type ReviewAction, type ReviewDecision, type ReviewStatus } from '../../../domain/reviews/review-rules';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';
import { recordAuditEvent } from '../audit/audit-event-repository';
import { moveCaseIfAllowed } from '../cases/case-repository';
import { createDraftReferral } from '../cases/lea-referral-repository';

export interface ReviewRow {
  id: string;
  case_id: string;
  status: ReviewStatus;
  priority: CasePriority;
  priority_rank: number;
  reason: string;
  requested_by: string;
  claimed_by: string | null;
  claimed_at: Date | null;
  claim_expires_at: Date | null;
  claim_seq: number;
  decision: ReviewDecision | null;
  rationale: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ReviewActionRow {
  id: string;
  review_id: string;
  action: ReviewAction;
  actor: string;
  at: Date;
  details: Record<string, unknown>;
}

async function logAction(trx: Knex | Knex.Transaction, reviewId: string, action: ReviewAction, actor: string, details: Record<string, unknown>): Promise<ReviewActionRow> {
  const [row] = await trx('review_actions').insert({ review_id: reviewId, action, actor, details: JSON.stringify(details) }).returning('*');
  return row as ReviewActionRow;
}

export type EnqueueResult =
  | { ok: true; review: ReviewRow }
  | { ok: false; reason: 'case_not_found' }
  | { ok: false; reason: 'already_open'; review_id: string };

/** Queues a case for review (one open review per case) and moves the case to in_review when it may. */
export async function enqueueReview(knex: Knex, input: { caseId: string; priority?: CasePriority; reason: string }, by: string): Promise<EnqueueResult> {
  return knex.transaction(async (trx) => {
    // The case row lock serializes enqueues of one case.
    const found = (await trx('cases').where({ id: input.caseId }).forUpdate().first('id', 'priority')) as { id: string; priority: CasePriority } | undefined;
    if (!found) return { ok: false, reason: 'case_not_found' } as const;
    const priority = input.priority ?? found.priority;
    const open = await trx<ReviewRow>('reviews').where({ case_id: input.caseId }).whereNot({ status: 'decided' }).first('id');
    if (open) return { ok: false, reason: 'already_open', review_id: open.id } as const;
    const [review] = await trx('reviews')
      .insert({
        case_id: input.caseId,
        priority,
        priority_rank: priorityRank(priority),
        reason: input.reason,
        requested_by: by,
        created_at: trx.raw('clock_timestamp()'),
        updated_at: trx.raw('clock_timestamp()'),
      })
      .returning('*');
    await logAction(trx, (review as ReviewRow).id, 'enqueue', by, { priority, reason: input.reason });
    await moveCaseIfAllowed(trx, input.caseId, 'in_review');
    return { ok: true, review: review as ReviewRow } as const;
  });
}

export async function findReview(knex: Knex | Knex.Transaction, id: string): Promise<ReviewRow | undefined> {
  return knex<ReviewRow>('reviews').where({ id }).first();
}

export async function listCaseReviewsPage(knex: Knex, caseId: string, page: { limit: number; after?: Keyset }): Promise<KeysetPage<ReviewRow>> {
  return keysetPage<ReviewRow>(knex, knex('reviews').select('reviews.*').where({ case_id: caseId }), {
    tsColumn: 'reviews.created_at',
    idColumn: 'reviews.id',
    limit: page.limit,
    after: page.after,
  });
}

export async function listCaseReviews(knex: Knex | Knex.Transaction, caseId: string): Promise<ReviewRow[]> {
  return knex<ReviewRow>('reviews').where({ case_id: caseId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** Position in the queue: priority (higher first), then age (older first), then id. */
export interface QueueKey {
  rank: number;
  ts: string;
  id: string;
}

export interface QueueFilters {
  status: ReviewStatus;
  priority?: CasePriority;
  claimed_by?: string;
  case_id?: string;
  /** Only reviews requested before this time (the queue's age filter). */
  created_before?: Date;
}

/** A review in a list, with its case's title (what a reviewer recognises). */
export type ReviewWithCaseRow = ReviewRow & { case_title: string };

export async function listReviewQueue(knex: Knex, filters: QueueFilters, page: { limit: number; after?: QueueKey }): Promise<{ rows: ReviewWithCaseRow[]; next: QueueKey | null }> {
  const q = knex('reviews')
    .join('cases', 'cases.id', 'reviews.case_id')
    .select('reviews.*', 'cases.title as case_title', knex.raw(`to_char(reviews.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS _keyset_ts`))
    .where({ 'reviews.status': filters.status })
    .orderBy([
      { column: 'reviews.priority_rank', order: 'desc' },
      { column: 'reviews.created_at', order: 'asc' },
      { column: 'reviews.id', order: 'asc' },
    ])
    .limit(page.limit + 1);
  if (filters.priority) q.where({ 'reviews.priority': filters.priority });
  if (filters.claimed_by) q.where({ 'reviews.claimed_by': filters.claimed_by.toLowerCase() });
  if (filters.case_id) q.where({ 'reviews.case_id': filters.case_id });
  if (filters.created_before) q.where('reviews.created_at', '<', filters.created_before);
  if (page.after) {
    const a = page.after;
    q.whereRaw(`(reviews.priority_rank < ? OR (reviews.priority_rank = ? AND (reviews.created_at, reviews.id) > (?::timestamptz, ?::uuid)))`, [a.rank, a.rank, a.ts, a.id]);
  }
  const raw = (await q) as Array<ReviewWithCaseRow & { _keyset_ts: string }>;
  const rows = raw.slice(0, page.limit);
  const last = rows[rows.length - 1];
  return {
    rows: rows.map(({ _keyset_ts: _ts, ...r }) => r as ReviewWithCaseRow),
    next: raw.length > page.limit && last ? { rank: last.priority_rank, ts: last._keyset_ts, id: last.id } : null,
  };
}

export type ClaimResult =
  | { ok: true; review: ReviewRow; renewed: boolean }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'decided'; review: ReviewRow }
  | { ok: false; reason: 'held'; holder: string; expires_at: Date };

/**
 * Claims a review for `ttlMs`: one conditional UPDATE wins when the review is queued, its claim
 * has expired, or the caller already holds it (a renewal). Logged as a `claim` action.
 */
export async function claimReview(knex: Knex, id: string, by: string, ttlMs: number): Promise<ClaimResult> {
  return knex.transaction(async (trx) => {
    const updated = await trx.raw<{ rows: Array<ReviewRow & { renewed: boolean }> }>(
      `UPDATE reviews r
          SET status = 'claimed', claimed_by = :by, claimed_at = clock_timestamp(),
              claim_expires_at = clock_timestamp() + make_interval(secs => :ttl), claim_seq = r.claim_seq + 1,
              updated_at = clock_timestamp()
         FROM (SELECT id, status = 'claimed' AND claimed_by = :by AND claim_expires_at > clock_timestamp() AS renewed FROM reviews WHERE id = :id) prev
        WHERE r.id = prev.id
          AND (r.status = 'queued' OR (r.status = 'claimed' AND (r.claimed_by = :by OR r.claim_expires_at <= clock_timestamp())))
        RETURNING r.*, prev.renewed`,
      { id, by, ttl: ttlMs / 1000 },
    );
    const won = updated.rows[0];
    if (won) {
      const { renewed, ...review } = won;
      await logAction(trx, id, 'claim', by, { expires_at: review.claim_expires_at, claim_seq: review.claim_seq, renewed });
      return { ok: true, review: review as ReviewRow, renewed } as const;
    }
    const current = await findReview(trx, id);
    if (!current) return { ok: false, reason: 'not_found' } as const;
    if (current.status === 'decided') return { ok: false, reason: 'decided', review: current } as const;
    return { ok: false, reason: 'held', holder: current.claimed_by ?? '', expires_at: current.claim_expires_at ?? new Date() } as const;
  });
}

export type ReleaseResult = { released: true } | { released: false; reason: 'superseded' | 'not_expired'; remaining_ms: number };

/**
 * Returns an expired claim to the queue, logged as a `release` by `system`. Only the claim
 * numbered `claimSeq` is released: a newer claim, a decision or a repeat leaves the review alone
 * (idempotent). A claim not yet expired by the database clock answers the time left.
 */
export async function releaseExpiredClaim(knex: Knex, id: string, claimSeq: number): Promise<ReleaseResult> {
  return knex.transaction(async (trx) => {
    const current = await trx('reviews')
      .where({ id })
      .forUpdate()
      .first('status', 'claimed_by', 'claim_seq', trx.raw('EXTRACT(EPOCH FROM (claim_expires_at - clock_timestamp())) * 1000 AS remaining_ms'));
    if (!current || current.status !== 'claimed' || current.claim_seq !== claimSeq) return { released: false, reason: 'superseded', remaining_ms: 0 } as const;
    const remaining = Number(current.remaining_ms);
    if (remaining > 0) return { released: false, reason: 'not_expired', remaining_ms: Math.ceil(remaining) } as const;
    await trx('reviews')
      .where({ id })
      .update({ status: 'queued', claimed_by: null, claimed_at: null, claim_expires_at: null, updated_at: trx.raw('clock_timestamp()') });
    await logAction(trx, id, 'release', 'system', { reason: 'claim expired', claimed_by: current.claimed_by, claim_seq: claimSeq });
    return { released: true } as const;
  });
}

/** Appends an annotation or feedback; null when the review does not exist. */
export async function addReviewNote(
  knex: Knex,
  id: string,
  action: 'annotate' | 'feedback',
  by: string,
  details: Record<string, unknown>,
): Promise<ReviewActionRow | null> {
  return knex.transaction(async (trx) => {
    const found = await trx('reviews').where({ id }).first('id');
    if (!found) return null;
    await trx('reviews').where({ id }).update({ updated_at: trx.raw('clock_timestamp()') });
    return logAction(trx, id, action, by, details);
  });
}

/** The log of a review, oldest first, a page after the (at, id) key `after`. */
export async function listReviewActions(
  knex: Knex,
  id: string,
  page: { limit: number; after?: { ts: string; id: string } },
): Promise<{ rows: ReviewActionRow[]; next: { ts: string; id: string } | null }> {
  const q = knex('review_actions')
    .select('*', knex.raw(`to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS _keyset_ts`))
    .where({ review_id: id })
    .orderBy([{ column: 'at' }, { column: 'id' }])
    .limit(page.limit + 1);
  if (page.after) q.whereRaw('(at, id) > (?::timestamptz, ?::uuid)', [page.after.ts, page.after.id]);
  const raw = (await q) as Array<ReviewActionRow & { _keyset_ts: string }>;
  const rows = raw.slice(0, page.limit);
  const last = rows[rows.length - 1];
  return {
    rows: rows.map(({ _keyset_ts: _ts, ...r }) => r as ReviewActionRow),
    next: raw.length > page.limit && last ? { ts: last._keyset_ts, id: last.id } : null,
  };
}

export type DecideResult =
  | { ok: true; review: ReviewRow; claimSeq: number; referralCreated: boolean }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'already_decided'; review: ReviewRow }
  | { ok: false; reason: 'not_claimed' }
  | { ok: false; reason: 'not_claimer'; holder: string };

/**
 * Records the decision, once: only the holder of a live claim, or an admin. Moves the case as the
 * decision says (domain/reviews/review-rules.ts) and, for refer_to_lea, creates a draft referral.
 */
export async function decideReview(
  knex: Knex,
  id: string,
  by: { name: string; isAdmin: boolean },
  input: { decision: ReviewDecision; rationale: string },
): Promise<DecideResult> {
  return knex.transaction(async (trx) => {
    const current = await trx<ReviewRow>('reviews')
      .where({ id })
      .forUpdate()
      .first('*', trx.raw('claim_expires_at > clock_timestamp() AS claim_live'));
    if (!current) return { ok: false, reason: 'not_found' } as const;
    const { claim_live: claimLive, ...review } = current as ReviewRow & { claim_live: boolean | null };
    if (review.status === 'decided') return { ok: false, reason: 'already_decided', review } as const;
    if (!by.isAdmin) {
      if (review.status !== 'claimed' || !claimLive) return { ok: false, reason: 'not_claimed' } as const;
      if (review.claimed_by !== by.name) return { ok: false, reason: 'not_claimer', holder: review.claimed_by ?? '' } as const;
    }
    const [row] = await trx('reviews')
      .where({ id })
      .update({
        status: 'decided',
        decision: input.decision,
        rationale: input.rationale,
        decided_by: by.name,
        decided_at: trx.raw('clock_timestamp()'),
        updated_at: trx.raw('clock_timestamp()'),
      })
      .returning('*');
    await logAction(trx, id, 'decision', by.name, { decision: input.decision, rationale: input.rationale });
    // Decisions are audited with the review's own log, in the same transaction (docs/data-model.md).
    await recordAuditEvent(trx, { actor: by.name, action: 'review.decision', target_type: 'review', target_id: id, details: { case_id: review.case_id, decision: input.decision } });
    const caseStatus = caseStatusAfterDecision(input.decision);
    if (caseStatus) await moveCaseIfAllowed(trx, review.case_id, caseStatus);
    let referralCreated = false;
    if (input.decision === 'refer_to_lea') referralCreated = await createDraftReferral(trx, review.case_id, id, by.name);
    return { ok: true, review: row as ReviewRow, claimSeq: review.claim_seq, referralCreated } as const;
  });
}
