// Intakes and cases: lists with filters, and the case page. The intake page is intake-detail.tsx;
// the intake form, the case form and the referral editor are in their own files (areas/case-work.tsx).
import { useState } from 'react';
import { sdk } from '../api';
import { Empty, ErrorState, Loading, Pager, StatusBadge, Time, useLoad } from '../components';
import { EntityLink } from '../entity-link';
import { Link, useSearchParams } from '../router';
import { hasRole, useMe } from '../session';
import { AddToCampaign } from './campaign-add';
import { CaseDossiers } from './dossier-generate';
import { CaseInvestigations } from './case-investigations';
import { CaseStatusMoves, CaseTimeline, RequestReview } from './case-detail';
import { ReferralPanel } from './referral';

export { IntakeDetailPage } from './intake-detail';


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
      {hasRole(useMe(), 'admin', 'analyst') && <p><Link to="/intakes/new" className="button">New intake</Link></p>}
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
      {hasRole(useMe(), 'admin', 'analyst') && <p><Link to="/cases/new" className="button">New case</Link></p>}
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
  const canWrite = hasRole(me, 'admin', 'analyst');
  return (
    <>
      <p><Link to="/cases">← Cases</Link></p>
      <h1>{d.title}</h1>
      <dl className="facts">
        <dt>Status</dt><dd><StatusBadge status={d.status} /></dd>
        <dt>Priority</dt><dd>{d.priority}</dd>
        <dt>Assignee</dt><dd>{d.assignee ?? '—'}</dd>
        <dt>Scam type</dt><dd>{d.taxonomy ?? 'not classified'}</dd>
        <dt>Total loss</dt><dd>{d.totalLoss.length ? d.totalLoss.map((l) => `${l.amount} ${l.currency}`).join(', ') : '—'}</dd>
        <dt>Created</dt><dd><Time iso={d.createdAt} /> by {d.createdBy}</dd>
      </dl>
      <p className="prewrap">{d.description}</p>
      {canWrite && (
        <>
          <p><Link to={`/cases/${d.id}/edit`} className="button">Edit case</Link></p>
          <h2>Status</h2>
          <CaseStatusMoves d={d} done={reload} />
          <p><RequestReview d={d} done={(m) => { setMsg(m); reload(); }} /></p>
        </>
      )}
      {msg && <p role="status">{msg}</p>}
      <AddToCampaign what="this case" members={[{ type: 'case', id: d.id }]} />
      <ReferralPanel caseId={d.id} referral={d.referral} canWrite={canWrite} done={reload} />
      <h2>Reviews</h2>
      {d.reviews.length === 0 ? <Empty>No review yet.</Empty> : (
        <ul className="reviews">
          {d.reviews.map((r) => (
            <li key={r.id}>
              <StatusBadge status={r.status} /> {r.decision ? `${r.decision.replace(/_/g, ' ')} by ${r.decidedBy}` : r.claimedBy ? `claimed by ${r.claimedBy}` : 'waiting'} — <Time iso={r.createdAt} />
              <p className="prewrap small">Reason: {r.reason}</p>
              {r.rationale && <p className="prewrap small">Rationale: {r.rationale}</p>}
            </li>
          ))}
        </ul>
      )}
      <h2>Timeline</h2>
      <CaseTimeline d={d} />
      <h2>Investigations</h2>
      <CaseInvestigations d={d} canWrite={canWrite} done={reload} />
      <h2>Intakes</h2>
      {d.intakes.length === 0 ? <Empty>None linked.</Empty> : <ul>{d.intakes.map((i) => <li key={i.id}><Link to={`/intakes/${i.id}`}>{i.id}</Link></li>)}</ul>}
      <h2>Entities</h2>
      {d.entities.length === 0 ? <Empty>None.</Empty> : <ul>{d.entities.map((e) => <li key={e.id}><EntityLink id={e.id} type={e.type} value={e.displayValue} showType /></li>)}</ul>}
      <CaseDossiers caseId={d.id} caseTitle={d.title} />
    </>
  );
}
