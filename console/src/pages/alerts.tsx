// Alerts and watchlists: the caller's alerts (their watchlists' and their roles'), filtered by
// acknowledgement in the URL (?show=open|acknowledged|all), each with its deliveries and an
// Acknowledge button; the caller's watchlists with their target (a link), rules and channels, and
// a Delete button. Watchlists are created from an entity page (WatchButton).
import { useState } from 'react';
import { sdk } from '../api';
import { Empty, ErrorState, Loading, Time, useLoad } from '../components';
import { describeError } from '../errors';
import { Link, useSearchParam } from '../router';
import type { Schema } from '../../../sdk/src';

type Alert = Schema<'Alert'>;
type Watchlist = Schema<'Watchlist'>;
type Rule = Schema<'WatchRule'>;

function ruleText(r: Rule): string {
  switch (r.kind) {
    case 'new_sightings': return 'new sightings';
    case 'new_linked_sites': return 'new linked sites';
    case 'loss_threshold': return `loss ≥ ${r.amount} ${r.currency}`;
    case 'risk_change': return `risk change ≥ ${r.minDelta}`;
    default: return 'rule';
  }
}

function targetPath(t: Watchlist['target']): string {
  if (t.kind === 'entity') return `/entities/${t.id}`;
  if (t.kind === 'campaign') return `/campaigns/${t.id}`;
  return `/search?saved=${t.id}`;
}

export function AlertsPage() {
  const [show, setShow] = useSearchParam('show', 'open');
  const acknowledged = show === 'open' ? 'false' : show === 'acknowledged' ? 'true' : undefined;
  const [list, reload] = useLoad(() => sdk().request('get', '/alerts', { query: { acknowledged, limit: 100 } }), `alerts:${show}`);
  const [notice, setNotice] = useState<string | null>(null);
  const ack = async (a: Alert) => {
    try {
      await sdk().request('post', '/alerts/{id}/acknowledge', { path: { id: a.id } });
      setNotice(`Acknowledged: ${a.title}`);
      reload();
    } catch (err) {
      setNotice(`Could not acknowledge: ${describeError(err).sentence}`);
    }
  };
  return (
    <>
      <h1>Alerts</h1>
      <div className="field">
        <label htmlFor="alerts-show">Show</label>
        <select id="alerts-show" value={show} onChange={(e) => setShow(e.target.value)}>
          <option value="open">Not acknowledged</option>
          <option value="acknowledged">Acknowledged</option>
          <option value="all">All</option>
        </select>
      </div>
      {notice && <p role="status" className="ok-text">{notice}</p>}
      {list.status === 'loading' && <Loading what="alerts" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>No alert here. Watch an entity from its page to be alerted.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Alerts, newest first</caption>
            <thead><tr><th scope="col">Alert</th><th scope="col">Kind</th><th scope="col">Raised</th><th scope="col">Delivery</th><th scope="col">Acknowledged</th></tr></thead>
            <tbody>
              {list.data.items.map((a) => (
                <tr key={a.id}>
                  <td data-label="Alert">{a.title}</td>
                  <td data-label="Kind">{a.kind.replace(/_/g, ' ')}</td>
                  <td data-label="Raised"><Time iso={a.createdAt} /></td>
                  <td data-label="Delivery">{a.deliveries.length === 0 ? <span className="muted">listed here only</span> : a.deliveries.map((d) => `${d.channel}: ${d.status}${d.attempts > 1 ? ` (${d.attempts} attempts)` : ''}`).join(', ')}</td>
                  <td data-label="Acknowledged">
                    {a.acknowledgedAt ? <><Time iso={a.acknowledgedAt} /> <span className="muted small">by {a.acknowledgedBy}</span></> : <button type="button" onClick={() => void ack(a)} aria-label={`Acknowledge: ${a.title}`}>Acknowledge</button>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export function WatchlistsPage() {
  const [list, reload] = useLoad(() => sdk().request('get', '/watchlists', { query: { limit: 200 } }), 'watchlists');
  const [notice, setNotice] = useState<string | null>(null);
  const remove = async (w: Watchlist) => {
    try {
      await sdk().request('delete', '/watchlists/{id}', { path: { id: w.id } });
      setNotice(`Deleted the watchlist ${w.name}.`);
      reload();
    } catch (err) {
      setNotice(`Could not delete: ${describeError(err).sentence}`);
    }
  };
  return (
    <>
      <h1>Watchlists</h1>
      <p className="muted">Watch an entity from its page (the Watch button). Alerts appear under <Link to="/alerts">Alerts</Link> and are e-mailed to you.</p>
      {notice && <p role="status" className="ok-text">{notice}</p>}
      {list.status === 'loading' && <Loading what="watchlists" />}
      {list.status === 'error' && <ErrorState error={list.error} retry={reload} />}
      {list.status === 'ok' && list.data.items.length === 0 && <Empty>You watch nothing yet.</Empty>}
      {list.status === 'ok' && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Your watchlists, newest first</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Watches</th><th scope="col">Rules</th><th scope="col">Channels</th><th scope="col">Last evaluated</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {list.data.items.map((w) => (
                <tr key={w.id}>
                  <td data-label="Name">{w.name}</td>
                  <td data-label="Watches"><Link to={targetPath(w.target)}>{w.target.kind.replace('_', ' ')}</Link></td>
                  <td data-label="Rules">{w.rules.map(ruleText).join(', ')}</td>
                  <td data-label="Channels">{[w.email ? 'e-mail' : null, w.webhookUrl ? 'webhook' : null].filter(Boolean).join(', ') || 'console only'}</td>
                  <td data-label="Last evaluated"><Time iso={w.evaluatedAt} /></td>
                  <td><button type="button" onClick={() => void remove(w)} aria-label={`Delete the watchlist ${w.name}`}>Delete</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** The entity page's Watch button: watches the entity for new sightings, new linked sites and risk changes. */
export function WatchButton({ entityId, label }: { entityId: string; label: string }) {
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; name: string } | { kind: 'error'; message: string }>({ kind: 'idle' });
  const watch = async () => {
    setState({ kind: 'busy' });
    try {
      const w = await sdk().request('post', '/watchlists', {
        body: { name: `Watch ${label}`.slice(0, 200), target: { kind: 'entity', id: entityId }, rules: [{ kind: 'new_sightings' }, { kind: 'new_linked_sites' }, { kind: 'risk_change', minDelta: 10 }], email: true },
      });
      setState({ kind: 'done', name: w.name });
    } catch (err) {
      setState({ kind: 'error', message: describeError(err).sentence });
    }
  };
  return (
    <div className="watch">
      <button type="button" onClick={() => void watch()} disabled={state.kind === 'busy' || state.kind === 'done'} aria-label={`Watch ${label}`}>
        {state.kind === 'done' ? 'Watching' : 'Watch'}
      </button>
      {state.kind === 'done' && <p role="status" className="ok-text small">Watching as “{state.name}”: new sightings, new linked sites, risk changes. See <Link to="/watchlists">Watchlists</Link>.</p>}
      {state.kind === 'error' && <p role="alert" className="form-error small">Could not watch: {state.message}</p>}
    </div>
  );
}
