// Response and input schemas shared by the case, review and LEA referral routes.
import { z } from 'zod';
import { CASE_PRIORITIES, CASE_STATUSES, type CasePriority } from '../../../domain/cases/case-states';
import { LEA_REFERRAL_STATUSES } from '../../../domain/cases/lea-referral-states';
import { REVIEW_ACTIONS, REVIEW_DECISIONS, REVIEW_STATUSES } from '../../../domain/reviews/review-rules';
import type { CaseRow } from '../../../db/repositories/cases/case-repository';
import type { LeaReferralEventRow, LeaReferralRow } from '../../../db/repositories/cases/lea-referral-repository';
import type { ReviewActionRow, ReviewRow } from '../../../db/repositories/reviews/review-repository';

export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 alphabetic code, checked against the currencies the runtime knows. */
export const CurrencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'an ISO 4217 code in capitals, e.g. EUR')
  .refine((c) => KNOWN_CURRENCIES.has(c), 'not an ISO 4217 currency code')
  .describe('ISO 4217 currency code');

/** Text stored in PostgreSQL, which refuses the NUL character: refused here as a 400 instead. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
export const NO_NUL = /^[^\u0000]*$/;
export const storedText = (max: number) => z.string().max(max).regex(NO_NUL, 'must not contain NUL characters');

/**
 * An e-mail address as a pattern (not `format: email`, whose checkers disagree with each other on
 * the edges): at most 64 characters before the @ (RFC 5321), a dotted domain with a letter TLD.
 */
export const EmailAddressSchema = z
  .string()
  .max(254)
  .regex(/^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/, 'an e-mail address (at most 64 characters before the @)');

/** A non-negative amount with at most 2 decimals, as a string so that it is never a float. */
export const AmountSchema = z
  .string()
  .regex(/^\d{1,18}(\.\d{1,2})?$/, 'a decimal string with at most 18 integer digits and 2 decimals, e.g. "1250.50"')
  .describe('decimal string, at most 2 decimals (numeric(20,2); never a float)');

export const LossSchema = z.object({ amount: AmountSchema, currency: CurrencySchema }).strict().meta({ id: 'Loss' });

export const CaseSchema = z
  .object({
    id: z.string().uuid(),
    title: z.string(),
    description: z.string(),
    status: z.enum(CASE_STATUSES),
    priority: z.enum(CASE_PRIORITIES),
    assignee: z.string().nullable(),
    campaign_id: z.string().uuid().nullable(),
    taxonomy: z.string().nullable().describe('a path of the scam taxonomy (GET /taxonomy), or null'),
    loss: z.object({ amount: z.string(), currency: z.string() }).nullable().describe('the loss recorded on the case itself'),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Case' });

export function caseView(c: CaseRow): z.infer<typeof CaseSchema> {
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    status: c.status,
    priority: c.priority,
    assignee: c.assignee,
    campaign_id: c.campaign_id,
    taxonomy: c.taxonomy ?? null,
    loss: c.loss_amount !== null && c.loss_currency !== null ? { amount: c.loss_amount, currency: c.loss_currency.trim() } : null,
    created_by: c.created_by,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

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
    priority: r.priority as CasePriority,
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

export const LeaReferralSchema = z
  .object({
    id: z.string().uuid(),
    case_id: z.string().uuid(),
    status: z.enum(LEA_REFERRAL_STATUSES),
    agency: z.string().nullable(),
    jurisdiction: z.string().nullable(),
    contact: z.string().nullable(),
    reference: z.string().nullable(),
    review_id: z.string().uuid().nullable().describe('the review whose refer_to_lea decision created it'),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    history: z.array(
      z.object({ from_status: z.enum(LEA_REFERRAL_STATUSES).nullable(), to_status: z.enum(LEA_REFERRAL_STATUSES), actor: z.string(), at: z.string() }),
    ),
  })
  .meta({ id: 'LeaReferral' });

export function referralView(r: LeaReferralRow, events: LeaReferralEventRow[]): z.infer<typeof LeaReferralSchema> {
  return {
    id: r.id,
    case_id: r.case_id,
    status: r.status,
    agency: r.agency,
    jurisdiction: r.jurisdiction,
    contact: r.contact,
    reference: r.reference,
    review_id: r.review_id,
    created_by: r.created_by,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    history: events.map((e) => ({ from_status: e.from_status, to_status: e.to_status, actor: e.actor, at: e.at.toISOString() })),
  };
}
