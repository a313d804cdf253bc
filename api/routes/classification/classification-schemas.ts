// Schemas of the classification: as investigations' and intakes' details show it, and an analyst's
// correction (PUT /investigations/ssi/{scan_id}/classification, PUT /intakes/{id}/classification).
import { z } from 'zod';
import { TaxonomyPathSchema } from '../analytics/analytics-schemas';

export const ClassificationSchema = z
  .object({
    taxonomy: z.string().describe('a path of GET /taxonomy, or `unclassified` when no feature points anywhere'),
    label: z.string(),
    confidence: z.number().min(0).max(1),
    evidence: z.array(z.object({
      feature: z.string().describe('vocabulary, structure, wallet_history, kit_history, llm or analyst'),
      detail: z.string(),
      weight: z.number(),
    })),
    source: z.enum(['rules', 'llm', 'analyst']).describe('who placed it: the deterministic rules, the language model, or an analyst (whose correction wins over later automatic runs)'),
    classified_at: z.string(),
    automatic: z.object({ taxonomy: z.string(), confidence: z.number(), source: z.string() }).nullable().describe('the latest automatic prediction, kept after a correction'),
    correction: z.object({ by: z.string(), reason: z.string(), at: z.string() }).nullable(),
  })
  .meta({ id: 'Classification' });

export const CorrectionSchema = z
  .object({
    taxonomy: TaxonomyPathSchema,
    reason: z.string().trim().min(3).max(1000).describe('why (kept in the audit log)'),
  })
  .meta({ id: 'ClassificationCorrection' });
export type CorrectionT = z.infer<typeof CorrectionSchema>;
