// Exports and sharing: entity and indicator exports with the lists' filters (CSV, XLSX, STIX 2.1;
// GET /exports/*), the researchers' aggregate export, and what a partner needs to pull the
// indicators themselves (the TAXII 2.1 root, the feed addresses, a `taxii:read` key). The filters
// are in the URL (?category=phishing&min_confidence=70&entity_type=wallet…), so the indicator list's
// "Export these indicators" link opens this page with the list's filters.
import { useState, type ReactNode } from 'react';
import { download } from '../api';
import { CopyButton } from '../components';
import { TYPE_LABELS, ENTITY_TYPES } from '../entity-link';
import { useSearchParams } from '../router';
import { hasRole, useMe } from '../session';

function query(values: Record<string, string>): string {
  const s = new URLSearchParams(Object.entries(values).filter(([, v]) => v)).toString();
  return s ? `?${s}` : '';
}

/** `2026-11-01` -> an ISO instant at the start of that UTC day (the exports take ISO 8601). */
const sinceInstant = (day: string) => (day ? `${day}T00:00:00Z` : '');

function DownloadButtons({ path, filters, formats }: { path: string; filters: Record<string, string>; formats: Array<{ fmt: string; label: string }> }) {
  const [state, setState] = useState<{ busy: boolean; message: string | null; error: boolean }>({ busy: false, message: null, error: false });
  const go = async (fmt: string) => {
    setState({ busy: true, message: null, error: false });
    try {
      const saved = await download(path, { query: { ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)), fmt } });
      setState({ busy: false, message: `Saved ${saved.filename}.`, error: false });
    } catch (err) {
      setState({ busy: false, message: err instanceof Error ? err.message : 'The export failed.', error: true });
    }
  };
  return (
    <div className="actions">
      {formats.map((f) => <button key={f.fmt} type="button" disabled={state.busy} onClick={() => void go(f.fmt)}>Download {f.label}</button>)}
      <p className="small muted">Address: <code>{path}{query({ ...filters, fmt: formats[0].fmt })}</code></p>
      {state.message && <p role={state.error ? 'alert' : 'status'} className={state.error ? 'form-error' : 'muted'}>{state.message}</p>}
    </div>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: (id: string) => ReactNode }) {
  return <div className="field"><label htmlFor={id}>{label}</label>{children(id)}</div>;
}

function Address({ label, url }: { label: string; url: string }) {
  return <li><strong>{label}</strong>: <code>{url}</code> <CopyButton value={url} label={`Copy the ${label} address`} /></li>;
}

