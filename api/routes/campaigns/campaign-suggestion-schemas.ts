// Schemas of the campaign suggestions (GET /campaigns/suggestions, POST .../{id}/accept, .../{id}/dismiss).
import { z } from 'zod';
import { CampaignSchema } from './campaign-schemas';

export const SuggestionListQuery = z.object({
  status: z.enum(['open', 'accepted', 'dismissed']).default('open').describe('open (default), accepted or dismissed'),
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('At most this many, best score first (1-500, default 50)'),
});
export type SuggestionListQueryT = z.infer<typeof SuggestionListQuery>;

export const SuggestionMemberSchema = z.union([
  z.object({ kind: z.literal('investigation'), scan_id: z.string().uuid() }),
  z.object({ kind: z.literal('entity'), entity_id: z.string().uuid() }),
  z.object({ kind: z.literal('case'), case_id: z.string().uuid() }),
]);

export const SuggestionSchema = z
  .object({
    id: z.string().uuid(),
    score: z.number().min(0).max(1).describe('The mean score of the links that join the cluster'),
    status: z.enum(['open', 'accepted', 'dismissed']),
    members: z.array(SuggestionMemberSchema),
    reasons: z.array(z.object({ kind: z.string(), detail: z.string() })).describe('Per kind of reason, how many of the cluster\'s links it supports'),
    campaign_id: z.string().uuid().nullable().describe('The campaign an accepted suggestion created'),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'CampaignSuggestion' });

export const SuggestionPageSchema = z.object({ items: z.array(SuggestionSchema) });

export const AcceptSuggestionSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional().describe('The campaign\'s name (default: "Suggested operation <id>")'),
    description: z.string().max(10_000).optional(),
  })
  .prefault({});

export const AcceptedSuggestionSchema = z.object({ suggestion: SuggestionSchema, campaign: CampaignSchema });
