// Request and response schemas of the case and LEA referral routes, with the views that shape a
// case and a referral for them; the amount and currency schemas that the campaign schemas use too.
import { z } from 'zod';
import { stripUnsafeNameCharacters } from '../../../domain/text-safety';
import { CASE_PRIORITIES, CASE_STATUSES } from '../../../domain/cases/case-states';
import { LEA_REFERRAL_STATUSES } from '../../../domain/cases/lea-referral-states';
import type { CaseRow } from '../../../services/cases/case-service';
import type { LeaReferralEventRow, LeaReferralRow } from '../../../services/cases/lea-referral-service';
import { pageQueryShape, pageSchema } from '../../pagination';
import { TaxonomyPathSchema } from '../analytics/analytics-schemas';
import { EmailAddressSchema, storedText } from '../../common-schemas';
import { ReviewSchema } from '../reviews/review-schemas';

const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 alphabetic code, checked against the currencies the runtime knows. */
export const CurrencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'an ISO 4217 code in capitals, e.g. EUR')
  .refine((c) => KNOWN_CURRENCIES.has(c), 'not an ISO 4217 currency code')
  .describe('ISO 4217 currency code');

/**
 * An e-mail address as a pattern (not `format: email`, whose checkers disagree with each other on
 * the edges): at most 64 characters before the @ (RFC 5321), a dotted domain with a letter TLD.
 */
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

export const CasePageSchema = pageSchema(CaseSchema, 'CasePage');

export const CaseIdParam = z.object({ case_id: z.string().uuid() });

export const CaseScanParams = z.object({ case_id: z.string().uuid(), scan_id: z.string().uuid() });

export const LinkInvestigationSchema = z.object({ scan_id: z.string().uuid().describe('The investigation (scan) to link') }).meta({ id: 'LinkInvestigation' });

export const CaseInvestigationLinkSchema = z
  .object({ case_id: z.string().uuid(), scan_id: z.string().uuid(), linked_by: z.string(), linked_at: z.string() })
  .meta({ id: 'CaseInvestigationLink' });

export const CreateCaseSchema = z
  .object({
    title: storedText(300).overwrite(stripUnsafeNameCharacters).trim().min(1),
    description: storedText(20_000).optional(),
    priority: z.enum(CASE_PRIORITIES).optional().describe('default medium'),
    assignee: EmailAddressSchema.optional().describe('e-mail of the analyst working the case'),
    campaign_id: z.string().uuid().optional(),
    loss: LossSchema.optional().describe('a loss recorded on the case itself (linked intakes add theirs)'),
  })
  .strict();

export const PatchCaseSchema = z
  .object({
    title: storedText(300).overwrite(stripUnsafeNameCharacters).trim().min(1).optional(),
    description: storedText(20_000).optional(),
    status: z.enum(CASE_STATUSES).optional().describe('follows the case status machine (README); an illegal move is 409'),
    priority: z.enum(CASE_PRIORITIES).optional(),
    assignee: EmailAddressSchema.nullable().optional().describe('null unassigns'),
    campaign_id: z.string().uuid().nullable().optional(),
    taxonomy: TaxonomyPathSchema.nullable().optional().describe('a path of the scam taxonomy (GET /taxonomy); null clears it'),
    loss: LossSchema.nullable().optional().describe('null clears the case\'s own loss'),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'give at least one field to change');

export const CaseListQuery = z.object({
  status: z.enum(CASE_STATUSES).optional(),
  priority: z.enum(CASE_PRIORITIES).optional(),
  assignee: storedText(320).optional(),
  campaign_id: z.string().uuid().optional(),
  q: storedText(200).optional().describe('substring of the title or description (case-insensitive)'),
  ...pageQueryShape,
});

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
    evidence_signing_key: z
      .object({ key_id: z.string(), fingerprint: z.string(), algorithm: z.string() })
      .describe(
        'the key that signs the evidence packages handed on with this referral: give the agency its fingerprint (SHA-256 of the SPKI DER) ' +
          'through the referral\'s own channel, so it can check the key enclosed in each package (VERIFY.txt step 0)',
      ),
  })
  .meta({ id: 'LeaReferral' });

export function referralView(
  r: LeaReferralRow,
  events: LeaReferralEventRow[],
  signingKey: { key_id: string; fingerprint: string; algorithm: string },
): z.infer<typeof LeaReferralSchema> {
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
    evidence_signing_key: signingKey,
  };
}

const LinkSchema = z.object({ id: z.string(), linked_by: z.string(), linked_at: z.string() });

export const CaseDetailSchema = CaseSchema.extend({
  intakes: z.array(LinkSchema),
  investigations: z.array(LinkSchema),
  entities: z.array(
    z.object({
      id: z.string().uuid(),
      type: z.string(),
      value: z.string(),
      display_value: z.string(),
      risk_score: z.number().nullable(),
      via: z.array(z.enum(['link', 'case', 'intake', 'investigation'])),
    }),
  ),
  reviews: z.array(ReviewSchema),
  referral: LeaReferralSchema.nullable(),
  total_loss: z.array(z.object({ currency: z.string(), amount: z.string() })).describe('per currency: the case\'s own loss plus its linked intakes\''),
}).meta({ id: 'CaseDetail' });

export const LeaReferralBodySchema = z
  .object({
    agency: storedText(300).trim().min(1).describe('the law-enforcement agency'),
    jurisdiction: storedText(200).trim().min(1),
    contact: storedText(500).trim().min(1).describe('the agency\'s contact (officer, desk, e-mail or phone)'),
    reference: storedText(200).trim().nullable().optional().describe('the agency\'s reference number; omitted keeps the stored one'),
    status: z.enum(LEA_REFERRAL_STATUSES).describe('draft to create; then submitted, acknowledged, closed (README: LEA referrals)'),
  })
  .strict();
