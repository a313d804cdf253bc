// Request and response schemas of the campaign routes.
import { z } from 'zod';
import { stripUnsafeNameCharacters } from '../../../domain/text-safety';
import { CAMPAIGN_STATUSES } from '../../../domain/campaigns/campaign-status';
import type { CampaignRow } from '../../../services/campaigns/campaign-service';
import { pageQueryShape } from '../../pagination';
import { storedText } from '../../common-schemas';
import { TaxonomyPathSchema } from '../analytics/analytics-schemas';

export const CampaignListQuery = z.object({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  taxonomy: TaxonomyPathSchema.optional().describe('campaigns tagged with this node or any node below it'),
  q: storedText(200).optional().describe('substring of the name or description (case-insensitive)'),
  ...pageQueryShape,
});

export const LeaSuggestionQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50).describe('at most this many suggestions (default 50)') });

export const CampaignSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    description: z.string(),
    status: z.enum(CAMPAIGN_STATUSES),
    taxonomy: z.string().nullable(),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Campaign' });

export const CampaignPageSchema = z.object({ items: z.array(CampaignSchema), next_cursor: z.string().nullable() }).meta({ id: 'CampaignPage' });

export function campaignView(c: CampaignRow): z.infer<typeof CampaignSchema> {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    status: c.status,
    taxonomy: c.taxonomy,
    created_by: c.created_by,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export const CampaignNameSchema = storedText(200).overwrite(stripUnsafeNameCharacters).trim().min(1).describe('unique, case-insensitively');

export const CreateCampaignSchema = z
  .object({
    name: CampaignNameSchema,
    description: storedText(20_000).optional(),
    status: z.enum(CAMPAIGN_STATUSES).optional().describe('default active'),
    taxonomy: TaxonomyPathSchema.optional(),
  })
  .strict();

const MemberRefSchema = z.object({ type: z.enum(['case', 'entity']), id: z.string().uuid() }).strict();

export const PatchCampaignSchema = z
  .object({
    name: CampaignNameSchema.optional(),
    description: storedText(20_000).optional(),
    status: z.enum(CAMPAIGN_STATUSES).optional(),
    taxonomy: TaxonomyPathSchema.nullable().optional().describe('null clears it'),
    members: z
      .object({
        add: z.array(MemberRefSchema).max(500).optional().describe('cases (a case is in at most one campaign) and graph entities to add'),
        remove: z.array(MemberRefSchema).max(500).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'give at least one field to change');

export const CampaignRiskSchema = z
  .object({
    score: z.number().nullable().describe('the max of the member entities\' risk scores (what lists sort by)'),
    max: z.number().nullable(),
    mean: z.number().nullable().describe('mean over the scored member entities, one decimal'),
    scored_entities: z.number().int(),
  })
  .meta({ id: 'CampaignRisk' });

export const IntelligenceCampaignSchema = CampaignSchema.extend({
  cases: z.number().int(),
  entities: z.number().int(),
  risk: CampaignRiskSchema,
  taxonomy_lineage: z.array(z.string()).describe('the taxonomy path and its ancestors, root first (empty when none)'),
}).meta({ id: 'IntelligenceCampaign' });

export const TaxonomyRollupSchema = z.array(
  z.object({ taxonomy: z.string(), label: z.string(), depth: z.number().int(), campaigns: z.number().int() }),
);

export const IntelligenceCampaignPageSchema = z
  .object({ items: z.array(IntelligenceCampaignSchema), next_cursor: z.string().nullable(), taxonomy_rollup: TaxonomyRollupSchema })
  .meta({ id: 'IntelligenceCampaignPage' });

const EntityOut = z.object({
  id: z.string().uuid(),
  type: z.string(),
  value: z.string().describe('bank accounts masked for every role but analyst'),
  display_value: z.string(),
  risk_score: z.number().nullable(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  via: z.array(z.string()).describe('campaign (its own list), link, case, intake, investigation (through a member case)'),
});

export const CampaignDetailSchema = IntelligenceCampaignSchema.extend({
  member_cases: z.array(
    z.object({
      id: z.string().uuid(),
      title: z.string(),
      status: z.string(),
      taxonomy: z.string().nullable(),
      loss: z.object({ amount: z.string(), currency: z.string() }).nullable(),
      referral_status: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  member_entities: z.array(EntityOut),
  member_investigations: z.array(
    z.object({ scan_id: z.string().uuid(), url: z.string(), domain: z.string(), state: z.string(), added_by: z.string(), added_at: z.string() }),
  ).describe('Investigations in the campaign (an accepted campaign suggestion adds its sites)'),
  timeline: z.array(z.object({ at: z.string(), kind: z.string(), record_type: z.string(), record_id: z.string() })),
}).meta({ id: 'CampaignDetail' });

export const LeaSuggestionsSchema = z
  .object({
    campaign_id: z.string().uuid(),
    weights: z.record(z.string(), z.number()).describe('score per shared entity of each type'),
    items: z.array(
      z.object({
        kind: z.enum(['case', 'investigation']),
        id: z.string().describe('case id, or the investigation\'s scan_id'),
        title: z.string().describe('the case title, or the investigated URL'),
        reason: z.enum(['not_in_campaign', 'not_referred']),
        score: z.number(),
        shared_entities: z.number().int(),
        evidence: z.array(
          z.object({
            entity_id: z.string().uuid(),
            type: z.enum(['wallet', 'phone', 'domain']),
            value: z.string(),
            source_kind: z.string(),
            source_id: z.string(),
            observed_at: z.string(),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'LeaSuggestions' });
