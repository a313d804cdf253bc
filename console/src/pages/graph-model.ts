// The graph explorer's model, apart from any drawing: the answers of GET /intelligence/graph merged
// (the center's walk plus one walk per expanded node), what counts as shared infrastructure, the
// layout, and the JSON and SVG exports. Values are exactly what the API answered (masked per role).
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import type { Schema } from '../../../sdk/src';

export type ApiGraph = Schema<'IntelGraph'>;
export type GNode = ApiGraph['nodes'][number] & { infrastructure: boolean };
export type GEdge = ApiGraph['edges'][number];
export interface MergedGraph {
  seeds: string[];
  truncated: boolean;
  nodes: GNode[];
  edges: GEdge[];
}
export interface Point {
  x: number;
  y: number;
}

/** One colour per entity type (the legend shows the ones present); all readable under white text-free fills. */
export const TYPE_COLOURS: Record<string, string> = {
  wallet: '#b45309',
  domain: '#1d4ed8',
  url: '#0e7490',
  ip: '#6b7280',
  email: '#7c3aed',
  phone: '#15803d',
  bank_account: '#be123c',
  person: '#a16207',
  organization: '#0f766e',
  social_handle: '#c026d3',
};
export const colourOf = (type: string) => TYPE_COLOURS[type] ?? '#374151';

/**
 * Types that are shared infrastructure: an IP address (or an ASN, a hosting provider, if the graph
 * gains those types) is used by thousands of unrelated sites, so it joins everything and explains
 * nothing. A node the API marks `shared_infrastructure` counts too.
 */
export const INFRASTRUCTURE_TYPES = new Set(['ip', 'asn', 'hosting']);
export function isInfrastructure(n: { type: string } & Record<string, unknown>): boolean {
  return INFRASTRUCTURE_TYPES.has(n.type) || n.shared_infrastructure === true || n.sharedInfrastructure === true;
}

/** The walks merged: a node keeps the smallest depth it was reached at; an edge appears once. */
export function mergeGraphs(parts: ApiGraph[]): MergedGraph {
  const nodes = new Map<string, GNode>();
  const edges = new Map<string, GEdge>();
  for (const p of parts) {
    for (const n of p.nodes) {
      const seen = nodes.get(n.id);
      if (!seen || n.depth < seen.depth) nodes.set(n.id, { ...n, infrastructure: isInfrastructure(n as GNode & Record<string, unknown>) });
    }
    for (const e of p.edges) if (!edges.has(e.id)) edges.set(e.id, e);
  }
  return {
    seeds: parts[0]?.seeds ?? [],
    truncated: parts.some((p) => p.truncated),
    nodes: [...nodes.values()],
    edges: [...edges.values()].filter((e) => nodes.has(e.src) && nodes.has(e.dst)),
  };
}

/** What is drawn: neither hidden nor of a type filtered out; edges between drawn nodes only. */
export function visibleGraph(g: MergedGraph, opts: { hidden: Set<string>; types: Set<string> }): MergedGraph {
  const nodes = g.nodes.filter((n) => !opts.hidden.has(n.id) && (opts.types.size === 0 || opts.types.has(n.type)));
  const ids = new Set(nodes.map((n) => n.id));
  return { ...g, nodes, edges: g.edges.filter((e) => ids.has(e.src) && ids.has(e.dst)) };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0) / 4294967296;
}

/** A layout under way: ForceAtlas2 run in steps (so a page can draw first and refine after). */
export interface LayoutRun {
  /** ForceAtlas2 iterations still to run for the full layout. */
  remaining: number;
  /** Runs up to `n` more iterations. */
  step: (n: number) => void;
  /** Every node's position now (infrastructure placed beside the nodes it serves). */
  positions: () => Map<string, Point>;
}

/**
 * Where new core nodes start. A first layout is radial by the API's walk depth: the seeds in the
 * middle, each depth on a ring, each node near the angle of the node that reached it, so a few
 * ForceAtlas2 iterations already give a readable picture. Later nodes (an expansion) start beside
 * a placed neighbour; a node with none goes on the outer circle in id order.
 */
