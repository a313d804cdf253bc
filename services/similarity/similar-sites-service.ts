// GET /investigations/ssi/{scan_id}/similar: the sites like this one, scored with their reasons,
// found through the LSH buckets in PostgreSQL (domain/similarity/similar-sites.ts).
import type { Knex } from 'knex';
import { findInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { bucketMembers, siteProfiles } from '../../db/repositories/similarity/fingerprint-repository';
import { findSimilarSites, type BucketIndex, type SimilarSite } from '../../domain/similarity/similar-sites';
import { NotFoundError } from '../errors';

export function postgresBucketIndex(knex: Knex): BucketIndex {
  return { members: (buckets, cap) => bucketMembers(knex, buckets, cap), profiles: (ids) => siteProfiles(knex, ids) };
}

export interface SimilarSitesAnswer {
  /** False while the investigation's pages have no fingerprints yet (it runs, or it captured none). */
  fingerprinted: boolean;
  items: SimilarSite[];
}

export async function similarSites(deps: { knex: Knex }, scanId: string, limit: number): Promise<SimilarSitesAnswer> {
  if (!(await findInvestigation(deps.knex, scanId))) throw new NotFoundError(`no investigation ${scanId}`);
  const [site] = await siteProfiles(deps.knex, [scanId]);
  if (!site) return { fingerprinted: false, items: [] };
  return { fingerprinted: true, items: await findSimilarSites(site, postgresBucketIndex(deps.knex), { limit }) };
}
