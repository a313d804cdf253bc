// Campaign suggestions from linked sites: the connected components of the "linked" graph (pairs
// scoring at least the link threshold), each with its score (the mean of its links) and reasons
// (how many of its links each kind of reason supports). A cluster an analyst dismissed or accepted
// is never suggested again, nor any cluster inside it: only one that adds a site comes back.
import { createHash } from 'node:crypto';
import type { ReasonKind, SimilarityReason } from './site-similarity';

export interface SiteLink {
  a: string;
  b: string;
  score: number;
  reasons: SimilarityReason[];
}

export interface SiteCluster {
  key: string;
  scanIds: string[];
  score: number;
  reasons: Array<{ kind: ReasonKind; detail: string }>;
}

export function clusterKey(scanIds: readonly string[]): string {
  return createHash('sha256').update([...scanIds].map((s) => s.toLowerCase()).sort().join(',')).digest('hex').slice(0, 40);
}

export function clusterSites(links: readonly SiteLink[]): SiteCluster[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let cur = x; parent.get(cur) !== root; ) {
      const next = parent.get(cur)!;
      parent.set(cur, root);
      cur = next;
    }
    return root;
  };
  for (const l of links) {
    if (!parent.has(l.a)) parent.set(l.a, l.a);
    if (!parent.has(l.b)) parent.set(l.b, l.b);
    const [ra, rb] = [find(l.a), find(l.b)];
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const groups = new Map<string, { scans: Set<string>; links: SiteLink[] }>();
  for (const l of links) {
    const root = find(l.a);
    const g = groups.get(root) ?? { scans: new Set<string>(), links: [] };
    g.scans.add(l.a).add(l.b);
    g.links.push(l);
    groups.set(root, g);
  }
  return [...groups.values()].map((g) => {
    const scanIds = [...g.scans].sort();
    const byKind = new Map<ReasonKind, { links: number; example: string }>();
    for (const l of g.links) {
      for (const kind of new Set(l.reasons.filter((r) => r.weight > 0).map((r) => r.kind))) {
        const entry = byKind.get(kind) ?? { links: 0, example: l.reasons.find((r) => r.kind === kind)!.detail };
        entry.links++;
        byKind.set(kind, entry);
      }
    }
    const reasons = [...byKind.entries()]
      .sort((x, y) => y[1].links - x[1].links || (x[0] < y[0] ? -1 : 1))
      .map(([kind, e]) => ({ kind, detail: `${e.links} of ${g.links.length} link(s), e.g. ${e.example}` }));
    const score = Math.round((g.links.reduce((s, l) => s + l.score, 0) / g.links.length) * 1000) / 1000;
    return { key: clusterKey(scanIds), scanIds, score, reasons };
  }).sort((x, y) => y.score - x.score || (x.key < y.key ? -1 : 1));
}

/** A cluster inside one an analyst already decided (dismissed or accepted) is not suggested again. */
export function isDecided(cluster: SiteCluster, decided: ReadonlyArray<readonly string[]>): boolean {
  return decided.some((d) => {
    const set = new Set(d.map((s) => s.toLowerCase()));
    return cluster.scanIds.every((s) => set.has(s.toLowerCase()));
  });
}