function startPositions(core: GNode[], known: Map<string, Point>, neighbours: Map<string, string[]>, radius: number): Map<string, Point> {
  const out = new Map<string, Point>();
  if (known.size === 0) {
    const angle = new Map<string, number>();
    const byDepth = new Map<number, GNode[]>();
    for (const n of core) (byDepth.get(n.depth) ?? byDepth.set(n.depth, []).get(n.depth)!).push(n);
    const depths = [...byDepth.keys()].sort((a, b) => a - b);
    const ring = radius / Math.max(1, depths[depths.length - 1] ?? 1);
    for (const d of depths) {
      const level = byDepth.get(d)!;
      const parentAngle = (n: GNode) => {
        const a = (neighbours.get(n.id) ?? []).map((m) => angle.get(m)).filter((x): x is number => x !== undefined);
        return a.length ? a[0] : hash(n.id) * 2 * Math.PI;
      };
      const keyed = level.map((n) => ({ n, a: parentAngle(n) })).sort((x, y) => x.a - y.a || (x.n.id < y.n.id ? -1 : 1));
      keyed.forEach(({ n }, i) => {
        const a = level.length === 1 && d === depths[0] ? 0 : (2 * Math.PI * (i + 0.5)) / level.length + (d % 2) * 0.1;
        angle.set(n.id, a);
        const r = d === depths[0] && level.length === 1 ? 0 : ring * (d - depths[0] + (depths[0] === 0 ? 0 : 1)) + ring * 0.15 * hash(n.id);
        out.set(n.id, { x: r * Math.cos(a), y: r * Math.sin(a) });
      });
    }
    return out;
  }
  core.forEach((n, i) => {
    const p = known.get(n.id);
    if (p) return void out.set(n.id, p);
    const near = (neighbours.get(n.id) ?? []).map((m) => known.get(m)).find(Boolean);
    const a = (2 * Math.PI * i) / Math.max(core.length, 1);
    out.set(n.id, near ? { x: near.x + (hash(n.id) - 0.5) * 20, y: near.y + (hash(`${n.id}y`) - 0.5) * 20 } : { x: radius * Math.cos(a), y: radius * Math.sin(a) });
  });
  return out;
}

/**
 * Positions for every node. ForceAtlas2 (graphology) lays out the nodes that are not shared
 * infrastructure, over the edges between them: an IP that many sites share never pulls them
 * together into one hub. Each infrastructure node is then placed beside the nodes it connects
 * (their centroid, nudged). Known positions are kept as the start (an expansion does not scramble
 * the picture); pinned nodes do not move. Deterministic. `startLayout` runs nothing yet (the
 * caller steps it); `layout` runs it to the end.
 */
export function startLayout(g: MergedGraph, known: Map<string, Point>, pinned: Set<string>): LayoutRun {
  const core = g.nodes.filter((n) => !n.infrastructure).sort((a, b) => (a.id < b.id ? -1 : 1));
  const fa = new Graph({ type: 'undirected' });
  const fresh = core.filter((n) => !known.has(n.id));
  const radius = 10 * Math.sqrt(Math.max(core.length, 1));
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const neighbours = new Map<string, string[]>();
  for (const e of g.edges) {
    (neighbours.get(e.src) ?? neighbours.set(e.src, []).get(e.src)!).push(e.dst);
    (neighbours.get(e.dst) ?? neighbours.set(e.dst, []).get(e.dst)!).push(e.src);
  }
  const starts = startPositions(core, known, neighbours, radius);
  for (const n of core) {
    const p = starts.get(n.id)!;
    fa.addNode(n.id, { x: p.x, y: p.y, fixed: pinned.has(n.id) });
  }
  for (const e of g.edges) {
    if (e.src === e.dst || !fa.hasNode(e.src) || !fa.hasNode(e.dst)) continue;
    const w = Math.log2(1 + e.weight);
    if (fa.hasEdge(e.src, e.dst)) fa.updateEdgeAttribute(e.src, e.dst, 'weight', (x: number) => x + w);
    else fa.addEdge(e.src, e.dst, { weight: w });
  }
  const settings = fa.order > 1 ? { ...forceAtlas2.inferSettings(fa), barnesHutOptimize: fa.order > 300, adjustSizes: false } : {};
  const run: LayoutRun = {
    remaining: fa.order > 1 && (fresh.length > 0 || known.size === 0) ? (known.size === 0 ? (fa.order <= 300 ? 300 : fa.order <= 1000 ? 120 : 60) : 60) : 0,
    step: (n) => {
      const k = Math.min(n, run.remaining);
      if (k <= 0) return;
      forceAtlas2.assign(fa, { iterations: k, settings });
      run.remaining -= k;
    },
    positions: () => {
      const out = new Map<string, Point>();
      fa.forEachNode((id, a) => out.set(id, { x: a.x as number, y: a.y as number }));
      // Infrastructure beside what it serves, never in the middle of it.
      let spare = 0;
      for (const n of g.nodes) {
        if (!n.infrastructure) continue;
        const kept = known.get(n.id);
        if (kept && pinned.has(n.id)) {
          out.set(n.id, kept);
          continue;
        }
        const placed = (neighbours.get(n.id) ?? []).map((m) => out.get(m)).filter((p): p is Point => Boolean(p));
        if (placed.length === 0) {
          const a = spare++ * 0.7;
          out.set(n.id, kept ?? { x: (radius + 40) * Math.cos(a), y: (radius + 40) * Math.sin(a) });
          continue;
        }
        const c = placed.reduce((s, p) => ({ x: s.x + p.x / placed.length, y: s.y + p.y / placed.length }), { x: 0, y: 0 });
        out.set(n.id, { x: c.x + (hash(n.id) - 0.5) * 30 + 15, y: c.y + (hash(`${n.id}y`) - 0.5) * 30 + 15 });
      }
      for (const n of g.nodes) if (!out.has(n.id) && byId.has(n.id)) out.set(n.id, known.get(n.id) ?? { x: 0, y: 0 });
      return out;
    },
  };
  return run;
}

