// Takedowns: drafts another person approves, approved ones to send, sent ones whose site is still
// up (or changed, or not checked yet) with a Check now button, and the sites that are down. The
// investigation page's "Request takedown" button (RequestTakedown) drafts one from a completed
// investigation: recipients from RDAP, the XARF report validated by the API.
import { useState } from 'react';
import { sdk } from '../api';
import { Empty, ErrorState, Loading, StatusBadge, Time, useLoad } from '../components';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link } from '../router';
import type { Schema } from '../../../sdk/src';

type Summary = Schema<'TakedownSummary'>;
type Action = { label: string; run: (t: Summary) => Promise<string> };

const approve: Action = {
  label: 'Approve',
  run: async (t) => {
    await sdk().request('post', '/takedowns/{id}/approve', { path: { id: t.id } });
    return `Approved the takedown of ${t.domain}.`;
  },
};
const send: Action = {
  label: 'Send',
  run: async (t) => {
    await sdk().request('post', '/takedowns/{id}/send', { path: { id: t.id } });
    return `Sending the takedown of ${t.domain} to its recipients.`;
  },
};
const check: Action = {
  label: 'Check now',
  run: async (t) => {
    const after = await sdk().request('post', '/takedowns/{id}/check', { path: { id: t.id } });
    return `${t.domain} is ${after.siteStatus}.`;
  },
};

function TakedownTable({ caption, rows, action, onDone }: { caption: string; rows: Summary[]; action?: Action; onDone: (message: string) => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const act = async (t: Summary) => {
    if (!action) return;
    setBusy(t.id);
    try {
      onDone(await action.run(t));
    } catch (err) {
      onDone(`Could not ${action.label.toLowerCase()} the takedown of ${t.domain}: ${describeError(err).sentence}`);
    } finally {
      setBusy(null);
    }
  };
  if (rows.length === 0) return <Empty>None.</Empty>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Site</th><th scope="col">Status</th><th scope="col">Site status</th><th scope="col">Requested by</th><th scope="col">Approved by</th>
            <th scope="col">Checked</th>{action && <th scope="col"><span className="sr-only">Actions</span></th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id}>
              <td data-label="Site" className="break"><Link to={`/investigations/${t.scanId}`}>{t.url}</Link></td>
              <td data-label="Status"><StatusBadge status={t.status} /></td>
              <td data-label="Site status">{t.siteStatus}{t.reinvestigationScanId && <> (<Link to={`/investigations/${t.reinvestigationScanId}`}>re-investigation</Link>)</>}</td>
              <td data-label="Requested by">{t.createdBy} <span className="muted small"><Time iso={t.createdAt} /></span></td>
              <td data-label="Approved by">{t.approvedBy ?? <span className="muted">not yet</span>}</td>
              <td data-label="Checked"><Time iso={t.checkedAt} /></td>
              {action && (
                <td>
                  <button type="button" disabled={busy === t.id} onClick={() => void act(t)} aria-label={`${action.label}: takedown of ${t.domain}`}>{action.label}</button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TakedownsPage() {
  const [list, reload] = useLoad(() => sdk().request('get', '/takedowns', { query: { limit: 500 } }), 'takedowns');
  const [notice, setNotice] = useState<string | null>(null);
  const done = (message: string) => {
    setNotice(message);
    reload();
  };
  if (list.status === 'loading') return <Loading what="takedowns" />;
  if (list.status === 'error') return <ErrorState error={list.error} retry={reload} />;
  if (list.status !== 'ok') return null;
  const items = list.data.items;
  const sent = items.filter((t) => t.status === 'sent' || t.status === 'sending');
  return (
    <>
      <h1>Takedowns</h1>
      <p className="muted">Abuse reports (XARF) to the registrars and hosts RDAP names. Request one from a completed investigation; another person approves it; it is mailed once to each recipient, and the site is checked daily until it is down.</p>
      {notice && <p role="status" className="ok-text">{notice}</p>}
      <h2>Drafts to approve</h2>
      <TakedownTable caption="Drafts to approve" rows={items.filter((t) => t.status === 'draft')} action={approve} onDone={done} />
      <h2>Approved, to send</h2>
      <TakedownTable caption="Approved takedowns to send" rows={items.filter((t) => t.status === 'approved')} action={send} onDone={done} />
      <h2>Sent, site still up</h2>
      <TakedownTable caption="Sent takedowns whose site is not down" rows={sent.filter((t) => t.siteStatus !== 'down')} action={check} onDone={done} />
      <h2>Down</h2>
      <TakedownTable caption="Sent takedowns whose site is down" rows={sent.filter((t) => t.siteStatus === 'down')} onDone={done} />
    </>
  );
}

/** The investigation page's button: drafts a takedown of a completed investigation. */
export function RequestTakedown({ scanId, status }: { scanId: string; status: string }) {
  const [state, setState] = useState<{ kind: 'idle' | 'busy' } | { kind: 'done'; recipients: string[] } | { kind: 'error'; message: string }>({ kind: 'idle' });
  if (status !== 'completed') return null;
  const request = async () => {
    setState({ kind: 'busy' });
    try {
      const t = await sdk().request('post', '/takedowns', { body: { scanId } });
      setState({ kind: 'done', recipients: t.recipients.map((r) => `${r.email} (${r.role})`) });
      invalidateLoads();
    } catch (err) {
      setState({ kind: 'error', message: describeError(err).sentence });
    }
  };
  return (
    <div className="takedown-request">
      <button type="button" onClick={() => void request()} disabled={state.kind === 'busy' || state.kind === 'done'}>Request takedown</button>
      {state.kind === 'done' && (
        <p role="status" className="ok-text small">
          Takedown drafted for {state.recipients.length ? state.recipients.join(', ') : 'no recipient RDAP named'}. Another analyst approves it on <Link to="/takedowns">Takedowns</Link>.
        </p>
      )}
      {state.kind === 'error' && <p role="alert" className="form-error small">Could not request a takedown: {state.message}</p>}
    </div>
  );
}
