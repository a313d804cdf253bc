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

/**
 * Positions for every node. ForceAtlas2 (graphology) lays out the nodes that are not shared
 * infrastructure, over the edges between them: an IP that many sites share never pulls them
 * together into one hub. Each infrastructure node is then placed beside the nodes it connects
 * (their centroid, nudged). Known positions are kept as the start (an expansion does not scramble
 * the picture); pinned nodes do not move. Deterministic: new nodes start on a circle in id order.
 */
export function layout(g: MergedGraph, known: Map<string, Point>, pinned: Set<string>): Map<string, Point> {
  const out = new Map<string, Point>();
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
  core.forEach((n, i) => {
    let p = known.get(n.id);
    if (!p) {
      // A new node starts beside a placed neighbour when it has one, else on the circle.
      const near = (neighbours.get(n.id) ?? []).map((m) => known.get(m)).find(Boolean);
      const a = (2 * Math.PI * i) / Math.max(core.length, 1);
      p = near ? { x: near.x + (hash(n.id) - 0.5) * 20, y: near.y + (hash(`${n.id}y`) - 0.5) * 20 } : { x: radius * Math.cos(a), y: radius * Math.sin(a) };
    }
    fa.addNode(n.id, { x: p.x, y: p.y, fixed: pinned.has(n.id) });
  });
  for (const e of g.edges) {
    if (e.src === e.dst || !fa.hasNode(e.src) || !fa.hasNode(e.dst)) continue;
    const w = Math.log2(1 + e.weight);
    if (fa.hasEdge(e.src, e.dst)) fa.updateEdgeAttribute(e.src, e.dst, 'weight', (x: number) => x + w);
    else fa.addEdge(e.src, e.dst, { weight: w });
  }
  if (fa.order > 1 && (fresh.length > 0 || known.size === 0)) {
    const iterations = known.size === 0 ? (fa.order <= 300 ? 300 : fa.order <= 1000 ? 120 : 60) : 60;
    forceAtlas2.assign(fa, { iterations, settings: { ...forceAtlas2.inferSettings(fa), barnesHutOptimize: fa.order > 300, adjustSizes: false } });
  }
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
