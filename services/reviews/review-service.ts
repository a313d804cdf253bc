// Review use cases (the queue of cases waiting for a reviewer's decision), used by the API:
// - enqueueReview: queue a case for review (one open review per case); the case moves to in_review
// - listReviewQueue: the queue, most urgent first, then oldest first
// - listCaseReviews: the reviews of a case, newest first
// - getReview: one review
// - claimReview: claim a review (or renew one's own claim) and start the timer that ends the claim
// - annotateReview, giveReviewFeedback: append a note or a rating to the review's log
// - decideReview: decide once (the claim holder or an admin), then cancel the claim's timer
// - listReviewActions: the review's append-only action log, oldest first
// Reasons, rationales and notes answer through the caller's masking policy
// (domain/masking/masking-policy.ts): bank details masked for every caller but an analyst.
import type { Principal } from '../../domain/accounts/roles';
import { maskingFor } from '../../domain/masking/masking-policy';
import { principalName } from '../../domain/accounts/principal-name';
import type { CasePriority } from '../../domain/cases/case-states';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import type { ReviewDecision } from '../../domain/reviews/review-rules';
import { findCase } from '../../db/repositories/cases/case-repository';
import * as reviewRepo from '../../db/repositories/reviews/review-repository';
import type { QueueFilters, QueueKey, ReviewActionRow, ReviewRow, ReviewWithCaseRow } from '../../db/repositories/reviews/review-repository';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { cancelReviewClaimTimer, startReviewClaimTimer } from './review-claim-timer';

export type { QueueFilters, QueueKey, ReviewActionRow, ReviewRow, ReviewWithCaseRow };

/** A review as the caller may see it. */
function masked<R extends ReviewRow & { case_title?: string }>(review: R, principal: Principal | null): R {
  const policy = maskingFor(principal);
  const title = review.case_title === undefined ? {} : { case_title: policy.text(review.case_title) };
  return { ...review, reason: policy.text(review.reason), rationale: policy.text(review.rationale), ...title };
}

/** A note or rating as the caller may see it. */
function maskedAction(action: ReviewActionRow, principal: Principal | null): ReviewActionRow {
  return { ...action, details: maskingFor(principal).json(action.details) };
}

/** Queues a case for review: 404 when there is no such case, 409 when it has an open review. */
export async function enqueueReview(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  input: { caseId: string; priority?: CasePriority; reason: string },
): Promise<ReviewRow> {
  const result = await reviewRepo.enqueueReview(deps.knex, input, principalName(principal));
  if (!result.ok && result.reason === 'case_not_found') throw new NotFoundError(`no case ${input.caseId}`);
  if (!result.ok) throw new ConflictError(`case ${input.caseId} already has an open review ${result.review_id}`, { review_id: result.review_id });
  return masked(result.review, principal);
}

export async function listReviewQueue(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  filters: QueueFilters,
  page: { limit: number; after?: QueueKey },
): Promise<{ rows: ReviewWithCaseRow[]; next: QueueKey | null }> {
  const found = await reviewRepo.listReviewQueue(deps.knex, filters, page);
  return { ...found, rows: found.rows.map((r) => masked(r, principal)) };
}

/** 404 when there is no such case. */
export async function listCaseReviews(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, caseId: string, page: { limit: number; after?: Keyset }): Promise<KeysetPage<ReviewRow>> {
  if (!(await findCase(deps.knex, caseId))) throw new NotFoundError(`no case ${caseId}`);
  const found = await reviewRepo.listCaseReviewsPage(deps.knex, caseId, page);
  return { ...found, rows: found.rows.map((r) => masked(r, principal)) };
}

/** 404 when there is no such review. */
export async function getReview(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, reviewId: string): Promise<ReviewWithCaseRow> {
  const review = await reviewRepo.findReview(deps.knex, reviewId);
  if (!review) throw new NotFoundError(`no review ${reviewId}`);
  const c = await findCase(deps.knex, review.case_id);
  return masked({ ...review, case_title: c?.title ?? '' }, principal);
}

/**
 * Claims a review for the configured time (SVC_REVIEW__CLAIM_TTL_MINUTES), or renews the caller's
 * own claim, and starts the claim's expiry timer (a renewal cancels the previous claim's timer).
 * 404 when there is no such review; 409 when it is decided or someone else holds it.
 */
