// The graph drawn with Cytoscape.js (canvas; pan with a drag, zoom with the wheel, drag a node to
// move it, click to select, double-click to expand). Positions come from graph-model.ts's layout
// (the "preset" layout here), so infrastructure never becomes the hub. The canvas is for the eye:
// everything it offers is also on the page's list of nodes, by keyboard.
import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { colourOf, layout, type MergedGraph, type Point } from './graph-model';

export interface CanvasHandle {
  fit: () => void;
  zoom: (factor: number) => void;
  relayout: () => void;
  png: () => Promise<Blob>;
  positions: () => Map<string, Point>;
}

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      'background-color': 'data(colour)',
      width: 'data(size)',
      height: 'data(size)',
      label: 'data(label)',
      'font-size': 10,
      color: '#111827',
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'min-zoomed-font-size': 7,
      'text-max-width': '160px',
      'text-wrap': 'ellipsis',
    },
  },
  { selector: 'node.seed', style: { 'border-width': 3, 'border-color': '#111827' } },
  { selector: 'node.infra', style: { 'background-color': '#ffffff', 'border-width': 2, 'border-style': 'dashed', 'border-color': 'data(colour)', shape: 'diamond', color: '#4b5563' } },
  { selector: 'node.pinned', style: { 'outline-width': 2, 'outline-color': '#f59e0b', 'outline-offset': 2 } },
  { selector: 'node:selected', style: { 'overlay-color': '#2563eb', 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
  { selector: 'edge', style: { width: 'data(width)', 'line-color': '#9ca3af', 'curve-style': 'haystack', opacity: 0.8 } },
  { selector: 'edge.infra', style: { 'line-style': 'dashed', 'line-color': '#d1d5db' } },
];

/** Fits the graph in view, never zooming a small graph in beyond its natural size. */
function fit(c: Core): void {
  c.fit(undefined, 30);
  if (c.zoom() > 1.2) {
    c.zoom(1.2);
    c.center();
  }
}

/** Pixels per layout unit: an average edge about 90 px long. */
function screenScale(graph: MergedGraph, pos: Map<string, Point>): number {
  let sum = 0;
  let n = 0;
  for (const e of graph.edges) {
    const a = pos.get(e.src);
    const b = pos.get(e.dst);
    if (!a || !b || e.src === e.dst) continue;
    sum += Math.hypot(a.x - b.x, a.y - b.y);
    n++;
  }
  const avg = n ? sum / n : 0;
  return avg > 0 ? Math.min(200, Math.max(0.2, 90 / avg)) : 1;
}

export function GraphCanvas({ graph, seeds, pinned, selected, onSelect, onExpand, label, handle }: {
  graph: MergedGraph;
  seeds: Set<string>;
  pinned: Set<string>;
  selected: string | null;
  onSelect: (id: string | null) => void;
  onExpand: (id: string) => void;
  label: string;
  handle: Ref<CanvasHandle>;
}) {
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | null>(null);
  // Positions in the layout's own units; `scale` turns them into screen pixels (set by the first
  // layout so an average edge is about 90 px long, whatever ForceAtlas2's scale for this graph).
  const pos = useRef(new Map<string, Point>());
  const scale = useRef(0);
  const cb = useRef({ onSelect, onExpand });
  cb.current = { onSelect, onExpand };

  useEffect(() => {
    const c = cytoscape({ container: box.current, style: STYLE, wheelSensitivity: 0.3, textureOnViewport: true, hideEdgesOnViewport: false, minZoom: 0.05, maxZoom: 6 });
    c.on('tap', 'node', (e) => cb.current.onSelect(e.target.id()));
    c.on('tap', (e) => {
      if (e.target === c) cb.current.onSelect(null);
    });
    c.on('dbltap', 'node', (e) => cb.current.onExpand(e.target.id()));
    c.on('dragfree', 'node', (e) => {
      const p = e.target.position();
      pos.current.set(e.target.id(), { x: p.x / (scale.current || 1), y: p.y / (scale.current || 1) });
    });
    cy.current = c;
    return () => {
      c.destroy();
      cy.current = null;
    };
  }, []);

  // The elements follow the graph; a layout runs when nodes without a position arrive.
  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    const infra = new Set(graph.nodes.filter((n) => n.infrastructure).map((n) => n.id));
    const first = pos.current.size === 0;
    if (graph.nodes.some((n) => !pos.current.has(n.id))) pos.current = new Map([...pos.current, ...layout(graph, pos.current, pinned)]);
    if (!scale.current) scale.current = screenScale(graph, pos.current);
    const at = (id: string) => {
      const p = pos.current.get(id) ?? { x: 0, y: 0 };
      return { x: p.x * scale.current, y: p.y * scale.current };
    };
    const els: ElementDefinition[] = [
      ...graph.nodes.map((n) => ({
        group: 'nodes' as const,
        data: { id: n.id, label: n.displayValue, colour: colourOf(n.type), size: n.infrastructure ? 12 : 18 + Math.round(((n.riskScore ?? 0) / 100) * 14) },
        position: at(n.id),
        classes: [n.infrastructure ? 'infra' : '', seeds.has(n.id) ? 'seed' : '', pinned.has(n.id) ? 'pinned' : ''].filter(Boolean).join(' '),
        locked: pinned.has(n.id),
      })),
      ...graph.edges.map((e) => ({
        group: 'edges' as const,
        data: { id: e.id, source: e.src, target: e.dst, width: 1 + Math.log2(1 + e.weight) },
        classes: infra.has(e.src) || infra.has(e.dst) ? 'infra' : '',
      })),
    ];
    c.batch(() => {
      c.elements().remove();
      c.add(els);
    });
    if (first) fit(c);
  }, [graph, seeds, pinned]);

  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    c.nodes(':selected').unselect();
    if (selected) c.getElementById(selected).select();
  }, [selected, graph]);

  useImperativeHandle(handle, () => ({
    fit: () => {
      if (cy.current) fit(cy.current);
    },
    zoom: (f) => {
      const c = cy.current;
      if (c) c.zoom({ level: c.zoom() * f, renderedPosition: { x: c.width() / 2, y: c.height() / 2 } });
    },
    relayout: () => {
      const c = cy.current;
      if (!c) return;
      const kept = new Map([...pos.current].filter(([id]) => pinned.has(id)));
      pos.current = layout(graph, kept, pinned);
      c.batch(() => c.nodes().forEach((n) => {
        const p = pos.current.get(n.id());
        if (p && !pinned.has(n.id())) n.position({ x: p.x * scale.current, y: p.y * scale.current });
      }));
      fit(c);
    },
    png: () => cy.current!.png({ output: 'blob-promise', full: true, bg: '#ffffff', scale: 2, maxWidth: 4000, maxHeight: 4000 }),
    positions: () => {
      const m = new Map<string, Point>();
      cy.current?.nodes().forEach((n) => {
        m.set(n.id(), { ...n.position() });
      });
      return m;
    },
  }), [graph, pinned]);

  return <div ref={box} className="graph-canvas" role="img" aria-label={label} data-testid="graph-canvas" data-nodes={graph.nodes.length} data-edges={graph.edges.length} />;
}
