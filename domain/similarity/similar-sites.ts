// The similar-sites query over an LSH index: the site's buckets name the candidates (sites sharing
// a DOM band, a text band, a file, a favicon, a wallet, ...), the candidates sharing the most
// buckets are scored in full, and only those scoring above zero are answered. A bucket holding more
// than `commonBucket` sites is a common value (a public library, a kit-wide default) and is left
// out of both the candidates and the score. The index itself (PostgreSQL, or memory in the bench)
// is the caller's.
import { assetOfBucket, compareSites, siteBuckets, type SimilarityReason, type SiteProfile } from './site-similarity';

export interface BucketIndex {
  /** Each bucket's sites, at most `cap` + 1 of them (more means common). */
  members(buckets: readonly string[], cap: number): Promise<Map<string, string[]>>;
  profiles(scanIds: readonly string[]): Promise<SiteProfile[]>;
}

export interface SimilarSite {
  scanId: string;
  score: number;
  reasons: SimilarityReason[];
}

export interface SimilarOptions {
  commonBucket?: number;
  /** How many candidates are scored in full. */
  candidates?: number;
  limit?: number;
}

export async function findSimilarSites(site: SiteProfile, index: BucketIndex, opts: SimilarOptions = {}): Promise<SimilarSite[]> {
  const cap = opts.commonBucket ?? 500;
  const buckets = siteBuckets(site);
  const members = await index.members(buckets, cap);
  const common = new Set<string>();
  const shared = new Map<string, number>();
  for (const [bucket, scans] of members) {
    if (scans.length > cap) {
      const asset = assetOfBucket(bucket);
      if (asset) common.add(asset);
      continue;
    }
    for (const s of scans) if (s !== site.scanId) shared.set(s, (shared.get(s) ?? 0) + 1);
  }
  const top = [...shared.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, opts.candidates ?? 200).map(([s]) => s);
  const profiles = await index.profiles(top);
  return profiles
    .map((p) => ({ scanId: p.scanId, ...compareSites(site, p, common) }))
    .filter((r) => r.score > 0)
    .sort((x, y) => y.score - x.score || (x.scanId < y.scanId ? -1 : 1))
    .slice(0, opts.limit ?? 50);
}

/** Brute force, for the benchmark's comparison: every site scored. */
export function bruteForceSimilar(site: SiteProfile, all: Iterable<SiteProfile>, limit = 50): SimilarSite[] {
  const out: SimilarSite[] = [];
  for (const p of all) {
    if (p.scanId === site.scanId) continue;
    const r = compareSites(site, p);
    if (r.score > 0) out.push({ scanId: p.scanId, ...r });
  }
  return out.sort((x, y) => y.score - x.score || (x.scanId < y.scanId ? -1 : 1)).slice(0, limit);
}
