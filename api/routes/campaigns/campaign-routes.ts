// Campaign governance (spec: GET/POST /campaigns, PATCH /campaigns/{id}; the LEA referral
// suggestions at GET /campaigns/{id}/lea-suggestions are a documented addition) and the campaign
// views of the intelligence section (GET /intelligence/campaigns, /intelligence/campaigns/{id}).
// Every change writes an audit event (campaign.create, campaign.update). The use cases:
// services/campaigns/campaign-service.ts and campaign-intelligence.ts.
import type { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import { createCampaign, listCampaigns, updateCampaign } from '../../../services/campaigns/campaign-service';
import { campaignDetail, leaSuggestions, listIntelligenceCampaigns } from '../../../services/campaigns/campaign-intelligence';
import { encodeCursor } from '../../pagination';
import { defineRoute } from '../../route-definition';
import {
  CampaignDetailSchema,
  CampaignListQuery,
  CampaignPageSchema,
  CampaignSchema,
  CreateCampaignSchema,
  IntelligenceCampaignPageSchema,
  LeaSuggestionQuery,
  LeaSuggestionsSchema,
  PatchCampaignSchema,
  campaignView,
} from './campaign-schemas';
import { ErrorSchema, UuidParam } from '../../common-schemas';

/** Campaigns are records: researchers (aggregates only) and service keys get none. */
export const CAMPAIGN_READERS = ['admin', 'analyst', 'reviewer'] as const;
export const CAMPAIGN_WRITERS = ['admin', 'analyst'] as const;
/** LEA referrals are analysts' work. */
export const LEA_SUGGESTION_READERS = ['admin', 'analyst'] as const;

/** One campaign's detail: the same answer at its own path and under /intelligence. */
function campaignDetailRoute(path: string, summary: string, tag: string) {
  return defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path,
    summary,
    tags: [tag],
    access: { roles: CAMPAIGN_READERS },
    request: { params: UuidParam },
    responses: { 200: { description: 'The campaign', schema: CampaignDetailSchema }, 404: { description: 'No such campaign', schema: ErrorSchema } },
    handler: async ({ params, principal, deps }) => {
      const { row, ...rest } = await campaignDetail(deps, principal, params.id);
      return { body: { ...campaignView(row), ...rest } };
    },
  });
}

export const campaignRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof CampaignListQuery>>({
    method: 'get',
    path: '/campaigns',
    summary: 'List campaigns, newest first (filters: status, taxonomy, q)',
    tags: ['campaigns'],
    access: { roles: CAMPAIGN_READERS },
    request: { query: CampaignListQuery },
    responses: { 200: { description: 'A page of campaigns', schema: CampaignPageSchema } },
    handler: async ({ query, principal, deps }) => {
      const page = await listCampaigns(deps, principal, { status: query.status, taxonomy: query.taxonomy, q: query.q }, { limit: query.limit, after: query.cursor as Keyset | undefined });
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
      const row = await createCampaign(deps, principal, { name: body.name, description: body.description, status: body.status, taxonomy: body.taxonomy });
      return { status: 201, body: campaignView(row) };
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
      const row = await updateCampaign(deps, principal, params.id, {
        name: body.name,
        description: body.description,
        status: body.status,
        taxonomy: body.taxonomy,
        add: body.members?.add,
        remove: body.members?.remove,
      });
      return { body: campaignView(row) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, z.infer<typeof LeaSuggestionQuery>>({
    method: 'get',
    path: '/campaigns/{id}/lea-suggestions',
    summary: 'LEA referral suggestions (addition): cases and investigations sharing wallets, phones or domains with the campaign, not yet in it or not yet referred, ranked, with the shared evidence',
    tags: ['campaigns'],
    access: { roles: LEA_SUGGESTION_READERS },
    request: { params: UuidParam, query: LeaSuggestionQuery },
    responses: { 200: { description: 'Ranked suggestions', schema: LeaSuggestionsSchema }, 404: { description: 'No such campaign', schema: ErrorSchema } },
    handler: async ({ params, query, deps }) => ({ body: await leaSuggestions(deps, params.id, query.limit) }),
  }),
  defineRoute<Record<string, never>, z.infer<typeof CampaignListQuery>>({
    method: 'get',
    path: '/intelligence/campaigns',
    summary: 'Campaigns with member counts, risk (max and mean of the member entities\' risk scores) and the taxonomy rollup of all campaigns',
    tags: ['intelligence'],
    access: { roles: CAMPAIGN_READERS },
    request: { query: CampaignListQuery },
    responses: { 200: { description: 'A page of campaigns and the taxonomy rollup', schema: IntelligenceCampaignPageSchema } },
    handler: async ({ query, principal, deps }) => {
      const page = await listIntelligenceCampaigns(deps, principal, { status: query.status, taxonomy: query.taxonomy, q: query.q }, { limit: query.limit, after: query.cursor as Keyset | undefined });
      return {
        body: {
          items: page.items.map(({ row, ...rest }) => ({ ...campaignView(row), ...rest })),
          next_cursor: encodeCursor(page.next),
          taxonomy_rollup: page.taxonomy_rollup,
        },
      };
    },
  }),
  campaignDetailRoute('/campaigns/{id}', 'A campaign with its members (cases, entities, investigations), risk and timeline (as GET /intelligence/campaigns/{id})', 'campaigns'),
  campaignDetailRoute('/intelligence/campaigns/{id}', 'A campaign with its member cases, member entities (bank accounts masked but for analysts), risk and timeline', 'intelligence'),
];
