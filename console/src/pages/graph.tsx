// The graph explorer (/console/graph?seed=<entity id or type:value>&depth=2...): the relationship
// graph of GET /intelligence/graph around a center entity, drawn with Cytoscape.js; expand a node
// (one more walk from it), filter by entity type, depth, edge weight and kind, pin and hide nodes,
// export PNG, SVG and JSON. Every choice is in the query string (seed, depth, max, min_weight,
// kinds, types, expand, hide, pin, node), so a reload or a pasted link shows the same graph.
// Values are exactly as the API answered them (masked per role); researchers seed by entity id.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { saveBlob, sdk } from '../api';
import { Empty, ErrorState, Loading } from '../components';
import { EntityLink, TYPE_LABELS } from '../entity-link';
import { getIdentityHeader } from '../identity';
import { useSearchParams } from '../router';
import { GraphCanvas, type CanvasHandle } from './graph-canvas';
import { colourOf, graphJson, graphSvg, mergeGraphs, visibleGraph, type ApiGraph, type GNode } from './graph-model';
import './graph.css';

const KINDS = ['co_occurs', 'hosts', 'resolves_to', 'pays_to', 'member_of', 'links_to'] as const;
type Kind = (typeof KINDS)[number];
const list = (v: string | null) => (v ? v.split(',').filter(Boolean) : []);
const toggled = (items: string[], x: string) => (items.includes(x) ? items.filter((i) => i !== x) : [...items, x]).join(',');
/** A subset of `all` kept in the URL: absent = all of them, '-' = none. */
function subsetToggle(current: string[], all: readonly string[], x: string): string | null {
  const base = current.length === 0 ? [...all] : current.filter((c) => c !== '-');
  const next = base.includes(x) ? base.filter((b) => b !== x) : [...base, x];
  return next.length >= all.length && all.every((a) => next.includes(a)) ? null : next.length ? next.join(',') : '-';
}

function walk(seed: string, depth: number, max: number, minWeight: number, kinds: string[]): Promise<ApiGraph> {
  return sdk().request('get', '/intelligence/graph', { query: { seed, depth, maxNodes: max, minWeight, edgeKinds: kinds.length ? (kinds as Kind[]) : undefined } });
}

/** The center's walk and one depth-1 walk per expanded node, merged; the previous graph stays on screen while the next loads. */
function useGraph(seed: string, depth: number, max: number, minWeight: number, kinds: string[], expand: string[]) {
  const id = getIdentityHeader()?.value ?? '';
  return useQuery({
    queryKey: ['load', 'graph-explorer', seed, depth, max, minWeight, kinds.join(','), expand.join(','), id],
    queryFn: async () => {
      const t0 = performance.now();
      const parts = await Promise.all([walk(seed, depth, max, minWeight, kinds), ...expand.map((x) => walk(x, 1, max, minWeight, kinds))]);
      const t1 = performance.now();
      const merged = mergeGraphs(parts);
      performance.measure('graph:fetch', { start: t0, end: t1 });
      performance.measure('graph:merge', { start: t1, end: performance.now() });
      return merged;
    },
    enabled: seed !== '',
    placeholderData: keepPreviousData,
    retry: false,
  });
}

function SeedForm({ seed, onSeed }: { seed: string; onSeed: (s: string) => void }) {
  const [text, setText] = useState(seed);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) onSeed(text.trim());
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Center entity">
      <div className="field grow">
        <label htmlFor="g-seed">Center entity (entity id, or type:value such as domain:pay.example)</label>
        <input id="g-seed" value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      </div>
      <button type="submit" className="primary">Show graph</button>
    </form>
  );
}

function NodeActions({ n, pinned, onExpand, onPin, onHide }: { n: GNode; pinned: boolean; onExpand: () => void; onPin: () => void; onHide: () => void }) {
  return (
    <span className="node-actions">
      <button type="button" className="icon" onClick={onExpand} aria-label={`Expand ${n.displayValue}`}>Expand</button>
      <button type="button" className="icon" onClick={onPin} aria-pressed={pinned} aria-label={`${pinned ? 'Unpin' : 'Pin'} ${n.displayValue}`}>{pinned ? 'Unpin' : 'Pin'}</button>
      <button type="button" className="icon" onClick={onHide} aria-label={`Hide ${n.displayValue}`}>Hide</button>
    </span>
  );
}

