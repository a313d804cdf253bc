// Cases: list, read (with links, entities, reviews, referral and loss totals), create, update.
// These routes are additions to the spec (which names GET /cases and GET /cases/{case_id}).
import type { Knex } from 'knex';
import { z } from 'zod';
import {
  caseEntities,
  caseLossTotals,
  createCase,
  findCase,
  listCaseLinks,
  listCases,
  updateCase,
} from '../../../db/repositories/cases/case-repository';
import { campaignExists } from '../../../db/repositories/campaigns/campaign-repository';
import { findReferral } from '../../../db/repositories/cases/lea-referral-repository';
import { listCaseReviews } from '../../../db/repositories/reviews/review-repository';
import { CASE_PRIORITIES, CASE_STATUSES, type CasePriority, type CaseStatus } from '../../../domain/cases/case-states';
import type { Keyset } from '../../../domain/keyset';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { CaseSchema, EmailAddressSchema, storedText, LeaReferralSchema, LossSchema, ReviewSchema, caseView, referralView, reviewView } from './case-schemas';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { TaxonomyPathSchema } from '../analytics/taxonomy-schemas';

/** Who may read cases, and who may create and change them. Researchers and service keys: none. */
export const CASE_READERS = ['admin', 'analyst', 'reviewer'] as const;
export const CASE_WRITERS = ['admin', 'analyst'] as const;

const CaseIdParam = z.object({ case_id: z.string().uuid() });

const CreateCaseSchema = z
  .object({
    title: storedText(300).trim().min(1),
    description: storedText(20_000).optional(),
    priority: z.enum(CASE_PRIORITIES).optional().describe('default medium'),
    assignee: EmailAddressSchema.optional().describe('e-mail of the analyst working the case'),
    campaign_id: z.string().uuid().optional(),
    loss: LossSchema.optional().describe('a loss recorded on the case itself (linked intakes add theirs)'),
  })
  .strict();

const PatchCaseSchema = z
  .object({
    title: storedText(300).trim().min(1).optional(),
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

const ListQuery = z.object({
  status: z.enum(CASE_STATUSES).optional(),
  priority: z.enum(CASE_PRIORITIES).optional(),
  assignee: storedText(320).optional(),
  campaign_id: z.string().uuid().optional(),
  q: storedText(200).optional().describe('substring of the title or description (case-insensitive)'),
  ...pageQueryShape,
});

const LinkSchema = z.object({ id: z.string(), linked_by: z.string(), linked_at: z.string() });

const CaseDetailSchema = CaseSchema.extend({
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

const lossFields = (loss: { amount: string; currency: string } | null | undefined) =>
  loss === undefined ? {} : { loss_amount: loss?.amount ?? null, loss_currency: loss?.currency ?? null };

export const caseRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof ListQuery>>({
    method: 'get',
    path: '/cases',
    summary: 'List cases, newest first (filters: status, priority, assignee, campaign_id, q)',
    tags: ['cases'],
    access: { roles: CASE_READERS },
    request: { query: ListQuery },
    responses: { 200: { description: 'A page of cases', schema: pageSchema(CaseSchema, 'CasePage') } },
    handler: async ({ query, deps }) => {
      const page = await listCases(
        deps.knex,
        { status: query.status, priority: query.priority, assignee: query.assignee, campaign_id: query.campaign_id, q: query.q },
        { limit: query.limit, after: query.cursor as Keyset | undefined },
      );
      return { body: { items: page.rows.map(caseView), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof CaseIdParam>>({
    method: 'get',
    path: '/cases/{case_id}',
    summary: 'A case with its intakes, investigations, entities, reviews, LEA referral and total loss per currency',
    tags: ['cases'],
    access: { roles: CASE_READERS },
    request: { params: CaseIdParam },
    responses: { 200: { description: 'The case', schema: CaseDetailSchema }, 404: { description: 'No such case', schema: ErrorSchema } },
    handler: async ({ params, deps }) => {
      const c = await findCase(deps.knex, params.case_id);
      if (!c) throw new NotFoundError(`no case ${params.case_id}`);
      const [links, entities, reviews, referral, totals] = await Promise.all([
        listCaseLinks(deps.knex, c.id),
        caseEntities(deps.knex, c.id),
        listCaseReviews(deps.knex, c.id),
        findReferral(deps.knex, c.id),
        caseLossTotals(deps.knex, c.id),
      ]);
      const linksOf = (type: string) =>
        links.filter((l) => l.target_type === type).map((l) => ({ id: l.target_id, linked_by: l.linked_by, linked_at: l.linked_at.toISOString() }));
      return {
        body: {
          ...caseView(c),
          intakes: linksOf('intake'),
          investigations: linksOf('investigation'),
          entities,
          reviews: reviews.map(reviewView),
          referral: referral ? referralView(referral.referral, referral.events) : null,
          total_loss: totals,
        },
      };
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof CreateCaseSchema>>({
    method: 'post',
    path: '/cases',
    summary: 'Create a case (status open)',
    tags: ['cases'],
    access: { roles: CASE_WRITERS },
    request: { body: CreateCaseSchema },
    responses: { 201: { description: 'The new case', schema: CaseSchema } },
    handler: async ({ body, principal, deps }) => {
      await requireCampaign(deps.knex, body.campaign_id);
      const row = await createCase(
        deps.knex,
        {
          title: body.title,
          description: body.description,
          priority: body.priority,
          assignee: body.assignee?.toLowerCase(),
          campaign_id: body.campaign_id,
          ...lossFields(body.loss),
        },
        principalName(principal),
      );
      return { status: 201, body: caseView(row) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof PatchCaseSchema>>({
    method: 'patch',
    path: '/cases/{id}',
    summary: 'Change a case: title, description, status (by the case status machine), priority, assignee, campaign, taxonomy, loss',
    tags: ['cases'],
    access: { roles: CASE_WRITERS },
    request: { params: UuidParam, body: PatchCaseSchema },
    responses: {
      200: { description: 'The case as changed', schema: CaseSchema },
      404: { description: 'No such case', schema: ErrorSchema },
      409: { description: 'The status machine does not allow this move; details name the allowed statuses', schema: ErrorSchema },
    },
    handler: async ({ params, body, deps }) => {
      await requireCampaign(deps.knex, body.campaign_id);
      const result = await updateCase(deps.knex, params.id, {
        title: body.title,
        description: body.description,
        status: body.status as CaseStatus | undefined,
        priority: body.priority as CasePriority | undefined,
        assignee: body.assignee === undefined ? undefined : (body.assignee?.toLowerCase() ?? null),
        campaign_id: body.campaign_id,
        taxonomy: body.taxonomy,
        ...lossFields(body.loss),
      });
      if (!result.ok && result.reason === 'not_found') throw new NotFoundError(`no case ${params.id}`);
      if (!result.ok) {
        const allowed = result.allowed.length ? result.allowed.join(', ') : 'none';
        throw new ConflictError(`a ${result.from} case cannot move to ${result.to}; allowed: ${allowed}`, { from: result.from, to: result.to, allowed: result.allowed });
      }
      return { body: caseView(result.row) };
    },
  }),
];

/** A case can only name a campaign that exists (cases.campaign_id is a foreign key). */
async function requireCampaign(knex: Knex, campaignId: string | null | undefined): Promise<void> {
  if (campaignId && !(await campaignExists(knex, campaignId))) {
    throw new ValidationError('no such campaign', [{ path: 'body.campaign_id', message: `no campaign ${campaignId}` }]);
  }
}
