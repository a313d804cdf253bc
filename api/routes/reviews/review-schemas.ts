// Request and response schemas of the review routes, with the views that shape a review and an
// entry of its action log for them, and the queue's cursor (priority rank, time, id).
import { z } from 'zod';
import { CASE_PRIORITIES } from '../../../domain/cases/case-states';
import { ANNOTATION_TARGET_TYPES, REVIEW_ACTIONS, REVIEW_DECISIONS, REVIEW_STATUSES } from '../../../domain/reviews/review-rules';
import type { QueueKey, ReviewActionRow, ReviewRow } from '../../../services/reviews/review-service';
import { cursorParam, pageQueryShape, pageSchema } from '../../pagination';
import { storedText } from '../../common-schemas';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export const ReviewSchema = z
  .object({
    id: z.string().uuid(),
    case_id: z.string().uuid(),
    status: z.enum(REVIEW_STATUSES),
    priority: z.enum(CASE_PRIORITIES),
    reason: z.string(),
    requested_by: z.string(),
    claimed_by: z.string().nullable(),
    claimed_at: z.string().nullable(),
    claim_expires_at: z.string().nullable(),
    decision: z.enum(REVIEW_DECISIONS).nullable(),
    rationale: z.string().nullable(),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Review' });

export function reviewView(r: ReviewRow): z.infer<typeof ReviewSchema> {
  return {
    id: r.id,
    case_id: r.case_id,
    status: r.status,
    priority: r.priority,
    reason: r.reason,
    requested_by: r.requested_by,
    claimed_by: r.claimed_by,
    claimed_at: iso(r.claimed_at),
    claim_expires_at: iso(r.claim_expires_at),
    decision: r.decision,
    rationale: r.rationale,
    decided_by: r.decided_by,
    decided_at: iso(r.decided_at),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export const ReviewWithCaseSchema = ReviewSchema.extend({
  case_title: z.string().describe('the title of the reviewed case (masked like the case)'),
}).meta({ id: 'ReviewWithCase' });

export function reviewWithCaseView(r: ReviewRow & { case_title: string }): z.infer<typeof ReviewWithCaseSchema> {
  return { ...reviewView(r), case_title: r.case_title };
}

export const ReviewActionSchema = z
  .object({
    id: z.string().uuid(),
    review_id: z.string().uuid(),
    action: z.enum(REVIEW_ACTIONS),
    actor: z.string().describe('who acted (e-mail), or "system" for a claim that expired'),
    at: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'ReviewAction' });

export function reviewActionView(a: ReviewActionRow): z.infer<typeof ReviewActionSchema> {
  return { id: a.id, review_id: a.review_id, action: a.action, actor: a.actor, at: a.at.toISOString(), details: a.details };
}

export const ReviewPageSchema = pageSchema(ReviewSchema, 'ReviewPage');
export const ReviewQueuePageSchema = pageSchema(ReviewWithCaseSchema, 'ReviewQueuePage');
export const ReviewActionPageSchema = pageSchema(ReviewActionSchema, 'ReviewActionPage');

/** The query of the lists paged by (time, id): a case's reviews, a review's action log. */
export const ReviewListQuery = z.object(pageQueryShape);

export const EnqueueSchema = z
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
export const encodeQueueCursor = (k: QueueKey | null) => (k ? Buffer.from(JSON.stringify([k.rank, k.ts, k.id]), 'utf8').toString('base64url') : null);

export const QueueQuery = z.object({
  status: z.enum(REVIEW_STATUSES).default('queued').describe('queued (waiting), claimed (being reviewed) or decided (kept findable)'),
  priority: z.enum(CASE_PRIORITIES).optional(),
  created_before: z.iso.datetime({ offset: true }).optional().describe('Only reviews requested before this time, ISO 8601 (the age filter)'),
  claimed_by: storedText(320).optional(),
  case_id: z.string().uuid().optional(),
  limit: pageQueryShape.limit,
  cursor: cursorParam(decodeQueueCursor),
});

export const AnnotateSchema = z
  .object({
    note: storedText(10_000).trim().min(1),
    target: z
      .object({ type: z.enum(ANNOTATION_TARGET_TYPES), id: storedText(300).min(1) })
      .strict()
      .optional()
      .describe('what the note is about (default: the case)'),
  })
  .strict();

export const FeedbackSchema = z
  .object({
    rating: z.number().int().min(1).max(5).describe('1 (poor) to 5 (excellent), e.g. of the extraction quality'),
    comment: storedText(10_000).default(''),
  })
  .strict();

export const DecisionSchema = z
  .object({ decision: z.enum(REVIEW_DECISIONS), rationale: storedText(10_000).trim().min(1) })
  .strict();

export const ClaimResultSchema = ReviewSchema.extend({
  renewed: z.boolean().describe('true when the caller already held the claim: its expiry moved on'),
  claim_task_id: z.string().describe('the Temporal workflow that returns the review to the queue when the claim expires'),
}).meta({ id: 'ReviewClaim' });

export const DecisionResultSchema = ReviewSchema.extend({
  lea_referral_created: z.boolean().describe('true when this refer_to_lea decision created the case\'s draft LEA referral'),
}).meta({ id: 'ReviewDecision' });
