// Campaign governance (spec: GET/POST /campaigns, PATCH /campaigns/{id}; the LEA referral
// suggestions at GET /campaigns/{id}/lea-suggestions are a documented addition) and the campaign
// views of the intelligence section (GET /intelligence/campaigns, /intelligence/campaigns/{id}).
// Every change writes an audit event (campaign.create, campaign.update).
import { z } from 'zod';
import type { Principal, Role } from '../../../domain/accounts/roles';
import {
  CAMPAIGN_STATUSES,
  createCampaign,
  findCampaign,
  listCampaigns,
  updateCampaign,
  type CampaignStatus,
} from '../../../db/repositories/campaigns/campaign-repository';
import type { Keyset } from '../../../domain/keyset';
import { campaignDetail, campaignTaxonomyRollup, leaSuggestions, withCampaignStats } from '../../../services/campaigns/campaign-intelligence';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import { encodeCursor, pageQueryShape } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import {
  CampaignDetailSchema,
  CampaignSchema,
  CreateCampaignSchema,
  IntelligenceCampaignSchema,
  LeaSuggestionsSchema,
  PatchCampaignSchema,
  TaxonomyRollupSchema,
  campaignView,
} from './campaign-schemas';
import { storedText } from '../cases/case-schemas';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { TaxonomyPathSchema } from '../analytics/taxonomy-schemas';

/** Campaigns are records: researchers (aggregates only) and service keys get none. */
export const CAMPAIGN_READERS = ['admin', 'analyst', 'reviewer'] as const;
export const CAMPAIGN_WRITERS = ['admin', 'analyst'] as const;
/** LEA referrals are analysts' work. */
export const LEA_SUGGESTION_READERS = ['admin', 'analyst'] as const;

const rolesOf = (p: Principal | null): Role[] => (p?.kind === 'user' ? p.roles : []);

const ListQuery = z.object({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  taxonomy: TaxonomyPathSchema.optional().describe('campaigns tagged with this node or any node below it'),
  q: storedText(200).optional().describe('substring of the name or description (case-insensitive)'),
  ...pageQueryShape,
});

const SuggestionQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50).describe('at most this many suggestions (default 50)') });

const notFound = (id: string) => new NotFoundError(`no campaign ${id}`);

