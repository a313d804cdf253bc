// The graph as a picture (GET /intelligence/graph.png): a deterministic ForceAtlas2 layout
// (graphology; initial positions on a circle in id order, so the same graph always lands the same
// way) drawn as SVG: nodes coloured per entity type with a legend, labels, edge weight as stroke
// width. Pure: rasterizing the SVG is services/intelligence/graph-png.ts.
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import { GRAPH_ENTITY_TYPES, type GraphEntityType } from './entity-types';

export interface PictureNode {
  id: string;
  type: GraphEntityType;
  label: string;
  depth: number;
}

export interface PictureEdge {
  src: string;
  dst: string;
  weight: number;
}

/**
 * A colour per entity type from Tableau 10, a palette made for telling categories apart (person in
 * dark grey instead of its light grey, which sat close to ip's purple): related types no longer
 * share a hue in two shades (email and phone were both green, domain and url both blue), which
 * read as one type in a printed report.
 */
export const ENTITY_TYPE_COLOURS: Record<GraphEntityType, string> = {
  wallet: '#f28e2b',
  domain: '#4e79a7',
  url: '#76b7b2',
  ip: '#b07aa1',
  email: '#59a14f',
  phone: '#ff9da7',
  bank_account: '#e15759',
  person: '#555555',
  organization: '#9c755f',
  social_handle: '#edc948',
};

export const LAYOUT_ITERATIONS = 150;

/** Node positions in layout space, deterministic for a given set of nodes and edges. */
export function layoutGraph(nodes: readonly PictureNode[], edges: readonly PictureEdge[]): Map<string, { x: number; y: number }> {
  const graph = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  const ordered = [...nodes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  ordered.forEach((n, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, ordered.length);
    graph.addNode(n.id, { x: 100 * Math.cos(angle), y: 100 * Math.sin(angle), size: 1 });
  });
  const sortedEdges = [...edges].sort((a, b) => (a.src + a.dst < b.src + b.dst ? -1 : 1));
  for (const e of sortedEdges) {
    if (e.src === e.dst || !graph.hasNode(e.src) || !graph.hasNode(e.dst)) continue;
    if (graph.hasEdge(e.src, e.dst)) {
      graph.updateEdgeAttribute(e.src, e.dst, 'weight', (w: number | undefined) => (w ?? 0) + e.weight);
    } else {
      graph.addEdge(e.src, e.dst, { weight: e.weight });
    }
  }
  if (graph.order > 1) {
    forceAtlas2.assign(graph, {
      iterations: LAYOUT_ITERATIONS,
      getEdgeWeight: 'weight',
      settings: { ...forceAtlas2.inferSettings(graph), edgeWeightInfluence: 0.5, barnesHutOptimize: false },
    });
  }
  const out = new Map<string, { x: number; y: number }>();
  graph.forEachNode((id, a) => out.set(id, { x: a.x as number, y: a.y as number }));
  return out;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The SVG of the laid-out graph: `width` × `height` pixels, a white background, a legend of the types present. */
export function graphSvg(nodes: readonly PictureNode[], edges: readonly PictureEdge[], size: { width: number; height: number }): string {
  const { width, height } = size;
  const legendHeight = 28;
  const margin = 60;
  const pos = layoutGraph(nodes, edges);
  const xs = [...pos.values()].map((p) => p.x);
  const ys = [...pos.values()].map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs, 0), Math.max(...xs, 0), Math.min(...ys, 0), Math.max(...ys, 0)];
  const scale = Math.min((width - 2 * margin) / Math.max(maxX - minX, 1e-9), (height - 2 * margin - legendHeight) / Math.max(maxY - minY, 1e-9));
  const px = (id: string) => {
    const p = pos.get(id)!;
    const s = Number.isFinite(scale) && maxX > minX ? scale : 0;
    return {
      x: s ? margin + (p.x - minX) * s : width / 2,
      y: s ? legendHeight + margin + (p.y - minY) * s : (height + legendHeight) / 2,
    };
  };
  const maxWeight = Math.max(1, ...edges.map((e) => e.weight));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  for (const e of edges) {
    if (!pos.has(e.src) || !pos.has(e.dst)) continue;
    const a = px(e.src);
    const b = px(e.dst);
    const w = (1 + (5 * e.weight) / maxWeight).toFixed(2);
    parts.push(`<line x1="${a.x.toFixed(1)}" y1="${a.y.toFixed(1)}" x2="${b.x.toFixed(1)}" y2="${b.y.toFixed(1)}" stroke="#888888" stroke-opacity="0.7" stroke-width="${w}"/>`);
  }
  const showLabels = nodes.length <= 150;
  for (const n of nodes) {
    const p = px(n.id);
    const r = n.depth === 0 ? 9 : 6;
    parts.push(`<circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="${r}" fill="${ENTITY_TYPE_COLOURS[n.type]}" stroke="#222222" stroke-width="${n.depth === 0 ? 2 : 0.8}"/>`);
    if (showLabels || n.depth === 0) {
      parts.push(`<text x="${(p.x + r + 3).toFixed(1)}" y="${(p.y + 4).toFixed(1)}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11" fill="#111111">${escapeXml(truncate(n.label, 40))}</text>`);
    }
  }
  const present = GRAPH_ENTITY_TYPES.filter((t) => nodes.some((n) => n.type === t));
  let x = 10;
  for (const t of present) {
    parts.push(`<rect x="${x}" y="8" width="12" height="12" fill="${ENTITY_TYPE_COLOURS[t]}"/>`);
    parts.push(`<text x="${x + 16}" y="18" font-family="DejaVu Sans, Arial, sans-serif" font-size="12" fill="#111111">${t}</text>`);
    x += 24 + t.length * 7.5;
  }
  parts.push('</svg>');
  return parts.join('\n');
}
