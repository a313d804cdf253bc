// Campaign suggestions: clusters of linked investigations (with their cases and shared entities)
// that the platform proposes as one operation; accepting one creates the campaign (audited),
// dismissing one keeps it dismissed. The use cases: services/similarity/suggestion-service.ts.
import type { z } from 'zod';
import { acceptSuggestion, dismissSuggestion, listCampaignSuggestions, type SuggestionRow } from '../../../services/similarity/suggestion-service';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { campaignView } from './campaign-schemas';
import { CAMPAIGN_READERS, CAMPAIGN_WRITERS } from './campaign-routes';
import { AcceptSuggestionSchema, AcceptedSuggestionSchema, SuggestionListQuery, SuggestionPageSchema, SuggestionSchema, type SuggestionListQueryT } from './campaign-suggestion-schemas';

function suggestionView(s: SuggestionRow) {
  return {
    id: s.id, score: Number(s.score), status: s.status, members: s.members, reasons: s.reasons, campaign_id: s.campaign_id, decided_by: s.decided_by,
    decided_at: s.decided_at ? s.decided_at.toISOString() : null, created_at: s.created_at.toISOString(), updated_at: s.updated_at.toISOString(),
  };
}

export const campaignSuggestionRoutes = [
  defineRoute<Record<string, never>, SuggestionListQueryT>({
    method: 'get',
    path: '/campaigns/suggestions',
    summary: 'Campaign suggestions: clusters of linked investigations with their cases and shared entities, best score first, with reasons',
    tags: ['campaigns'],
    access: { roles: CAMPAIGN_READERS },
    request: { query: SuggestionListQuery },
    responses: { 200: { description: 'The suggestions', schema: SuggestionPageSchema } },
    handler: async ({ query, deps }) => ({ body: { items: (await listCampaignSuggestions(deps, query.status, query.limit)).map(suggestionView) } }),
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof AcceptSuggestionSchema>>({
    method: 'post',
    path: '/campaigns/suggestions/{id}/accept',
    summary: 'Accept a suggestion: creates the campaign with its investigations, cases and entities (audited: campaign.create, campaign_suggestion.accept)',
    tags: ['campaigns'],
    access: { roles: CAMPAIGN_WRITERS },
    request: { params: UuidParam, body: AcceptSuggestionSchema },
    responses: {
      201: { description: 'The campaign created, and the suggestion as accepted', schema: AcceptedSuggestionSchema },
      404: { description: 'No such suggestion', schema: ErrorSchema },
      409: { description: 'The suggestion is already accepted or dismissed, the name is taken, or a case is in another campaign', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const { suggestion, campaign } = await acceptSuggestion(deps, principal, params.id, { name: body.name, description: body.description });
      return { status: 201, body: { suggestion: suggestionView(suggestion), campaign: campaignView(campaign) } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'post',
    path: '/campaigns/suggestions/{id}/dismiss',
    summary: 'Dismiss a suggestion (audited): a recompute never suggests this cluster, or any part of it, again',
    tags: ['campaigns'],
    access: { roles: CAMPAIGN_WRITERS },
    request: { params: UuidParam },
    responses: {
      200: { description: 'The suggestion as dismissed', schema: SuggestionSchema },
      404: { description: 'No such suggestion', schema: ErrorSchema },
      409: { description: 'The suggestion is already accepted or dismissed', schema: ErrorSchema },
    },
    handler: async ({ params, principal, deps }) => ({ body: suggestionView(await dismissSuggestion(deps, principal, params.id)) }),
  }),
];
