// Indicators: the registry (GET /intelligence/indicators, highest confidence first) with its
// filters in the URL (?category=phishing&min_confidence=70&cursor=…), and one indicator's page
// (GET /intelligence/indicators/{id}; researchers get a 403 the page explains). Values are links
// to their entity pages, masked exactly as the API answers.
import { useState, type FormEvent } from 'react';
import { ApiError, getUntyped } from '../api';
import { Empty, ErrorState, Loading, SortableTable, Time, useLoad, type Column } from '../components';
import { EntityLink, TYPE_LABELS } from '../entity-link';
import { Link, navigate, useSearchParams } from '../router';

export interface Indicator {
  id: string;
  type: string;
  value: string;
  displayValue: string;
  category: string;
  confidence: number;
  validFrom: string;
  tlp: string;
  revision: string;
  riskScore: number | null;
  createdAt: string;
  updatedAt: string;
}

/** The query string of the indicator filters (shared with the exports page). */
export function indicatorFilterQuery(f: { category?: string; minConfidence?: string }): string {
  return new URLSearchParams(Object.entries({ category: f.category ?? '', min_confidence: f.minConfidence ?? '' }).filter(([, v]) => v)).toString();
}

const COLUMNS: Column<Indicator>[] = [
  { key: 'value', label: 'Indicator', value: (r) => r.displayValue, render: (r) => <><EntityLink id={r.id} type={r.type} value={r.value} showType>{r.displayValue}</EntityLink> <Link to={`/indicators/${r.id}`} className="small">details</Link></> },
  { key: 'category', label: 'Category', value: (r) => r.category },
  { key: 'confidence', label: 'Confidence', value: (r) => r.confidence },
  { key: 'tlp', label: 'TLP', value: (r) => r.tlp },
  { key: 'risk', label: 'Risk', value: (r) => r.riskScore ?? -1, render: (r) => r.riskScore ?? '—' },
  { key: 'updated', label: 'Updated', value: (r) => r.updatedAt, render: (r) => <Time iso={r.updatedAt} /> },
];

export function IndicatorsPage() {
  const [params, setParams] = useSearchParams();
  const applied = { category: params.get('category') ?? '', minConfidence: params.get('min_confidence') ?? '', cursor: params.get('cursor') ?? '' };
  const [form, setForm] = useState(applied);
  const [list, reload] = useLoad(
    () => getUntyped<{ items: Indicator[]; nextCursor: string | null }>('/intelligence/indicators', { category: applied.category || undefined, minConfidence: applied.minConfidence || undefined, cursor: applied.cursor || undefined, limit: 200 }),
    JSON.stringify(applied),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setParams({ category: form.category.trim() || null, min_confidence: form.minConfidence || null, cursor: null }, { push: true });
  };
  const filters = indicatorFilterQuery(applied);
  return (
    <>
      <h1>Indicators</h1>
      <form className="card filters" onSubmit={submit} aria-label="Filter indicators">
        <div className="field">
          <label htmlFor="ind-category">Category</label>
          <input id="ind-category" value={form.category} placeholder="phishing" onChange={(e) => setForm({ ...form, category: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="ind-conf">Minimum confidence</label>
          <input id="ind-conf" type="number" min={0} max={100} value={form.minConfidence} onChange={(e) => setForm({ ...form, minConfidence: e.target.value })} />
        </div>
        <button type="submit" className="primary">Filter</button>
        <Link to={`/exports${filters ? `?${filters}` : ''}`}>Export these indicators</Link>
      </form>
      {list.status === 'loading' && <Loading what="indicators" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No indicator matches these filters.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <>
          <SortableTable rows={list.data.items} columns={COLUMNS} caption="Indicators, highest confidence first" rowKey={(r) => r.id} initialSort="confidence" />
          {list.data.nextCursor && <p><button type="button" onClick={() => setParams({ cursor: list.data.nextCursor }, { push: true })}>Next page</button></p>}
        </>
      )}
    </>
  );
}

export function IndicatorDetailPage({ id }: { id: string }) {
  const [state, reload] = useLoad(() => getUntyped<Indicator>(`/intelligence/indicators/${encodeURIComponent(id)}`), id);
  if (state.status === 'loading') return <><h1>Indicator</h1><Loading what="the indicator" /></>;
  if (state.status === 'error') {
    if (state.error instanceof ApiError && state.error.status === 403) return <><h1>Indicator</h1><Empty>Your role sees indicators in the list only; their details are for analysts, reviewers and admins.</Empty></>;
    return <><h1>Indicator</h1><ErrorState error={state.error} retry={reload} /></>;
  }
  if (state.status !== 'ok') return null;
  const i = state.data;
  return (
    <>
      <h1>Indicator: {i.displayValue}</h1>
      <p><Link to="/indicators">All indicators</Link> · <Link to={`/exports?category=${encodeURIComponent(i.category)}`}>Export indicators of this category</Link></p>
      <dl className="card facts">
        <dt>Value</dt><dd><EntityLink id={i.id} type={i.type} value={i.value}>{i.displayValue}</EntityLink></dd>
        <dt>Type</dt><dd>{TYPE_LABELS[i.type] ?? i.type}</dd>
        <dt>Category</dt><dd><Link to={`/indicators?category=${encodeURIComponent(i.category)}`}>{i.category}</Link></dd>
        <dt>Confidence</dt><dd>{i.confidence} of 100</dd>
        <dt>TLP</dt><dd>{i.tlp}</dd>
        <dt>Risk score</dt><dd>{i.riskScore ?? '—'}</dd>
        <dt>Valid from</dt><dd><Time iso={i.validFrom} /></dd>
        <dt>Revision</dt><dd>{i.revision}</dd>
        <dt>Created</dt><dd><Time iso={i.createdAt} /></dd>
        <dt>Updated</dt><dd><Time iso={i.updatedAt} /></dd>
      </dl>
      <p><button type="button" onClick={() => navigate(`/entities/${i.id}`)}>Open the entity page</button></p>
    </>
  );
}
