// Campaigns (/console/campaigns?status=active&taxonomy=investment&q=ring): the list of
// GET /intelligence/campaigns (member counts, risk, taxonomy) with its filters and page in the
// URL, and a form to create one (POST /campaigns; admins and analysts).
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { Empty, ErrorState, Loading, Pager, StatusBadge, Time, useLoad } from '../components';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link, navigate, useSearchParams } from '../router';
import { hasRole, useMe } from '../session';
import type { paths, Schema } from '../../../sdk/src';

export const CAMPAIGN_STATUSES = ['active', 'dormant', 'closed'] as const;
type Status = (typeof CAMPAIGN_STATUSES)[number];
type TaxNode = Schema<'TaxonomyNode'>;
/** A path of the scam taxonomy, as the API's schemas enumerate them (the options come from GET /taxonomy). */
export type TaxonomyPath = NonNullable<NonNullable<paths['/campaigns']['get']['parameters']['query']>['taxonomy']>;

/** The taxonomy tree as options (path, label indented by depth), from GET /taxonomy. */
export function useTaxonomyOptions(): Array<{ path: string; label: string }> {
  const [t] = useLoad(() => sdk().request('get', '/taxonomy'), 'taxonomy-options');
  if (t.status !== 'ok') return [];
  const out: Array<{ path: string; label: string }> = [];
  const walk = (nodes: TaxNode[]) => {
    for (const n of nodes) {
      out.push({ path: n.path, label: `${'\u2003'.repeat(n.depth - 1)}${n.label}` });
      walk(n.children);
    }
  };
  walk(t.data.nodes);
  return out;
}

export function TaxonomySelect({ id, value, onChange, empty }: { id: string; value: string; onChange: (v: string) => void; empty: string }) {
  const options = useTaxonomyOptions();
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{empty}</option>
      {value && !options.some((o) => o.path === value) && <option value={value}>{value}</option>}
      {options.map((o) => <option key={o.path} value={o.path}>{o.label}</option>)}
    </select>
  );
}

function CreateCampaign() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [taxonomy, setTaxonomy] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const c = await sdk().request('post', '/campaigns', { body: { name, description: description || undefined, taxonomy: (taxonomy || undefined) as TaxonomyPath | undefined } });
      invalidateLoads();
      navigate(`/campaigns/${c.id}`);
    } catch (err) {
      setError(describeError(err).sentence);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="card">
      <summary>New campaign</summary>
      <form className="fields" onSubmit={submit} aria-label="New campaign">
        <div className="field grow">
          <label htmlFor="nc-name">Name</label>
          <input id="nc-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="nc-tax">Taxonomy</label>
          <TaxonomySelect id="nc-tax" value={taxonomy} onChange={setTaxonomy} empty="Not classified" />
        </div>
        <div className="field grow">
          <label htmlFor="nc-desc">Description</label>
          <textarea id="nc-desc" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <button type="submit" className="primary" disabled={busy || !name.trim()}>Create campaign</button>
        {error && <p className="form-error" role="alert">{error}</p>}
      </form>
    </details>
  );
}

export function CampaignsPage() {
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const taxonomy = params.get('taxonomy') ?? '';
  const q = params.get('q') ?? '';
  const cursor = params.get('cursor');
  const [list, reload] = useLoad(
    () => sdk().request('get', '/intelligence/campaigns', { query: { status: (status || undefined) as Status | undefined, taxonomy: (taxonomy || undefined) as TaxonomyPath | undefined, q: q || undefined, cursor: cursor ?? undefined, limit: 50 } }),
    `${status}:${taxonomy}:${q}:${cursor}`,
  );
  return (
    <>
      <h1>Campaigns</h1>
      {hasRole(me, 'admin', 'analyst') && <CreateCampaign />}
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter campaigns">
        <div className="field">
          <label htmlFor="cp-status">Status</label>
          <select id="cp-status" value={status} onChange={(e) => setParams({ status: e.target.value, cursor: null })}>
            <option value="">Any</option>
            {CAMPAIGN_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="cp-tax">Taxonomy</label>
          <TaxonomySelect id="cp-tax" value={taxonomy} onChange={(v) => setParams({ taxonomy: v, cursor: null })} empty="Any" />
        </div>
        <div className="field grow">
          <label htmlFor="cp-q">Name or description contains</label>
          <input id="cp-q" type="search" value={q} onChange={(e) => setParams({ q: e.target.value, cursor: null })} />
        </div>
      </form>
      {list.status === 'loading' && <Loading what="campaigns" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No campaign{status || taxonomy || q ? ' matches' : ' yet'}.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Campaigns, newest first</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Taxonomy</th><th scope="col">Cases</th><th scope="col">Entities</th><th scope="col">Risk</th><th scope="col">Updated</th></tr></thead>
            <tbody>
              {list.data.items.map((c) => (
                <tr key={c.id}>
                  <td data-label="Name"><Link to={`/campaigns/${c.id}`}>{c.name}</Link></td>
                  <td data-label="Status"><StatusBadge status={c.status} /></td>
                  <td data-label="Taxonomy">{c.taxonomy ?? <span className="muted">unclassified</span>}</td>
                  <td data-label="Cases" className="num">{c.cases}</td>
                  <td data-label="Entities" className="num">{c.entities}</td>
                  <td data-label="Risk" className="num">{c.risk.score ?? '—'}</td>
                  <td data-label="Updated"><Time iso={c.updatedAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager next={list.status === 'ok' ? list.data.nextCursor : null} cursor={cursor} setCursor={(c) => setParams({ cursor: c })} />
    </>
  );
}
