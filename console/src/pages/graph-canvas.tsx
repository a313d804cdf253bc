// The graph drawn with Cytoscape.js (canvas; pan with a drag, zoom with the wheel, drag a node to
// move it, click to select, double-click to expand). Positions come from graph-model.ts's layout
// (the "preset" layout here), so infrastructure never becomes the hub. The canvas is for the eye:
// everything it offers is also on the page's list of nodes, by keyboard.
import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { colourOf, layout, startLayout, type LayoutRun, type MergedGraph, type Point } from './graph-model';

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
      'font-size': 10,
      color: '#111827',
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'min-zoomed-font-size': 7,
    },
  },
  { selector: 'node.seed', style: { 'border-width': 3, 'border-color': '#111827' } },
  { selector: 'node.infra', style: { 'background-color': '#ffffff', 'border-width': 2, 'border-style': 'dashed', 'border-color': 'data(colour)', shape: 'diamond', color: '#4b5563' } },
  { selector: 'node.pinned', style: { 'outline-width': 2, 'outline-color': '#f59e0b', 'outline-offset': 2 } },
  { selector: 'node:selected', style: { label: 'data(label)' } },
  { selector: 'node:selected', style: { 'overlay-color': '#2563eb', 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
  { selector: 'edge', style: { width: 'data(width)', 'line-color': '#9ca3af', 'curve-style': 'haystack', opacity: 0.8 } },
  { selector: 'edge.infra', style: { 'line-style': 'dashed', 'line-color': '#d1d5db' } },
];

/** The same with every node's label: used once labels are readable (see labelsAt). */
const STYLE_LABELLED: cytoscape.StylesheetJson = [STYLE[0], { selector: 'node', style: { label: 'data(label)' } }, ...STYLE.slice(1)];

/**
 * The zoom from which nodes carry labels (the selected node always does). A large graph fitted in
 * view draws hundreds of overlapping labels no one can read, and measuring and drawing them was
 * most of its first frame; small graphs keep them from Cytoscape's own minimum (7 px text).
 */
const labelsAt = (nodes: number) => (nodes > 150 ? 1 : 0);

/**
 * Fits the graph in view, never zooming a small graph in beyond its natural size. The box is the
 * nodes' positions (plus their size), not Cytoscape's bounding box with labels, whose measure of
 * every label cost ~180 ms at 500 nodes.
 */
function fit(c: Core): void {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  c.nodes().forEach((n) => {
    const p = n.position();
    const r = (Number(n.data('size')) || 18) / 2;
    minX = Math.min(minX, p.x - r);
    minY = Math.min(minY, p.y - r);
    maxX = Math.max(maxX, p.x + r);
    maxY = Math.max(maxY, p.y + r);
  });
  if (!Number.isFinite(minX)) return;
  const pad = 30;
  const w = Math.max(1, c.width() - 2 * pad);
  const h = Math.max(1, c.height() - 2 * pad);
  const zoom = Math.max(c.minZoom(), Math.min(1.2, w / Math.max(1, maxX - minX), h / Math.max(1, maxY - minY)));
  c.viewport({ zoom, pan: { x: c.width() / 2 - zoom * (minX + maxX) / 2, y: c.height() / 2 - zoom * (minY + maxY) / 2 } });
}

/** A label cut to ~160 px here, once, rather than by Cytoscape's ellipsis (a text measure per character). */
const short = (v: string) => (v.length > 28 ? `${v.slice(0, 27)}…` : v);

/** Milliseconds of ForceAtlas2 before the first drawing, and per slice of the refinement after it. */
const FIRST_LAYOUT_MS = 40;
const SLICE_MS = 25;

/** Runs ForceAtlas2 steps until `ms` have passed or the layout is done (a step: ~2 ms of work or one iteration). */
function stepFor(run: LayoutRun, ms: number, order: number): void {
  const per = Math.max(1, Math.round(1500 / Math.max(order, 1)));
  const until = performance.now() + ms;
  while (run.remaining > 0 && performance.now() < until) run.step(per);
}

/**
 * Pixels per layout unit: an average edge about 90 px long, and at least ~40×40 px of the
 * picture per node (a hub's hundreds of neighbours are one edge away each: by edge length alone
 * they would pile up on a 90 px ring).
 */
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
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const node of graph.nodes) {
    const p = pos.get(node.id);
    if (!p) continue;
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  const area = (maxX - minX) * (maxY - minY);
  const dense = area > 0 ? Math.sqrt((graph.nodes.length * 40 * 40) / area) : 0;
  const avg = n ? sum / n : 0;
  return avg > 0 ? Math.min(200, Math.max(0.2, 90 / avg, dense)) : 1;
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
  const labelled = useRef(false);
  const showLabels = (c: Core) => {
    const on = c.zoom() >= labelsAt(c.nodes().length);
    if (on === labelled.current) return;
    labelled.current = on;
    c.style(on ? STYLE_LABELLED : STYLE);
  };
  const cb = useRef({ onSelect, onExpand });
  cb.current = { onSelect, onExpand };

  useEffect(() => {
    const c = cytoscape({ container: box.current, style: STYLE, wheelSensitivity: 0.3, textureOnViewport: true, hideEdgesOnViewport: false, minZoom: 0.05, maxZoom: 6 });
    c.on('tap', 'node', (e) => cb.current.onSelect(e.target.id()));
    c.on('tap', (e) => {
      if (e.target === c) cb.current.onSelect(null);
    });
    c.on('dbltap', 'node', (e) => cb.current.onExpand(e.target.id()));
    c.on('zoom', () => showLabels(c));
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
    const t0 = performance.now();
    // A few ForceAtlas2 iterations from a radial start, drawn at once; the rest run in slices
    // after (the page stays interactive) and move the nodes once, when the layout is done.
    let run: LayoutRun | null = null;
    if (graph.nodes.some((n) => !pos.current.has(n.id))) {
      run = startLayout(graph, pos.current, pinned);
      stepFor(run, FIRST_LAYOUT_MS, graph.nodes.length);
      pos.current = new Map([...pos.current, ...run.positions()]);
    }
    const t1 = performance.now();
    performance.measure('graph:layout', { start: t0, end: t1 });
    if (!scale.current) scale.current = screenScale(graph, pos.current);
    const at = (id: string) => {
      const p = pos.current.get(id) ?? { x: 0, y: 0 };
      return { x: p.x * scale.current, y: p.y * scale.current };
    };
    const els: ElementDefinition[] = [
      ...graph.nodes.map((n) => ({
        group: 'nodes' as const,
        data: { id: n.id, label: short(n.displayValue), colour: colourOf(n.type), size: n.infrastructure ? 12 : 18 + Math.round(((n.riskScore ?? 0) / 100) * 14) },
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
    const t2 = performance.now();
    performance.measure('graph:elements', { start: t1, end: t2 });
    if (first) fit(c);
    showLabels(c);
    performance.measure('graph:fit', { start: t2, end: performance.now() });
    c.one('render', () => performance.measure('graph:first-render', { start: t2, end: performance.now() }));
    if (!run || run.remaining === 0) return;
    const refine = run;
    const dragged = new Set<string>();
    const onDrag = (e: cytoscape.EventObject) => void dragged.add(e.target.id());
    c.on('grab', 'node', onDrag);
    let timer = 0;
    let cancelled = false;
    const slice = () => {
      stepFor(refine, SLICE_MS, graph.nodes.length);
      if (refine.remaining > 0) {
        timer = window.setTimeout(slice, 0);
        return;
      }
      c.off('grab', 'node', onDrag);
      const done = refine.positions();
      // A first layout sets the scale again (ForceAtlas2 spreads as it goes) and fits anew.
      if (first) {
        scale.current = screenScale(graph, done);
        for (const id of dragged) {
          const p = c.getElementById(id).position();
          done.set(id, { x: p.x / scale.current, y: p.y / scale.current });
        }
      }
      c.batch(() => {
        for (const [id, p] of done) {
          if (!first && (dragged.has(id) || pinned.has(id))) continue;
          pos.current.set(id, p);
          c.getElementById(id).position({ x: p.x * scale.current, y: p.y * scale.current });
        }
      });
      if (first) fit(c);
      showLabels(c);
      performance.measure('graph:refined', { start: t0, end: performance.now() });
    };
    // After the first frame: the picture comes first.
    c.one('render', () => {
      if (!cancelled) timer = window.setTimeout(slice, 0);
    });
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      c.off('grab', 'node', onDrag);
    };
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
