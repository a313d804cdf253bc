// Investigations: start one from a URL (optional playbook), the active ones with live state and
// progress (polled), and the history.
import { useEffect, useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { describeError } from '../errors';
import { Empty, ErrorState, Loading, StatusBadge, Time, useLoad } from '../components';
import { Link, navigate, useSearchParams } from '../router';
import type { InvestigationSummary } from '../types';

const POLL_MS = 2000;

function StartForm() {
  const [url, setUrl] = useState('');
  const [label, setLabel] = useState('');
  const [playbookId, setPlaybookId] = useState('');
  const [maxPages, setMaxPages] = useState(20);
  const [register, setRegister] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [playbooks] = useLoad(() => sdk().playbooks.list({ limit: 200 }).first(), 'playbooks');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const started = await sdk().investigations.start({ url: url.trim(), label: label.trim() || undefined, playbookId: playbookId || undefined, options: { max_pages: maxPages }, ...(register ? {} : { agent: { register: false } }) });
      navigate(`/investigations/${started.scanId}`);
    } catch (err) {
      setError(describeError(err).sentence);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card start-form" onSubmit={submit} aria-labelledby="start-heading">
      <h2 id="start-heading">Investigate a site</h2>
      <div className="fields">
        <div className="field grow">
          <label htmlFor="inv-url">Site URL</label>
          <input id="inv-url" type="url" required placeholder="https://suspicious.example/" value={url} onChange={(e) => setUrl(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="inv-label">Label (optional)</label>
          <input id="inv-label" value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="inv-playbook">Playbook (optional)</label>
          <select id="inv-playbook" value={playbookId} onChange={(e) => setPlaybookId(e.target.value)}>
            <option value="">Automatic (by URL pattern)</option>
            {playbooks.status === 'ok' && playbooks.data.items.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
          </select>
        </div>
        <div className="field narrow">
          <label htmlFor="inv-pages">Pages at most</label>
          <input id="inv-pages" type="number" min={1} max={200} required value={maxPages} onChange={(e) => setMaxPages(Number(e.target.value))} />
        </div>
        <div className="field check-field">
          <label className="check"><input type="checkbox" checked={register} onChange={(e) => setRegister(e.target.checked)} /> Register on the site (synthetic persona)</label>
          <span className="muted small">Off: an anonymous visitor only, no form submitted.</span>
        </div>
        <button type="submit" className="primary" disabled={busy}>{busy ? 'Starting…' : 'Start investigation'}</button>
      </div>
      {error && <p className="form-error" role="alert">Could not start: {error}</p>}
    </form>
  );
}

function ProgressBar({ percent, label }: { percent: number | null | undefined; label: string }) {
  if (percent === null || percent === undefined) return <span className="muted">{label}</span>;
  return (
    <span className="progress">
      <progress max={100} value={percent} aria-label={label} /> {Math.round(percent)}%
    </span>
  );
}

function Site({ inv }: { inv: InvestigationSummary }) {
  return (
    <>
      <Link to={`/investigations/${inv.scanId}`} className="site">{inv.label || inv.url}</Link>
      {inv.label && <div className="muted small">{inv.url}</div>}
    </>
  );
}

function ActiveList() {
  const [active, reload] = useLoad(() => sdk().investigations.active({ limit: 100 }).first(), 'active');
  useEffect(() => {
    const t = setInterval(reload, POLL_MS);
    return () => clearInterval(t);
  }, [reload]);
  if (active.status === 'loading') return <Loading what="active investigations" />;
  if (active.status === 'error') return <ErrorState error={active.error} retry={reload} />;
  if (active.status !== 'ok') return null;
  if (active.data.items.length === 0) return <Empty>No investigation is running. Start one above.</Empty>;
  return (
    <ul className="cards" aria-live="polite">
      {active.data.items.map((i) => (
        <li key={i.scanId} className="card">
          <Site inv={i} />
          <div className="row">
            <StatusBadge status={i.status} /> <span>State <strong>{i.progress?.stage ?? i.state}</strong></span>
            {(i.state === 'AWAITING_GUIDANCE' || i.progress?.stage === 'AWAITING_GUIDANCE') && (
              <Link to={`/investigations/${i.scanId}`} className="badge badge-guidance" aria-label={`${i.label || i.url} waits for guidance: answer it`}>Waits for guidance</Link>
            )}
            <ProgressBar percent={i.progress?.percent} label={`Progress of ${i.url}`} />
          </div>
          <div className="muted small">Started <Time iso={i.startedAt ?? i.createdAt} /> by {i.requestedBy}</div>
        </li>
      ))}
    </ul>
  );
}

function HistoryList() {
  // Filters and the page are in the URL (?status=failed&host=example&cursor=...): a deep link.
  const [params, setParams] = useSearchParams();
  const filters = { status: params.get('status') ?? '', domain: params.get('host') ?? '' };
  const cursor = params.get('cursor');
  const [stack, setStack] = useState<string[]>([]);
  const setCursor = (c: string | null) => setParams({ cursor: c });
  const setFilters = (f: { status: string; domain: string }) => setParams({ status: f.status, host: f.domain, cursor: null });
  const [history, reload] = useLoad(
    () => sdk().request('get', '/investigations/ssi/history', { query: { status: (filters.status || undefined) as 'completed' | undefined, domain: filters.domain.trim() || undefined, limit: 25, cursor: cursor ?? undefined } }),
    `history:${filters.status}:${filters.domain}:${cursor}`,
  );
  return (
    <>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter history">
        <div className="field">
          <label htmlFor="hist-status">Status</label>
          <select id="hist-status" value={filters.status} onChange={(e) => { setCursor(null); setStack([]); setFilters({ ...filters, status: e.target.value }); }}>
            <option value="">Any</option>
            <option value="completed">Completed</option>
            <option value="failed">Failed</option>
            <option value="cancelled">Cancelled</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="hist-domain">Host contains</label>
          <input id="hist-domain" value={filters.domain} onChange={(e) => { setCursor(null); setStack([]); setFilters({ ...filters, domain: e.target.value }); }} />
        </div>
      </form>
      {history.status === 'loading' && <Loading what="history" />}
      {history.status === 'error' && <ErrorState error={history.error} retry={reload} />}
      {history.status === 'ok' && history.data.items.length === 0 && <Empty>No finished investigation{filters.status || filters.domain ? ' matches these filters' : ' yet'}.</Empty>}
      {history.status === 'ok' && history.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Finished investigations, newest first</caption>
            <thead>
              <tr><th scope="col">Site</th><th scope="col">Status</th><th scope="col">Wallets</th><th scope="col">Final URL</th><th scope="col">Finished</th><th scope="col">By</th></tr>
            </thead>
            <tbody>
              {history.data.items.map((i) => (
                <tr key={i.scanId}>
                  <td data-label="Site"><Site inv={i} /></td>
                  <td data-label="Status"><StatusBadge status={i.status} /></td>
                  <td data-label="Wallets">{i.walletCount}</td>
                  <td data-label="Final URL" className="break">{i.finalUrl ?? <span className="muted">—</span>}</td>
                  <td data-label="Finished"><Time iso={i.completedAt} /></td>
                  <td data-label="By">{i.requestedBy}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="pager">
        <button type="button" disabled={stack.length === 0} onClick={() => { const s = [...stack]; const prev = s.pop() ?? null; setStack(s); setCursor(prev === '' ? null : prev); }}>Newer</button>
        <button type="button" disabled={history.status !== 'ok' || !history.data.nextCursor} onClick={() => { if (history.status === 'ok' && history.data.nextCursor) { setStack([...stack, cursor ?? '']); setCursor(history.data.nextCursor); } }}>Older</button>
      </div>
    </>
  );
}

export function InvestigationsPage() {
  return (
    <>
      <h1>Investigations</h1>
      <StartForm />
      <section aria-labelledby="active-heading">
        <h2 id="active-heading">Active</h2>
        <ActiveList />
      </section>
      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        <HistoryList />
      </section>
    </>
  );
}
