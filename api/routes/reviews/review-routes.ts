// The review queue: enqueue, list, claim (one winner; expiry by a Temporal timer), annotate,
// feedback, decide (once), read, and the append-only action log. The spec's /reviews/search/*
// routes are another feature; every /reviews/{id} route takes a UUID, and the router tries literal
// segments first (api/register-routes.ts), so "search" is never taken for an id.
import { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import {
  addReviewNote,
  claimReview,
  decideReview,
  enqueueReview,
  findReview,
  listCaseReviewsPage,
  listReviewActions,
  listReviewQueue,
  type QueueKey,
} from '../../../db/repositories/reviews/review-repository';
import { findCase } from '../../../db/repositories/cases/case-repository';
import { CASE_PRIORITIES } from '../../../domain/cases/case-states';
import { ANNOTATION_TARGET_TYPES, REVIEW_DECISIONS } from '../../../domain/reviews/review-rules';
import { cancelReviewClaimTimer, startReviewClaimTimer } from '../../../services/reviews/review-claim-timer';
import type { AppDeps } from '../../app-deps';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors';
import { cursorParam, encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { ReviewActionSchema, ReviewSchema, reviewActionView, reviewView, storedText } from '../cases/case-schemas';
import { ErrorSchema, UuidParam } from '../../common-schemas';

/** Reviewers claim, annotate and decide; analysts (and admins) do everything. */
export const REVIEW_WORKERS = ['admin', 'analyst', 'reviewer'] as const;
export const REVIEW_REQUESTERS = ['admin', 'analyst'] as const;

const CaseIdParam = z.object({ case_id: z.string().uuid() });

const EnqueueSchema = z
  .object({
    case_id: z.string().uuid(),
    priority: z.enum(CASE_PRIORITIES).optional().describe('default: the case\'s priority'),
    reason: storedText(5000).default(''),
  })
  .strict();

function decodeQueueCursor(cursor: string): QueueKey | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 3 && Number.isInteger(v[0]) && typeof v[1] === 'string' && typeof v[2] === 'string') {
      if (!Number.isNaN(Date.parse(v[1])) && /^[0-9a-f-]{36}$/i.test(v[2])) return { rank: v[0] as number, ts: v[1], id: v[2] };
    }
  } catch {
    // fall through
  }
  return null;
}
const encodeQueueCursor = (k: QueueKey | null) => (k ? Buffer.from(JSON.stringify([k.rank, k.ts, k.id]), 'utf8').toString('base64url') : null);

const QueueQuery = z.object({
  status: z.enum(['queued', 'claimed']).default('queued').describe('queued (waiting) or claimed (being reviewed)'),
  priority: z.enum(CASE_PRIORITIES).optional(),
  claimed_by: storedText(320).optional(),
  case_id: z.string().uuid().optional(),
  limit: pageQueryShape.limit,
  cursor: cursorParam(decodeQueueCursor),
});

const ReviewPageSchema = pageSchema(ReviewSchema, 'ReviewPage');

const AnnotateSchema = z
  .object({
    note: storedText(10_000).trim().min(1),
    target: z
      .object({ type: z.enum(ANNOTATION_TARGET_TYPES), id: storedText(300).min(1) })
      .strict()
      .optional()
      .describe('what the note is about (default: the case)'),
  })
  .strict();

const FeedbackSchema = z
  .object({
    rating: z.number().int().min(1).max(5).describe('1 (poor) to 5 (excellent), e.g. of the extraction quality'),
    comment: storedText(10_000).default(''),
  })
  .strict();

const DecisionSchema = z
  .object({ decision: z.enum(REVIEW_DECISIONS), rationale: storedText(10_000).trim().min(1) })
  .strict();

const ClaimResultSchema = ReviewSchema.extend({
  renewed: z.boolean().describe('true when the caller already held the claim: its expiry moved on'),
  claim_task_id: z.string().describe('the Temporal workflow that returns the review to the queue when the claim expires'),
}).meta({ id: 'ReviewClaim' });

const DecisionResultSchema = ReviewSchema.extend({
  lea_referral_created: z.boolean().describe('true when this refer_to_lea decision created the case\'s draft LEA referral'),
}).meta({ id: 'ReviewDecision' });

