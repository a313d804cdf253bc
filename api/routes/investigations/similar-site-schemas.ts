// Schemas of GET /investigations/ssi/{scan_id}/similar.
import { z } from 'zod';

export const SimilarQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('How many sites at most (1-200, default 50)'),
});
export type SimilarQueryT = z.infer<typeof SimilarQuery>;

export const SimilarityReasonSchema = z.object({
  kind: z.enum(['kit', 'dom', 'assets', 'favicon', 'screenshot', 'shared_wallet', 'shared_contact', 'infrastructure']),
  detail: z.string(),
  weight: z.number().min(0).max(1).describe("This reason's contribution to the score; 0 for shared infrastructure on a warning list"),
  shared_infrastructure: z.boolean().optional().describe('The shared value is infrastructure many unrelated sites share (CDN, hosting, loopback, public mail, ...): shown, never a link'),
});

export const SimilarSitesSchema = z.object({
  fingerprinted: z.boolean().describe('False while this investigation has no fingerprints yet (running, or no page captured)'),
  link_threshold: z.number().describe('A score at or above this claims the two sites are linked; below it a site is a lead'),
  items: z.array(z.object({
    scan_id: z.string().uuid(),
    score: z.number().min(0).max(1),
    linked: z.boolean().describe('score >= link_threshold'),
    reasons: z.array(SimilarityReasonSchema),
  })),
});
