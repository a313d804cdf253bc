// Intakes and cases: lists with filters, and a detail view of each.
import { useState } from 'react';
import { sdk } from '../api';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Empty, ErrorState, Loading, StatusBadge, Time, useLoad } from '../components';
import { EntityLink } from '../entity-link';
import { Link, useSearchParams } from '../router';
import { hasRole, useMe } from '../session';
import { AddToCampaign } from './campaign-add';
import { CaseDossiers } from './dossier-generate';


function Pager({ next, cursor, setCursor }: { next: string | null | undefined; cursor: string | null; setCursor: (c: string | null) => void }) {
  return (
    <div className="pager">
      <button type="button" disabled={!cursor} onClick={() => setCursor(null)}>First page</button>
      <button type="button" disabled={!next} onClick={() => setCursor(next ?? null)}>Next page</button>
    </div>
  );
}

export function IntakesPage() {
  // Filters and the page are in the URL (?status=...&q=...&cursor=...): a deep link.
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const q = params.get('q') ?? '';
  const cursor = params.get('cursor');
  const setCursor = (c: string | null) => setParams({ cursor: c });
  const setStatus = (v: string) => setParams({ status: v, cursor: null });
  const setQ = (v: string) => setParams({ q: v, cursor: null });
  const [list, reload] = useLoad(() => sdk().request('get', '/intakes/', { query: { status: (status || undefined) as 'received' | undefined, q: q || undefined, cursor: cursor ?? undefined, limit: 50 } }), `${status}:${q}:${cursor}`);
  return (
    <>
      <h1>Intakes</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter intakes">
        <div className="field">
          <label htmlFor="in-status">Status</label>
          <select id="in-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {['received', 'processing', 'processed', 'failed', 'triaged', 'linked', 'rejected', 'closed'].map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor="in-q">Text</label>
          <input id="in-q" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
      </form>
      {list.status === 'loading' && <Loading what="intakes" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No intake{status || q ? ' matches' : ' yet'}.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Intakes, newest first</caption>
            <thead><tr><th scope="col">Summary</th><th scope="col">Status</th><th scope="col">Source</th><th scope="col">Loss</th><th scope="col">Files</th><th scope="col">Case</th><th scope="col">Received</th></tr></thead>
            <tbody>
              {list.data.items.map((i) => (
                <tr key={i.id}>
                  <td data-label="Summary"><Link to={`/intakes/${i.id}`}>{i.summary || i.id}</Link></td>
                  <td data-label="Status"><StatusBadge status={i.status} /></td>
                  <td data-label="Source">{i.source}</td>
                  <td data-label="Loss">{i.lossAmount ? `${i.lossAmount} ${i.lossCurrency ?? ''}` : '—'}</td>
                  <td data-label="Files">{i.fileCount}</td>
                  <td data-label="Case">{i.caseId ? <Link to={`/cases/${i.caseId}`}>case</Link> : '—'}</td>
                  <td data-label="Received"><Time iso={i.createdAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager next={list.status === 'ok' ? list.data.nextCursor : null} cursor={cursor} setCursor={setCursor} />
    </>
  );
}


export function IntakeDetailPage({ id }: { id: string }) {
  const [intake, reload] = useLoad(() => sdk().intakes.get(id), id);
  if (intake.status === 'loading') return <Loading what="the intake" />;
  if (intake.status === 'error') return <ErrorState error={intake.error} retry={reload} />;
  if (intake.status !== 'ok') return null;
  const i = intake.data;
  return (
    <>
      <p><Link to="/intakes">← Intakes</Link></p>
      <h1>{i.summary || 'Intake'}</h1>
      <dl className="facts">
        <dt>Status</dt><dd><StatusBadge status={i.status} /></dd>
        <dt>Source</dt><dd>{i.source}</dd>
        <dt>Submitted by</dt><dd>{i.submittedBy}</dd>
        <dt>Received</dt><dd><Time iso={i.createdAt} /></dd>
        <dt>Loss</dt><dd>{i.lossAmount ? `${i.lossAmount} ${i.lossCurrency ?? ''}` : '—'}</dd>
        <dt>Case</dt><dd>{i.case ? <Link to={`/cases/${i.case.id}`}>{i.case.title}</Link> : 'not attached'}</dd>
      </dl>
      <h2>Details</h2>
      <p className="prewrap">{i.details || <span className="muted">none</span>}</p>
      <h2>Files</h2>
      {i.files.length === 0 ? <Empty>No file attached.</Empty> : <ul>{i.files.map((f) => <li key={f.id}>{f.filename} ({f.contentType}, {f.size} bytes) <code className="small">{f.sha256.slice(0, 16)}…</code></li>)}</ul>}
      <h2>Entities found</h2>
      {i.entities.length === 0 ? <Empty>None yet.</Empty> : <ul>{i.entities.map((e) => <li key={e.id}><EntityLink id={e.id} type={e.type} value={e.displayValue} showType /></li>)}</ul>}
    </>
  );
}

export function CasesPage() {
  // Filters and the page are in the URL (?status=...&q=...&cursor=...): a deep link.
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const q = params.get('q') ?? '';
  const cursor = params.get('cursor');
  const setCursor = (c: string | null) => setParams({ cursor: c });
  const setStatus = (v: string) => setParams({ status: v, cursor: null });
  const setQ = (v: string) => setParams({ q: v, cursor: null });
  const [list, reload] = useLoad(() => sdk().request('get', '/cases', { query: { status: (status || undefined) as 'open' | undefined, q: q || undefined, cursor: cursor ?? undefined, limit: 50 } }), `${status}:${q}:${cursor}`);
  return (
    <>
      <h1>Cases</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter cases">
        <div className="field">
          <label htmlFor="c-status">Status</label>
          <select id="c-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {['open', 'in_review', 'referred', 'closed'].map((s) => <option key={s} value={s}>{s.replace('_', ' ')}</option>)}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor="c-q">Title or description contains</label>
          <input id="c-q" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
      </form>
      {list.status === 'loading' && <Loading what="cases" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No case{status || q ? ' matches' : ' yet'}.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Cases, newest first</caption>
            <thead><tr><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Priority</th><th scope="col">Assignee</th><th scope="col">Updated</th></tr></thead>
            <tbody>
              {list.data.items.map((c) => (
                <tr key={c.id}>
                  <td data-label="Title"><Link to={`/cases/${c.id}`}>{c.title}</Link></td>
                  <td data-label="Status"><StatusBadge status={c.status} /></td>
                  <td data-label="Priority"><span className={`prio prio-${c.priority}`}>{c.priority}</span></td>
                  <td data-label="Assignee">{c.assignee ?? '—'}</td>
                  <td data-label="Updated"><Time iso={c.updatedAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager next={list.status === 'ok' ? list.data.nextCursor : null} cursor={cursor} setCursor={setCursor} />
    </>
  );
}


export function CaseDetailPage({ id }: { id: string }) {
  const me = useMe();
  const [c, reload] = useLoad(() => sdk().cases.get(id), id);
  const [msg, setMsg] = useState<string | null>(null);
  if (c.status === 'loading') return <Loading what="the case" />;
  if (c.status === 'error') return <ErrorState error={c.error} retry={reload} />;
  if (c.status !== 'ok') return null;
  const d = c.data;
  const requestReview = async () => {
    try {
      await sdk().reviews.create({ caseId: d.id, reason: 'requested from the console' });
      setMsg('Review requested: it is in the review queue.');
      reload();
    } catch (err) {
      setMsg(`Could not request a review: ${describeError(err).sentence}`);
      invalidateLoads();
    }
  };
  return (
    <>
      <p><Link to="/cases">← Cases</Link></p>
      <h1>{d.title}</h1>
      <dl className="facts">
        <dt>Status</dt><dd><StatusBadge status={d.status} /></dd>
        <dt>Priority</dt><dd>{d.priority}</dd>
        <dt>Assignee</dt><dd>{d.assignee ?? '—'}</dd>
        <dt>Total loss</dt><dd>{d.totalLoss.length ? d.totalLoss.map((l) => `${l.amount} ${l.currency}`).join(', ') : '—'}</dd>
        <dt>Created</dt><dd><Time iso={d.createdAt} /></dd>
      </dl>
      <p className="prewrap">{d.description}</p>
      {hasRole(me, 'admin', 'analyst') && <p><button type="button" onClick={requestReview}>Request a review</button></p>}
      {msg && <p role="status">{msg}</p>}
      <AddToCampaign what="this case" members={[{ type: 'case', id: d.id }]} />
      <h2>Investigations</h2>
      {d.investigations.length === 0 ? <Empty>None linked.</Empty> : <ul>{d.investigations.map((i) => <li key={i.id}><Link to={`/investigations/${i.id}`}>{i.id}</Link></li>)}</ul>}
      <h2>Intakes</h2>
      {d.intakes.length === 0 ? <Empty>None linked.</Empty> : <ul>{d.intakes.map((i) => <li key={i.id}><Link to={`/intakes/${i.id}`}>{i.id}</Link></li>)}</ul>}
      <h2>Entities</h2>
      {d.entities.length === 0 ? <Empty>None.</Empty> : <ul>{d.entities.map((e) => <li key={e.id}><EntityLink id={e.id} type={e.type} value={e.displayValue} showType /></li>)}</ul>}
      <h2>Reviews</h2>
      {d.reviews.length === 0 ? <Empty>No review yet.</Empty> : <ul>{d.reviews.map((r) => <li key={r.id}><StatusBadge status={r.status} /> {r.decision ? `${r.decision.replace(/_/g, ' ')} by ${r.decidedBy}` : r.claimedBy ? `claimed by ${r.claimedBy}` : 'waiting'} — <Time iso={r.createdAt} /></li>)}</ul>}
      <CaseDossiers caseId={d.id} caseTitle={d.title} />
    </>
  );
}
