// The similarity activities: fingerprint an investigation's captured pages (after its capture, from
// what was stored; services/similarity/fingerprint-service.ts), write its links to similar sites,
// and recompute the campaign suggestions (services/similarity/suggestion-service.ts). Idempotent:
// a retry rewrites the same rows.
import type { Knex } from 'knex';
import type { BlobStore } from '../../infra/blob-store';
import { fingerprintInvestigation } from '../../services/similarity/fingerprint-service';
import { linkScan, recomputeSuggestions } from '../../services/similarity/suggestion-service';

export function createSimilarityActivities(deps: { knex: Knex; blobs: BlobStore }) {
  return {
    /** Fingerprints the scan's pages, then links it to the sites it is linked to. */
    async fingerprintInvestigation(input: { scanId: string }): Promise<{ pages: number; buckets: number; linked: number }> {
      const done = await fingerprintInvestigation(deps, input.scanId);
      return { ...done, linked: await linkScan(deps, input.scanId) };
    },
    async recomputeCampaignSuggestions(): Promise<{ open: number }> {
      return recomputeSuggestions(deps);
    },
  };
}