export async function claimReview(
  deps: Pick<ServiceDeps, 'knex' | 'temporal' | 'config'>,
  principal: Principal | null,
  reviewId: string,
): Promise<{ review: ReviewRow; renewed: boolean; claimTaskId: string }> {
  const me = principalName(principal);
  const ttlMs = Math.round(deps.config.review.claim_ttl_minutes * 60_000);
  const result = await reviewRepo.claimReview(deps.knex, reviewId, me, ttlMs);
  if (!result.ok) {
    if (result.reason === 'not_found') throw new NotFoundError(`no review ${reviewId}`);
    if (result.reason === 'decided') throw new ConflictError(`review ${reviewId} is already decided (${result.review.decision})`, { decision: result.review.decision });
    throw new ConflictError(`review ${reviewId} is claimed by ${result.holder} until ${result.expires_at.toISOString()}`, {
      holder: result.holder,
      expires_at: result.expires_at.toISOString(),
    });
  }
  const { review } = result;
  if (result.renewed) await cancelReviewClaimTimer(deps.temporal, review.id, review.claim_seq - 1);
  const claimTaskId = await startReviewClaimTimer(deps.temporal, deps.config.temporal.task_queue, {
    reviewId: review.id,
    claimSeq: review.claim_seq,
    expiresAt: review.claim_expires_at as Date,
    claimedBy: me,
  });
  return { review: masked(review, principal), renewed: result.renewed, claimTaskId };
}

/** A note, optionally about something of the case (default: the case itself); 404 when there is no such review. */
export async function annotateReview(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  reviewId: string,
  input: { note: string; target?: { type: string; id: string } },
): Promise<ReviewActionRow> {
  return addNote(deps, principal, reviewId, 'annotate', { note: input.note, target: input.target ?? null });
}

/** A rating (1-5) of the review material with a comment; 404 when there is no such review. */
export async function giveReviewFeedback(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  reviewId: string,
  input: { rating: number; comment: string },
): Promise<ReviewActionRow> {
  return addNote(deps, principal, reviewId, 'feedback', { rating: input.rating, comment: input.comment });
}

async function addNote(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  reviewId: string,
  action: 'annotate' | 'feedback',
  details: Record<string, unknown>,
): Promise<ReviewActionRow> {
  const logged = await reviewRepo.addReviewNote(deps.knex, reviewId, action, principalName(principal), details);
  if (!logged) throw new NotFoundError(`no review ${reviewId}`);
  return maskedAction(logged, principal);
}

/**
 * Decides a review, once: the holder of its live claim, or an admin (who needs no claim). The case
 * moves as the decision says; refer_to_lea creates the case's draft LEA referral
 * (`referralCreated`). 404 no such review; 409 already decided or not claimed; 403 another holds it.
 */
export async function decideReview(
  deps: Pick<ServiceDeps, 'knex' | 'temporal'>,
  principal: Principal | null,
  reviewId: string,
  input: { decision: ReviewDecision; rationale: string },
): Promise<{ review: ReviewRow; referralCreated: boolean }> {
  const isAdmin = principal?.kind === 'user' && principal.roles.includes('admin');
  const result = await reviewRepo.decideReview(deps.knex, reviewId, { name: principalName(principal), isAdmin }, input);
  if (!result.ok) {
    switch (result.reason) {
      case 'not_found':
        throw new NotFoundError(`no review ${reviewId}`);
      case 'already_decided':
        throw new ConflictError(`review ${reviewId} was already decided (${result.review.decision} by ${result.review.decided_by}); a decision is final`, {
          decision: result.review.decision,
          decided_by: result.review.decided_by,
        });
      case 'not_claimed':
        throw new ConflictError(`claim review ${reviewId} before deciding it (POST /reviews/${reviewId}/claim)`);
      case 'not_claimer':
        throw new ForbiddenError(`only ${result.holder}, who holds the claim on review ${reviewId}, or an admin may decide it`);
    }
  }
  await cancelReviewClaimTimer(deps.temporal, reviewId, result.claimSeq);
  return { review: masked(result.review, principal), referralCreated: result.referralCreated };
}

/** 404 when there is no such review. */
export async function listReviewActions(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  reviewId: string,
  page: { limit: number; after?: Keyset },
): Promise<{ rows: ReviewActionRow[]; next: Keyset | null }> {
  await getReview(deps, principal, reviewId);
  const found = await reviewRepo.listReviewActions(deps.knex, reviewId, page);
  return { ...found, rows: found.rows.map((a) => maskedAction(a, principal)) };
}