/** The full layout at once (see startLayout). */
export function layout(g: MergedGraph, known: Map<string, Point>, pinned: Set<string>): Map<string, Point> {
  const run = startLayout(g, known, pinned);
  run.step(run.remaining);
  return run.positions();
}

/** The drawn graph as JSON: the API's fields as it answered them (snake_case), plus what the explorer adds. */
export function graphJson(g: MergedGraph, meta: Record<string, unknown>, pinned: Set<string>): string {
  return JSON.stringify(
    {
      ...meta,
      exported_at: new Date().toISOString(),
      seeds: g.seeds,
      truncated: g.truncated,
      nodes: g.nodes.map((n) => ({ id: n.id, type: n.type, value: n.value, display_value: n.displayValue, risk_score: n.riskScore, depth: n.depth, shared_infrastructure: n.infrastructure, pinned: pinned.has(n.id) })),
      edges: g.edges.map((e) => ({ id: e.id, src: e.src, dst: e.dst, kind: e.kind, weight: e.weight, depth: e.depth })),
    },
    null,
    2,
  );
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The drawn graph as SVG at the positions on screen, with its legend. */
export function graphSvg(g: MergedGraph, pos: Map<string, Point>, types: string[]): string {
  const pts = g.nodes.map((n) => pos.get(n.id) ?? { x: 0, y: 0 });
  const minX = Math.min(0, ...pts.map((p) => p.x)) - 40;
  const minY = Math.min(0, ...pts.map((p) => p.y)) - 40;
  const maxX = Math.max(0, ...pts.map((p) => p.x)) + 160;
  const maxY = Math.max(0, ...pts.map((p) => p.y)) + 40;
  const w = maxX - minX;
  const h = maxY - minY + 24 * (types.length + 2);
  const lines = g.edges.map((e) => {
    const a = pos.get(e.src);
    const b = pos.get(e.dst);
    if (!a || !b) return '';
    const infra = g.nodes.find((n) => n.id === e.src)?.infrastructure || g.nodes.find((n) => n.id === e.dst)?.infrastructure;
    return `<line x1="${a.x.toFixed(1)}" y1="${a.y.toFixed(1)}" x2="${b.x.toFixed(1)}" y2="${b.y.toFixed(1)}" stroke="#9ca3af" stroke-width="${(1 + Math.log2(1 + e.weight)).toFixed(1)}"${infra ? ' stroke-dasharray="4 3"' : ''}/>`;
  });
  const circles = g.nodes.map((n) => {
    const p = pos.get(n.id) ?? { x: 0, y: 0 };
    const r = n.infrastructure ? 5 : 9;
    const style = n.infrastructure ? `fill="#fff" stroke="${colourOf(n.type)}" stroke-width="2" stroke-dasharray="3 2"` : `fill="${colourOf(n.type)}"`;
    return `<g><title>${xml(`${n.type} ${n.displayValue}`)}</title><circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="${r}" ${style}/><text x="${(p.x + r + 3).toFixed(1)}" y="${(p.y + 4).toFixed(1)}" font-size="10" fill="#111827">${xml(n.displayValue)}</text></g>`;
  });
  const ly = maxY + 10;
  const legend = [...types.map((t, i) => `<circle cx="${minX + 20}" cy="${ly + 24 * i}" r="7" fill="${colourOf(t)}"/><text x="${minX + 34}" y="${ly + 24 * i + 4}" font-size="12">${xml(t)}</text>`),
    `<circle cx="${minX + 20}" cy="${ly + 24 * types.length}" r="5" fill="#fff" stroke="#6b7280" stroke-width="2" stroke-dasharray="3 2"/><text x="${minX + 34}" y="${ly + 24 * types.length + 4}" font-size="12">shared infrastructure</text>`];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="${minX.toFixed(1)} ${minY.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}" width="${Math.round(w)}" height="${Math.round(h)}" font-family="sans-serif"><rect x="${minX}" y="${minY}" width="${w}" height="${h}" fill="#fff"/>${lines.join('')}${circles.join('')}${legend.join('')}</svg>\n`;
}
