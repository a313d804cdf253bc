// The scam taxonomy in request and response schemas.
import { z } from 'zod';
import { TAXONOMY_ENTRIES } from '../../../domain/analytics/scam-taxonomy';

const PATHS = TAXONOMY_ENTRIES.map((e) => e.path) as [string, ...string[]];

/** A node of the scam taxonomy by path (`investment/crypto/pig-butchering`); anything else is a 400. */
export const TaxonomyPathSchema = z.enum(PATHS).describe('a path of the scam taxonomy (GET /taxonomy)');

export interface TaxonomyNodeOut {
  path: string;
  slug: string;
  label: string;
  depth: number;
  cases: number;
  campaigns: number;
  children: TaxonomyNodeOut[];
}

export const TaxonomyNodeSchema: z.ZodType<TaxonomyNodeOut> = z
  .object({
    path: z.string(),
    slug: z.string(),
    label: z.string(),
    depth: z.number().int(),
    cases: z.number().int().describe('cases tagged with this node or any node below it'),
    campaigns: z.number().int().describe('campaigns tagged with this node or any node below it'),
    get children() {
      return z.array(TaxonomyNodeSchema);
    },
  })
  .meta({ id: 'TaxonomyNode' });

export const TaxonomySchema = z
  .object({
    as_of: z.string(),
    nodes: z.array(TaxonomyNodeSchema),
    unclassified: z.object({ cases: z.number().int(), campaigns: z.number().int() }).describe('cases and campaigns with no (or an unknown) taxonomy path'),
  })
  .meta({ id: 'Taxonomy' });
