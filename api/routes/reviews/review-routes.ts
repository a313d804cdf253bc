// The review queue: enqueue, list, claim (one winner; expiry by a Temporal timer), annotate,
// feedback, decide (once), read, and the append-only action log. The spec's /reviews/search/*
// routes are another feature; every /reviews/{id} route takes a UUID, and the router tries literal
// segments first (api/register-routes.ts), so "search" is never taken for an id.
// The use cases are in services/reviews/review-service.ts.
import type { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import {
  annotateReview,
  claimReview,
  decideReview,
  enqueueReview,
  getReview,
  giveReviewFeedback,
  listCaseReviews,
  listReviewActions,
  listReviewQueue,
} from '../../../services/reviews/review-service';
import { encodeCursor } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { CaseIdParam } from '../cases/case-schemas';
import {
  AnnotateSchema,
  ClaimResultSchema,
  DecisionResultSchema,
  DecisionSchema,
  EnqueueSchema,
  FeedbackSchema,
  QueueQuery,
  ReviewActionPageSchema,
  ReviewActionSchema,
  ReviewListQuery,
  ReviewPageSchema,
  ReviewQueuePageSchema,
  ReviewSchema,
  ReviewWithCaseSchema,
  encodeQueueCursor,
  reviewActionView,
  reviewView,
  reviewWithCaseView,
} from './review-schemas';
import { ErrorSchema, UuidParam } from '../../common-schemas';

/** Reviewers claim, annotate and decide; analysts (and admins) do everything. */
export const REVIEW_WORKERS = ['admin', 'analyst', 'reviewer'] as const;
export const REVIEW_REQUESTERS = ['admin', 'analyst'] as const;

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
      const review = await enqueueReview(deps, principal, { caseId: body.case_id, priority: body.priority, reason: body.reason });
      return { status: 201, body: reviewView(review) };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof QueueQuery>>({
    method: 'get',
    path: '/reviews/queue',
    summary: 'The review queue, each review with its case title: most urgent priority first, then oldest first (filters: status (decided ones stay listed), priority, claimed_by, case_id, created_before)',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { query: QueueQuery },
    responses: { 200: { description: 'A page of reviews', schema: ReviewQueuePageSchema } },
    handler: async ({ query, principal, deps }) => {
      const page = await listReviewQueue(
        deps,
        principal,
        {
          status: query.status, priority: query.priority, claimed_by: query.claimed_by, case_id: query.case_id,
          created_before: query.created_before ? new Date(query.created_before) : undefined,
        },
        { limit: query.limit, after: query.cursor },
      );
      return { body: { items: page.rows.map(reviewWithCaseView), next_cursor: encodeQueueCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof CaseIdParam>, { limit: number; cursor?: Keyset }>({
    method: 'get',
    path: '/reviews/case/{case_id}',
    summary: 'The reviews of a case, newest first',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: CaseIdParam, query: ReviewListQuery },
    responses: { 200: { description: 'A page of reviews', schema: ReviewPageSchema }, 404: { description: 'No such case', schema: ErrorSchema } },
    handler: async ({ params, query, principal, deps }) => {
      const page = await listCaseReviews(deps, principal, params.case_id, { limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map(reviewView), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path: '/reviews/{id}',
    summary: 'One review, with its case title',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: UuidParam },
    responses: { 200: { description: 'The review', schema: ReviewWithCaseSchema }, 404: { description: 'No such review', schema: ErrorSchema } },
    handler: async ({ params, principal, deps }) => ({ body: reviewWithCaseView(await getReview(deps, principal, params.id)) }),
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
      const claim = await claimReview(deps, principal, params.id);
      return { body: { ...reviewView(claim.review), renewed: claim.renewed, claim_task_id: claim.claimTaskId } };
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
    handler: async ({ params, body, principal, deps }) => ({ status: 201, body: reviewActionView(await annotateReview(deps, principal, params.id, body)) }),
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof FeedbackSchema>>({
    method: 'post',
    path: '/reviews/{id}/feedback',
    summary: 'Rate the review material (for example the extraction quality) with a comment',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: UuidParam, body: FeedbackSchema },
    responses: { 201: { description: 'The logged feedback', schema: ReviewActionSchema }, 404: { description: 'No such review', schema: ErrorSchema } },
    handler: async ({ params, body, principal, deps }) => ({ status: 201, body: reviewActionView(await giveReviewFeedback(deps, principal, params.id, body)) }),
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
      const decided = await decideReview(deps, principal, params.id, body);
      return { body: { ...reviewView(decided.review), lea_referral_created: decided.referralCreated } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, { limit: number; cursor?: Keyset }>({
    method: 'get',
    path: '/reviews/{id}/actions',
    summary: 'The append-only log of a review (enqueue, claim, release, annotate, feedback, decision), oldest first, with actor and time',
    tags: ['reviews'],
    access: { roles: REVIEW_WORKERS },
    request: { params: UuidParam, query: ReviewListQuery },
    responses: { 200: { description: 'A page of actions', schema: ReviewActionPageSchema }, 404: { description: 'No such review', schema: ErrorSchema } },
    handler: async ({ params, query, principal, deps }) => {
      const page = await listReviewActions(deps, principal, params.id, { limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map(reviewActionView), next_cursor: encodeCursor(page.next) } };
    },
  }),
];
