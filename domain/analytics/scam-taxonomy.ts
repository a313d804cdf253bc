// The scam taxonomy: one documented tree of scam types. A case or campaign names a node by its path
// (`investment/crypto/pig-butchering`, or a coarser `impersonation`). Pure: validation, counts rolled
// up to the parents, and the Sankey flow of the tree.

export interface TaxonomyNodeDef {
  slug: string;
  label: string;
  children?: readonly TaxonomyNodeDef[];
}

/** The tree (slugs are lower-case, [a-z0-9-]). Extending it is safe; renaming a slug orphans stored paths. */
export const SCAM_TAXONOMY: readonly TaxonomyNodeDef[] = [
  {
    slug: 'investment',
    label: 'Investment fraud',
    children: [
      {
        slug: 'crypto',
        label: 'Crypto investment',
        children: [
          { slug: 'pig-butchering', label: 'Pig butchering' },
          { slug: 'fake-exchange', label: 'Fake exchange or trading app' },
          { slug: 'mining-pool', label: 'Fake mining or staking pool' },
        ],
      },
      { slug: 'forex', label: 'Forex and binary options' },
      { slug: 'ponzi', label: 'Ponzi and pyramid schemes' },
    ],
  },
  { slug: 'romance', label: 'Romance scam' },
  {
    slug: 'impersonation',
    label: 'Impersonation',
    children: [
      { slug: 'government', label: 'Government or police' },
      { slug: 'bank', label: 'Bank' },
      { slug: 'tech-support', label: 'Tech support' },
      { slug: 'family', label: 'Family member in distress' },
    ],
  },
  {
    slug: 'shopping',
    label: 'Online shopping',
    children: [
      { slug: 'fake-store', label: 'Fake web shop' },
      { slug: 'non-delivery', label: 'Marketplace non-delivery' },
    ],
  },
  {
    slug: 'employment',
    label: 'Employment',
    children: [
      { slug: 'task-scam', label: 'Task or click-farm job' },
      { slug: 'fake-job', label: 'Fake job offer' },
    ],
  },
  { slug: 'sextortion', label: 'Sextortion' },
  {
    slug: 'advance-fee',
    label: 'Advance fee',
    children: [
      { slug: 'lottery', label: 'Lottery or prize' },
      { slug: 'inheritance', label: 'Inheritance' },
      { slug: 'recovery', label: 'Fund recovery (scammed twice)' },
    ],
  },
  {
    slug: 'phishing',
    label: 'Phishing',
    children: [
      { slug: 'credential', label: 'Credential phishing' },
      { slug: 'smishing', label: 'SMS phishing' },
    ],
  },
];

/** The bucket of cases and campaigns without a (known) taxonomy path. */
export const UNCLASSIFIED = 'unclassified';

export interface TaxonomyEntry {
  path: string;
  slug: string;
  label: string;
  depth: number;
  parent: string | null;
}

function flatten(nodes: readonly TaxonomyNodeDef[], parent: string | null, depth: number, out: TaxonomyEntry[]): TaxonomyEntry[] {
  for (const n of nodes) {
    const path = parent ? `${parent}/${n.slug}` : n.slug;
    out.push({ path, slug: n.slug, label: n.label, depth, parent });
    if (n.children) flatten(n.children, path, depth + 1, out);
  }
  return out;
}

/** Every node, parents before children (depth-first, in tree order). */
export const TAXONOMY_ENTRIES: readonly TaxonomyEntry[] = flatten(SCAM_TAXONOMY, null, 1, []);
const BY_PATH = new Map(TAXONOMY_ENTRIES.map((e) => [e.path, e]));

export function isTaxonomyPath(path: string): boolean {
  return BY_PATH.has(path);
}

export function taxonomyEntry(path: string): TaxonomyEntry | undefined {
  return BY_PATH.get(path);
}

/** The path and all its ancestors (`a/b/c` -> [`a`, `a/b`, `a/b/c`]); an unknown path -> [unclassified]. */
export function taxonomyLineage(path: string | null | undefined): string[] {
  if (!path || !BY_PATH.has(path)) return [UNCLASSIFIED];
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

export interface TaxonomyCountsInput {
  taxonomy: string;
  cases: number;
  campaigns: number;
}

export interface TaxonomyTreeNode {
  path: string;
  slug: string;
  label: string;
  depth: number;
  /** Cases tagged with this node or any node below it. */
  cases: number;
  campaigns: number;
  children: TaxonomyTreeNode[];
}

/** Per-path counts rolled up to every ancestor; unknown or empty paths count as `unclassified`. */
export function rollUpCounts<K extends string>(rows: ReadonlyArray<{ taxonomy: string | null } & Record<K, number>>, keys: readonly K[]): Map<string, Record<K, number>> {
  const totals = new Map<string, Record<K, number>>();
  for (const row of rows) {
    for (const p of taxonomyLineage(row.taxonomy)) {
      const t = totals.get(p) ?? (Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>);
      for (const k of keys) t[k] = t[k] + Number(row[k]);
      totals.set(p, t);
    }
  }
  return totals;
}

/** The whole tree with rolled-up counts (every node, zero counts included) and the unclassified bucket. */
export function taxonomyTree(rows: TaxonomyCountsInput[]): { nodes: TaxonomyTreeNode[]; unclassified: { cases: number; campaigns: number } } {
  const totals = rollUpCounts(rows, ['cases', 'campaigns']);
  const build = (defs: readonly TaxonomyNodeDef[], parent: string | null, depth: number): TaxonomyTreeNode[] =>
    defs.map((d) => {
      const path = parent ? `${parent}/${d.slug}` : d.slug;
      const t = totals.get(path);
      return { path, slug: d.slug, label: d.label, depth, cases: t?.cases ?? 0, campaigns: t?.campaigns ?? 0, children: build(d.children ?? [], path, depth + 1) };
    });
  const u = totals.get(UNCLASSIFIED);
  return { nodes: build(SCAM_TAXONOMY, null, 1), unclassified: { cases: u?.cases ?? 0, campaigns: u?.campaigns ?? 0 } };
}

export interface SankeyGraph {
  nodes: Array<{ id: string; name: string; depth: number }>;
  links: Array<{ source: string; target: string; value: number }>;
}

/** Root `all` -> top-level nodes -> ... -> leaves, each link the rolled-up case count of its target; zero flows left out. */
export function taxonomySankey(rows: Array<{ taxonomy: string | null; cases: number }>): SankeyGraph {
  const totals = rollUpCounts(rows, ['cases']);
  const count = (p: string) => totals.get(p)?.cases ?? 0;
  const all = rows.reduce((s, r) => s + Number(r.cases), 0);
  const nodes: SankeyGraph['nodes'] = [{ id: 'all', name: 'All cases', depth: 0 }];
  const links: SankeyGraph['links'] = [];
  if (all === 0) return { nodes, links };
  for (const e of TAXONOMY_ENTRIES) {
    const value = count(e.path);
    if (value === 0) continue;
    nodes.push({ id: e.path, name: e.label, depth: e.depth });
    links.push({ source: e.parent ?? 'all', target: e.path, value });
  }
  const unclassified = count(UNCLASSIFIED);
  if (unclassified > 0) {
    nodes.push({ id: UNCLASSIFIED, name: 'Unclassified', depth: 1 });
    links.push({ source: 'all', target: UNCLASSIFIED, value: unclassified });
  }
  return { nodes, links };
}