export const campaignRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof ListQuery>>({
    method: 'get',
    path: '/campaigns',
    summary: 'List campaigns, newest first (filters: status, taxonomy, q)',
    tags: ['campaigns'],
    access: { roles: CAMPAIGN_READERS },
    request: { query: ListQuery },
    responses: { 200: { description: 'A page of campaigns', schema: z.object({ items: z.array(CampaignSchema), next_cursor: z.string().nullable() }).meta({ id: 'CampaignPage' }) } },
    handler: async ({ query, deps }) => {
      const page = await listCampaigns(deps.knex, { status: query.status, taxonomy: query.taxonomy, q: query.q }, { limit: query.limit, after: query.cursor as Keyset | undefined });
      return { body: { items: page.rows.map(campaignView), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof CreateCampaignSchema>>({
    method: 'post',
    path: '/campaigns',
    summary: 'Create a campaign (name unique case-insensitively; taxonomy a path of GET /taxonomy)',
    tags: ['campaigns'],
    access: { roles: CAMPAIGN_WRITERS },
    request: { body: CreateCampaignSchema },
    responses: {
      201: { description: 'The new campaign', schema: CampaignSchema },
      409: { description: 'A campaign with this name exists (case-insensitive)', schema: ErrorSchema },
    },
    handler: async ({ body, principal, deps }) => {
      const result = await createCampaign(deps.knex, { name: body.name, description: body.description, status: body.status as CampaignStatus | undefined, taxonomy: body.taxonomy }, principalName(principal));
      if (!result.ok) throw new ConflictError(`a campaign named "${body.name}" exists`, { field: 'body.name' });
      return { status: 201, body: campaignView(result.row) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof PatchCampaignSchema>>({
    method: 'patch',
    path: '/campaigns/{id}',
    summary: 'Change a campaign: rename, describe, status, taxonomy, and members ({members: {add: [{type: case|entity, id}], remove: [...]}})',
    tags: ['campaigns'],
    access: { roles: CAMPAIGN_WRITERS },
    request: { params: UuidParam, body: PatchCampaignSchema },
    responses: {
      200: { description: 'The campaign as changed', schema: CampaignSchema },
      404: { description: 'No such campaign', schema: ErrorSchema },
      409: { description: 'The new name is taken, or a case to add is in another campaign (details name it)', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const result = await updateCampaign(
        deps.knex,
        params.id,
        { name: body.name, description: body.description, status: body.status as CampaignStatus | undefined, taxonomy: body.taxonomy, add: body.members?.add, remove: body.members?.remove },
        principalName(principal),
      );
      if (result.ok) return { body: campaignView(result.row) };
      switch (result.reason) {
        case 'not_found':
          throw notFound(params.id);
        case 'clash':
          throw new ConflictError(`a campaign named "${body.name}" exists`, { field: 'body.name' });
        case 'unknown_member':
          throw new ValidationError('no such member', [{ path: `body.members.${result.list}[${result.index}].id`, message: `no ${result.ref.type} ${result.ref.id}` }]);
        case 'case_in_other_campaign':
          throw new ConflictError(`case ${result.ref.id} is in campaign ${result.campaign_id}; remove it there first`, { field: `body.members.add[${result.index}].id`, campaign_id: result.campaign_id });
      }
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, z.infer<typeof SuggestionQuery>>({
    method: 'get',
    path: '/campaigns/{id}/lea-suggestions',
    summary: 'LEA referral suggestions (addition): cases and investigations sharing wallets, phones or domains with the campaign, not yet in it or not yet referred, ranked, with the shared evidence',
    tags: ['campaigns'],
    access: { roles: LEA_SUGGESTION_READERS },
    request: { params: UuidParam, query: SuggestionQuery },
    responses: { 200: { description: 'Ranked suggestions', schema: LeaSuggestionsSchema }, 404: { description: 'No such campaign', schema: ErrorSchema } },
    handler: async ({ params, query, deps }) => {
      if (!(await findCampaign(deps.knex, params.id))) throw notFound(params.id);
      return { body: await leaSuggestions(deps.knex, params.id, query.limit) };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof ListQuery>>({
    method: 'get',
    path: '/intelligence/campaigns',
    summary: 'Campaigns with member counts, risk (max and mean of the member entities\' risk scores) and the taxonomy rollup of all campaigns',
    tags: ['intelligence'],
    access: { roles: CAMPAIGN_READERS },
    request: { query: ListQuery },
    responses: {
      200: {
        description: 'A page of campaigns and the taxonomy rollup',
        schema: z.object({ items: z.array(IntelligenceCampaignSchema), next_cursor: z.string().nullable(), taxonomy_rollup: TaxonomyRollupSchema }).meta({ id: 'IntelligenceCampaignPage' }),
      },
    },
    handler: async ({ query, deps }) => {
      const page = await listCampaigns(deps.knex, { status: query.status, taxonomy: query.taxonomy, q: query.q }, { limit: query.limit, after: query.cursor as Keyset | undefined });
      const [items, rollup] = await Promise.all([withCampaignStats(deps.knex, page.rows), campaignTaxonomyRollup(deps.knex)]);
      return {
        body: {
          items: items.map(({ row, ...rest }) => ({ ...campaignView(row), ...rest })),
          next_cursor: encodeCursor(page.next),
          taxonomy_rollup: rollup,
        },
      };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path: '/intelligence/campaigns/{id}',
    summary: 'A campaign with its member cases, member entities (bank accounts masked but for analysts), risk and timeline',
    tags: ['intelligence'],
    access: { roles: CAMPAIGN_READERS },
    request: { params: UuidParam },
    responses: { 200: { description: 'The campaign', schema: CampaignDetailSchema }, 404: { description: 'No such campaign', schema: ErrorSchema } },
    handler: async ({ params, principal, deps }) => {
      const row = await findCampaign(deps.knex, params.id);
      if (!row) throw notFound(params.id);
      const { row: r, ...rest } = await campaignDetail(deps.knex, row, { roles: rolesOf(principal) });
      return { body: { ...campaignView(r), ...rest } };
    },
  }),
];
