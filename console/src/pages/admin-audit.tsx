// The audit log (admins): who did what to which record, when and why, newest first. The filters
// (actor, action, target type and id, time range in UTC) and the page cursor are in the URL, so a
// filtered view can be pasted to a colleague; each actor, action and target in a row filters by it.
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { Empty, ErrorState, Loading, Time, useLoad } from '../components';
import { Link, useSearchParams } from '../router';
import { Pager } from './admin-accounts';

const FILTERS = ['actor', 'action', 'target_type', 'target_id', 'since', 'until'] as const;
type Filter = (typeof FILTERS)[number];

/** Console pages of the records audit events name. */
const TARGET_PAGES: Record<string, string> = { case: '/cases/', intake: '/intakes/', investigation: '/investigations/' };

/** A datetime-local value (read as UTC) as ISO 8601, and back. */
const toIso = (local: string) => (local ? `${local.length === 16 ? `${local}:00` : local}Z` : '');
const toLocal = (iso: string) => (iso ? iso.replace(/Z$/, '').slice(0, 16) : '');

function filterLink(name: Filter, value: string): string {
  return `/admin/audit?${new URLSearchParams({ [name]: value }).toString()}`;
}

export function AuditSection() {
  const [params, set] = useSearchParams();
  const applied = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<Filter, string>;
  const cursor = params.get('cursor') ?? undefined;
  // The page size may be in the URL too (?limit=…, 1-500), default 50.
  const limit = Math.min(500, Math.max(1, Number(params.get('limit')) || 50));
  const [draft, setDraft] = useState<Record<Filter, string>>(applied);
  const [seen, setSeen] = useState(JSON.stringify(applied));
  if (seen !== JSON.stringify(applied)) {
    // A navigation (a filter link, Back) changed the URL: the form shows what is applied.
    setSeen(JSON.stringify(applied));
    setDraft(applied);
  }
  const [list, reload] = useLoad(
    () => sdk().request('get', '/audit/events', {
      query: {
        actor: applied.actor || undefined, action: applied.action || undefined, targetType: applied.target_type || undefined, targetId: applied.target_id || undefined,
        since: applied.since || undefined, until: applied.until || undefined, limit, cursor,
      },
    }),
    `audit ${JSON.stringify(applied)} ${limit} ${cursor ?? ''}`,
  );
  const apply = (e: FormEvent) => {
    e.preventDefault();
    set({ ...draft, cursor: null }, { push: true });
  };
  const field = (name: Filter, label: string, type: 'text' | 'datetime-local' = 'text') => (
    <div className="field">
      <label htmlFor={`audit-${name}`}>{label}</label>
      <input
        id={`audit-${name}`} type={type}
        value={type === 'datetime-local' ? toLocal(draft[name]) : draft[name]}
        onChange={(e) => setDraft({ ...draft, [name]: type === 'datetime-local' ? toIso(e.target.value) : e.target.value })}
      />
    </div>
  );
  return (
    <>
      <h2 id="admin-section">Audit log</h2>
      <form className="filters" onSubmit={apply} aria-label="Filter the audit log">
        {field('actor', 'Actor (e-mail, service:<name>, cli)')}
        {field('action', 'Action (e.g. user.disable)')}
        {field('target_type', 'Target type')}
        {field('target_id', 'Target id')}
        {field('since', 'From (UTC)', 'datetime-local')}
        {field('until', 'Until (UTC)', 'datetime-local')}
        <button type="submit" className="primary">Apply filters</button>
        <button type="button" onClick={() => set(Object.fromEntries([...FILTERS, 'cursor'].map((f) => [f, null])), { push: true })}>Clear filters</button>
      </form>
      {list.status === 'loading' && <Loading what="the audit log" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No audit event matches these filters.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Audit events, newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Purpose</th><th scope="col">Details</th></tr></thead>
            <tbody>
              {list.data.items.map((e) => (
                <tr key={e.id}>
                  <td data-label="When"><Time iso={e.at} /></td>
                  <td data-label="Actor"><Link to={filterLink('actor', e.actor)} title={`Only events by ${e.actor}`}>{e.actor}</Link></td>
                  <td data-label="Action"><Link to={filterLink('action', e.action)} title={`Only ${e.action} events`}>{e.action}</Link></td>
                  <td data-label="Target">
                    {e.targetType}{' '}
                    {TARGET_PAGES[e.targetType] ? <Link to={`${TARGET_PAGES[e.targetType]}${e.targetId}`} className="entity">{e.targetId}</Link> : <Link to={filterLink('target_id', e.targetId)} title={`Only events about ${e.targetId}`}>{e.targetId}</Link>}
                  </td>
                  <td data-label="Purpose">{e.purpose ?? <span className="muted">—</span>}</td>
                  <td data-label="Details"><code className="small">{Object.keys(e.details).length ? JSON.stringify(e.details) : ''}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.status === 'ok' && <Pager next={list.data.nextCursor} what="audit events" />}
    </>
  );
}
