// The similarity activities: fingerprint an investigation's captured pages (after its capture, from
// what was stored; services/similarity/fingerprint-service.ts), write its links to similar sites,
// alert when the kit of a taken-down site or of a campaign member is on a new domain (services/similarity/kit-on-new-domain.ts),
// and recompute the campaign suggestions (services/similarity/suggestion-service.ts). Idempotent:
// a retry rewrites the same rows.
import type { Knex } from 'knex';
import type { BlobStore } from '../../infra/blob-store';
import { fingerprintInvestigation } from '../../services/similarity/fingerprint-service';
import { linkScan, recomputeSuggestions } from '../../services/similarity/suggestion-service';
import { alertKitOnNewDomain } from '../../services/similarity/kit-on-new-domain';

export function createSimilarityActivities(deps: { knex: Knex; blobs: BlobStore }) {
  return {
    /** Fingerprints the scan's pages, then links it to the sites it is linked to. */
    async fingerprintInvestigation(input: { scanId: string }): Promise<{ pages: number; buckets: number; linked: number }> {
      const done = await fingerprintInvestigation(deps, input.scanId);
      const linked = await linkScan(deps, input.scanId);
      // The kit of a taken-down site or of a campaign's member on a new domain alerts (once per site).
      await alertKitOnNewDomain(deps, input.scanId, linked);
      return { ...done, linked: linked.length };
    },
    async recomputeCampaignSuggestions(): Promise<{ open: number }> {
      return recomputeSuggestions(deps);
    },
  };
}