export function GraphPage() {
  const [params, set] = useSearchParams();
  const seed = params.get('seed') ?? '';
  const depth = Math.min(4, Math.max(1, Number(params.get('depth') ?? 2) || 2));
  const max = Math.min(2000, Math.max(1, Number(params.get('max') ?? 500) || 500));
  const minWeight = Math.max(0, Number(params.get('min_weight') ?? 0) || 0);
  const kinds = list(params.get('kinds'));
  const types = list(params.get('types'));
  const expand = list(params.get('expand'));
  const hidden = list(params.get('hide'));
  const pins = list(params.get('pin'));
  const selected = params.get('node');
  const q = useGraph(seed, depth, max, minWeight, kinds, expand);
  const canvas = useRef<CanvasHandle>(null);
  const [showList, setShowList] = useState(false);
  const [message, setMessage] = useState('');
  const pinned = useMemo(() => new Set(pins), [pins.join(',')]);
  const seeds = useMemo(() => new Set(q.data?.seeds ?? []), [q.data]);
  const shown = useMemo(() => (q.data ? visibleGraph(q.data, { hidden: new Set(hidden), types: new Set(types) }) : null), [q.data, hidden.join(','), types.join(',')]);
  const presentTypes = useMemo(() => [...new Set((q.data?.nodes ?? []).map((n) => n.type))].sort(), [q.data]);
  const byId = useMemo(() => new Map((q.data?.nodes ?? []).map((n) => [n.id, n])), [q.data]);

  const onSeed = (s: string) => set({ seed: s, expand: null, hide: null, pin: null, node: null }, { push: true });
  const expandNode = (id: string) => {
    if (!expand.includes(id) && !seeds.has(id)) set({ expand: [...expand, id].join(','), node: id }, { push: true });
  };
  const pin = (id: string) => set({ pin: toggled(pins, id) });
  const hide = (id: string) => set({ hide: toggled(hidden, id), node: selected === id ? null : selected });
  const meta = () => ({ center: seed, depth, max_nodes: max, min_weight: minWeight, edge_kinds: kinds, types, hidden });
  const name = () => `graph-${seed.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60)}`;
  const exportAs = async (fmt: 'png' | 'svg' | 'json') => {
    if (!shown) return;
    if (fmt === 'json') saveBlob(new Blob([graphJson(shown, meta(), pinned)], { type: 'application/json' }), `${name()}.json`);
    if (fmt === 'svg') saveBlob(new Blob([graphSvg(shown, canvas.current?.positions() ?? new Map(), presentTypes)], { type: 'image/svg+xml' }), `${name()}.svg`);
    if (fmt === 'png' && canvas.current) saveBlob(await canvas.current.png(), `${name()}.png`);
    setMessage(`Exported ${shown.nodes.length} nodes as ${fmt.toUpperCase()}.`);
  };
  const sel = selected ? byId.get(selected) : undefined;

  return (
    <>
      <h1>Graph explorer</h1>
      <SeedForm key={seed} seed={seed} onSeed={onSeed} />
      {seed && (
        <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Graph filters">
          <div className="field narrow">
            <label htmlFor="g-depth">Depth</label>
            <select id="g-depth" value={depth} onChange={(e) => set({ depth: e.target.value === '2' ? null : e.target.value })}>
              {[1, 2, 3, 4].map((d) => <option key={d} value={d}>{d}</option>)}
            </select>
          </div>
          <div className="field narrow">
            <label htmlFor="g-weight">Min weight</label>
            <input id="g-weight" type="number" min={0} value={minWeight} onChange={(e) => set({ min_weight: e.target.value === '0' ? null : e.target.value })} />
          </div>
          <div className="field narrow">
            <label htmlFor="g-max">Max nodes</label>
            <select id="g-max" value={max} onChange={(e) => set({ max: e.target.value === '500' ? null : e.target.value })}>
              {[100, 250, 500, 1000, 2000].map((m) => <option key={m} value={m}>{m}</option>)}
            </select>
          </div>
          <fieldset>
            <legend>Relationships</legend>
            {KINDS.map((k) => (
              <label key={k} className="check"><input type="checkbox" checked={kinds.length === 0 || kinds.includes(k)} disabled={kinds.length === 1 && kinds[0] === k} onChange={() => set({ kinds: subsetToggle(kinds, KINDS, k) })} />{k.replace(/_/g, ' ')}</label>
            ))}
          </fieldset>
        </form>
      )}
      {!seed && <Empty>Choose a center entity: its id (from an entity page&apos;s &ldquo;Open in graph&rdquo;) or type:value.</Empty>}
      {seed && q.isPending && <Loading what="the graph" />}
      {seed && q.isError && <ErrorState error={q.error} retry={() => void q.refetch()} />}
      {shown && q.data && (
        <>
          <fieldset className="type-filter">
            <legend>Entity types shown (colours)</legend>
            {presentTypes.map((t) => (
              <label key={t} className="check">
                <input type="checkbox" checked={types.length === 0 || types.includes(t)} onChange={() => set({ types: subsetToggle(types, presentTypes, t) })} />
                <span className="swatch" style={{ background: colourOf(t) }} aria-hidden="true" />{TYPE_LABELS[t] ?? t} ({q.data!.nodes.filter((n) => n.type === t).length})
              </label>
            ))}
            <span className="check legend-infra"><span className="swatch infra" aria-hidden="true" />Shared infrastructure (IP, ASN, hosting): small dashed diamonds, outside the layout</span>
          </fieldset>
          <div className="toolbar graph-toolbar" role="toolbar" aria-label="Graph view">
            <button type="button" onClick={() => canvas.current?.zoom(1.3)}>Zoom in</button>
            <button type="button" onClick={() => canvas.current?.zoom(1 / 1.3)}>Zoom out</button>
            <button type="button" onClick={() => canvas.current?.fit()}>Fit</button>
            <button type="button" onClick={() => canvas.current?.relayout()}>Lay out again</button>
            <button type="button" onClick={() => void exportAs('png')}>Export PNG</button>
            <button type="button" onClick={() => void exportAs('svg')}>Export SVG</button>
            <button type="button" onClick={() => void exportAs('json')}>Export JSON</button>
            {hidden.length > 0 && <button type="button" onClick={() => set({ hide: null })}>Show {hidden.length} hidden</button>}
            {expand.length > 0 && <button type="button" onClick={() => set({ expand: null })}>Collapse expansions</button>}
          </div>
          <p className="muted small" role="status" aria-live="polite" data-testid="graph-summary">
            {shown.nodes.length} entities, {shown.edges.length} relationships shown{q.data.nodes.length > shown.nodes.length ? ` (of ${q.data.nodes.length})` : ''}{q.isFetching ? ' · loading…' : ''}{message ? ` · ${message}` : ''}
          </p>
          {q.data.truncated && <p className="notice">The graph was cut at {max} nodes: raise Max nodes, raise Min weight or lower Depth to see all of it.</p>}
          <div className="graph-layout">
            <GraphCanvas graph={shown} seeds={seeds} pinned={pinned} selected={selected} onSelect={(id) => set({ node: id })} onExpand={expandNode} handle={canvas}
              label={`Relationship graph: ${shown.nodes.length} entities and ${shown.edges.length} relationships; the list below has the same entities`} />
            <aside className="graph-side" aria-label="Selected entity">
              {sel ? (
                <>
                  <h2>Selected</h2>
                  <p><EntityLink id={sel.id} type={sel.type} value={sel.displayValue} showType /></p>
                  <p className="small">{sel.riskScore !== null ? `Risk ${sel.riskScore} · ` : ''}depth {sel.depth}{sel.infrastructure ? ' · shared infrastructure' : ''}</p>
                  <NodeActions n={sel} pinned={pinned.has(sel.id)} onExpand={() => expandNode(sel.id)} onPin={() => pin(sel.id)} onHide={() => hide(sel.id)} />
                </>
              ) : <p className="muted small">Click a node to select it, double-click to expand it; drag to pan, wheel to zoom.</p>}
            </aside>
          </div>
          <details open={showList} onToggle={(e) => setShowList((e.target as HTMLDetailsElement).open)}>
            <summary>Entities as a list ({shown.nodes.length})</summary>
            {showList && (
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Entities of the graph, with what can be done to each</caption>
                  <thead><tr><th scope="col">Entity</th><th scope="col">Risk</th><th scope="col">Depth</th><th scope="col">Actions</th></tr></thead>
                  <tbody>
                    {shown.nodes.map((n) => (
                      <tr key={n.id} data-node-id={n.id}>
                        <td data-label="Entity"><EntityLink id={n.id} type={n.type} value={n.displayValue} showType />{n.infrastructure && <span className="muted small"> (shared infrastructure)</span>}</td>
                        <td data-label="Risk" className="num">{n.riskScore ?? '—'}</td>
                        <td data-label="Depth" className="num">{n.depth}</td>
                        <td data-label="Actions"><NodeActions n={n} pinned={pinned.has(n.id)} onExpand={() => expandNode(n.id)} onPin={() => pin(n.id)} onHide={() => hide(n.id)} /></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </details>
        </>
      )}
    </>
  );
}