export function ExportsPage() {
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const p = (k: string) => params.get(k) ?? '';
  const set = (k: string) => (v: string) => setParams({ [k]: v || null });
  const entityFilters = { entity_type: p('entity_type'), min_loss: p('min_loss'), order_by: p('order_by'), since: sinceInstant(p('entity_since')) };
  const indicatorFilters = { category: p('category'), min_confidence: p('min_confidence'), campaign_id: p('campaign_id'), since: sinceInstant(p('since')) };
  const origin = window.location.origin;
  const full = hasRole(me, 'admin', 'analyst', 'reviewer');
  return (
    <>
      <h1>Exports and sharing</h1>
      {full ? (
        <>
          <section className="card" aria-labelledby="ex-ent">
            <h2 id="ex-ent">Entities</h2>
            <p className="muted">The entity list with its filters and order; bank details stay masked for every role but analyst.</p>
            <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Entity export filters">
              <Field id="ex-type" label="Entity type">{(id) => (
                <select id={id} value={p('entity_type')} onChange={(e) => set('entity_type')(e.target.value)}>
                  <option value="">Any</option>
                  {ENTITY_TYPES.map((t) => <option key={t} value={t}>{TYPE_LABELS[t]}</option>)}
                </select>
              )}</Field>
              <Field id="ex-minloss" label="Minimum loss">{(id) => <input id={id} inputMode="decimal" value={p('min_loss')} placeholder="1000" onChange={(e) => set('min_loss')(e.target.value)} />}</Field>
              <Field id="ex-order" label="Order">{(id) => (
                <select id={id} value={p('order_by')} onChange={(e) => set('order_by')(e.target.value)}>
                  <option value="">Risk</option><option value="loss">Loss</option><option value="last_seen">Last seen</option><option value="sightings">Sightings</option>
                </select>
              )}</Field>
              <Field id="ex-esince" label="Seen since">{(id) => <input id={id} type="date" value={p('entity_since')} onChange={(e) => set('entity_since')(e.target.value)} />}</Field>
            </form>
            <DownloadButtons path="/exports/entities" filters={entityFilters} formats={[{ fmt: 'csv', label: 'CSV' }, { fmt: 'xlsx', label: 'XLSX' }]} />
          </section>
          <section className="card" aria-labelledby="ex-ind">
            <h2 id="ex-ind">Indicators</h2>
            <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Indicator export filters">
              <Field id="ex-cat" label="Category">{(id) => <input id={id} value={p('category')} placeholder="phishing" onChange={(e) => set('category')(e.target.value)} />}</Field>
              <Field id="ex-conf" label="Minimum confidence">{(id) => <input id={id} type="number" min={0} max={100} value={p('min_confidence')} onChange={(e) => set('min_confidence')(e.target.value)} />}</Field>
              <Field id="ex-camp" label="Campaign id">{(id) => <input id={id} value={p('campaign_id')} placeholder="optional" onChange={(e) => set('campaign_id')(e.target.value)} />}</Field>
              <Field id="ex-since" label="Changed since">{(id) => <input id={id} type="date" value={p('since')} onChange={(e) => set('since')(e.target.value)} />}</Field>
            </form>
            <DownloadButtons path="/exports/indicators" filters={indicatorFilters} formats={[{ fmt: 'csv', label: 'CSV' }, { fmt: 'xlsx', label: 'XLSX' }, { fmt: 'stix', label: 'STIX 2.1 bundle' }]} />
          </section>
        </>
      ) : (
        <p className="state">Your role may use the anonymized aggregate export only; entity and indicator exports, the feed and TAXII are for analysts.</p>
      )}
      {hasRole(me, 'admin', 'analyst', 'researcher') && (
        <section className="card" aria-labelledby="ex-agg">
          <h2 id="ex-agg">Anonymized aggregates</h2>
          <p className="muted">Counts and losses by type, network, scam type, country and month; groups of too few victims are left out.</p>
          <DownloadButtons path="/exports/researcher/entities" filters={{ entity_type: p('entity_type') }} formats={[{ fmt: 'csv', label: 'CSV' }, { fmt: 'json', label: 'JSON' }]} />
        </section>
      )}
      <section className="card" aria-labelledby="ex-share">
        <h2 id="ex-share">Sharing with partners</h2>
        <ul className="addresses">
          <Address label="TAXII 2.1 discovery" url={`${origin}/taxii2/`} />
          <Address label="TAXII 2.1 collections" url={`${origin}/taxii2/api/collections/`} />
          <Address label="Indicator feed (JSON, CSV or STIX pages)" url={`${origin}/feeds/indicators${query({ category: p('category'), min_confidence: p('min_confidence') })}`} />
          <Address label="MISP feed manifest" url={`${origin}/feeds/misp/manifest.json`} />
        </ul>
        <h3>The key a partner needs</h3>
        <p>A service key with the <code>taxii:read</code> scope, created by an administrator (it is shown once):</p>
        <pre><code>npx fip keys create --name partner-x --scope taxii:read</code></pre>
        <p>The partner sends it as the <code>X-API-KEY</code> header, or as the password of HTTP Basic (TAXII clients), and asks TAXII for <code>Accept: application/taxii+json;version=2.1</code>. The key reads the feed and TAXII only; it cannot use these exports.</p>
      </section>
    </>
  );
}