async function existingReview(deps: AppDeps, id: string) {
  const review = await findReview(deps.knex, id);
  if (!review) throw new NotFoundError(`no review ${id}`);
  return review;
}

export const reviewRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof EnqueueSchema>>({
    method: 'post',
    path: '/reviews/',
    summary: 'Enqueue a case for review (one open review per case); the case moves to in_review',
    tags: ['reviews'],
    access: { roles: REVIEW_REQUESTERS },
    request: { body: EnqueueSchema },
    responses: {
      201: { description: 'The queued review', schema: ReviewSchema },
      404: { description: 'No such case', schema: ErrorSchema },
      409: { description: 'The case already has a review queued or claimed (details.review_id)', schema: ErrorSchema },
    },
    handler: async ({ body, principal, deps }) => {
      const result = await enqueueReview(deps.knex, { caseId: body.case_id, priority: body.priority, reason: body.reason }, principalName(principal));
      if (!result.ok && result.reason === 'case_not_found') throw new NotFoundError(`no case ${body.case_id}`);
      if (!result.ok) throw new ConflictError(`case ${body.case_id} already has an open review ${result.review_id}`, { review_id: result.review_id });
      return { status: 201, body: reviewView(result.review) };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof QueueQuery>>({
    method: 'get',
    path: '/reviews/queue',
    summary: 'The review queue: most urgent priority first, then oldest first (filters: status, priority, claimed_by, case_id)',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { query: QueueQuery },
    responses: { 200: { description: 'A page of reviews', schema: ReviewPageSchema } },
    handler: async ({ query, deps }) => {
      const page = await listReviewQueue(
        deps.knex,
        { status: query.status, priority: query.priority, claimed_by: query.claimed_by, case_id: query.case_id },
        { limit: query.limit, after: query.cursor },
      );
      return { body: { items: page.rows.map(reviewView), next_cursor: encodeQueueCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof CaseIdParam>, { limit: number; cursor?: Keyset }>({
    method: 'get',
    path: '/reviews/case/{case_id}',
    summary: 'The reviews of a case, newest first',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: CaseIdParam, query: z.object(pageQueryShape) },
    responses: { 200: { description: 'A page of reviews', schema: ReviewPageSchema }, 404: { description: 'No such case', schema: ErrorSchema } },
    handler: async ({ params, query, deps }) => {
      if (!(await findCase(deps.knex, params.case_id))) throw new NotFoundError(`no case ${params.case_id}`);
      const page = await listCaseReviewsPage(deps.knex, params.case_id, { limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map(reviewView), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path: '/reviews/{id}',
    summary: 'One review',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: UuidParam },
    responses: { 200: { description: 'The review', schema: ReviewSchema }, 404: { description: 'No such review', schema: ErrorSchema } },
    handler: async ({ params, deps }) => ({ body: reviewView(await existingReview(deps, params.id)) }),
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'post',
    path: '/reviews/{id}/claim',
    summary: `Claim a review (or renew one's own claim) for SVC_REVIEW__CLAIM_TTL_MINUTES; of concurrent claims exactly one wins`,
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: UuidParam },
    responses: {
      200: { description: 'Claimed (or renewed)', schema: ClaimResultSchema },
      404: { description: 'No such review', schema: ErrorSchema },
      409: { description: 'Claimed by someone else (details.holder, details.expires_at), or already decided', schema: ErrorSchema },
    },
    handler: async ({ params, principal, deps }) => {
      const me = principalName(principal);
      const ttlMs = Math.round(deps.config.review.claim_ttl_minutes * 60_000);
      const result = await claimReview(deps.knex, params.id, me, ttlMs);
      if (!result.ok) {
        if (result.reason === 'not_found') throw new NotFoundError(`no review ${params.id}`);
        if (result.reason === 'decided') throw new ConflictError(`review ${params.id} is already decided (${result.review.decision})`, { decision: result.review.decision });
        throw new ConflictError(`review ${params.id} is claimed by ${result.holder} until ${result.expires_at.toISOString()}`, {
          holder: result.holder,
          expires_at: result.expires_at.toISOString(),
        });
      }
      const { review } = result;
      if (result.renewed) await cancelReviewClaimTimer(deps.temporal, review.id, review.claim_seq - 1);
      const taskId = await startReviewClaimTimer(deps.temporal, deps.config.temporal.task_queue, {
        reviewId: review.id,
        claimSeq: review.claim_seq,
        expiresAt: review.claim_expires_at as Date,
        claimedBy: me,
      });
      return { body: { ...reviewView(review), renewed: result.renewed, claim_task_id: taskId } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof AnnotateSchema>>({
    method: 'post',
    path: '/reviews/{id}/annotate',
    summary: 'Add a note to a review (optionally about an intake, investigation, entity or file)',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: UuidParam, body: AnnotateSchema },
    responses: { 201: { description: 'The logged annotation', schema: ReviewActionSchema }, 404: { description: 'No such review', schema: ErrorSchema } },
    handler: async ({ params, body, principal, deps }) => {
      const action = await addReviewNote(deps.knex, params.id, 'annotate', principalName(principal), { note: body.note, target: body.target ?? null });
      if (!action) throw new NotFoundError(`no review ${params.id}`);
      return { status: 201, body: reviewActionView(action) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof FeedbackSchema>>({
    method: 'post',
    path: '/reviews/{id}/feedback',
    summary: 'Rate the review material (for example the extraction quality) with a comment',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: UuidParam, body: FeedbackSchema },
    responses: { 201: { description: 'The logged feedback', schema: ReviewActionSchema }, 404: { description: 'No such review', schema: ErrorSchema } },
    handler: async ({ params, body, principal, deps }) => {
      const action = await addReviewNote(deps.knex, params.id, 'feedback', principalName(principal), { rating: body.rating, comment: body.comment });
      if (!action) throw new NotFoundError(`no review ${params.id}`);
      return { status: 201, body: reviewActionView(action) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof DecisionSchema>>({
    method: 'post',
    path: '/reviews/{id}/decision',
    summary: 'Decide a review, once: the holder of its claim, or an admin. refer_to_lea creates a draft LEA referral',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: UuidParam, body: DecisionSchema },
    responses: {
      200: { description: 'The decided review', schema: DecisionResultSchema },
      403: { description: 'Someone else holds the claim (details.holder)', schema: ErrorSchema },
      404: { description: 'No such review', schema: ErrorSchema },
      409: { description: 'Already decided, or not claimed by the caller (claim it first)', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const isAdmin = principal?.kind === 'user' && principal.roles.includes('admin');
      const result = await decideReview(deps.knex, params.id, { name: principalName(principal), isAdmin }, body);
      if (!result.ok) {
        switch (result.reason) {
          case 'not_found':
            throw new NotFoundError(`no review ${params.id}`);
          case 'already_decided':
            throw new ConflictError(`review ${params.id} was already decided (${result.review.decision} by ${result.review.decided_by}); a decision is final`, {
              decision: result.review.decision,
              decided_by: result.review.decided_by,
            });
          case 'not_claimed':
            throw new ConflictError(`claim review ${params.id} before deciding it (POST /reviews/${params.id}/claim)`);
          case 'not_claimer':
            throw new ForbiddenError(`only ${result.holder}, who holds the claim on review ${params.id}, or an admin may decide it`);
        }
      }
      await cancelReviewClaimTimer(deps.temporal, params.id, result.claimSeq);
      return { body: { ...reviewView(result.review), lea_referral_created: result.referralCreated } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, { limit: number; cursor?: Keyset }>({
    method: 'get',
    path: '/reviews/{id}/actions',
    summary: 'The append-only log of a review (enqueue, claim, release, annotate, feedback, decision), oldest first, with actor and time',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: UuidParam, query: z.object(pageQueryShape) },
    responses: { 200: { description: 'A page of actions', schema: pageSchema(ReviewActionSchema, 'ReviewActionPage') }, 404: { description: 'No such review', schema: ErrorSchema } },
    handler: async ({ params, query, deps }) => {
      await existingReview(deps, params.id);
      const page = await listReviewActions(deps.knex, params.id, { limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map(reviewActionView), next_cursor: encodeCursor(page.next) } };
    },
  }),
];
