// Investigations and cases: a case's linked investigations with "Unlink" (confirmed), the case
// page's "Link investigation" (a scan id, or a URL or host searched among active and ended
// investigations), the investigation page's "Add to case" (a case searched by title), and the
// intake page's "Investigate" next to each reported URL (starts the investigation and, when the
// intake is attached to a case, links it there). Links go through POST/DELETE
// /cases/{case_id}/investigations, which the case's timeline and dossiers read.
import { useState, type FormEvent } from 'react';
import { sdk } from '../api';
import { Empty, StatusBadge } from '../components';
import { describeError } from '../errors';
import { invalidateLoads } from '../query';
import { Link, navigate } from '../router';
import type { CaseDetail, InvestigationSummary } from '../types';
import { ConfirmAction } from './case-work-ui';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function linkScan(caseId: string, scanId: string) {
  return sdk().request('post', '/cases/{case_id}/investigations', { path: { case_id: caseId }, body: { scanId } } as never);
}

/** The scans whose URL holds the text (or whose id it is), newest first, active and ended. */
async function findScans(text: string): Promise<InvestigationSummary[]> {
  const t = text.trim();
  if (UUID.test(t)) return [(await sdk().investigations.get(t)) as unknown as InvestigationSummary];
  let host = t;
  try {
    host = new URL(t).hostname;
  } catch {
    // Not a URL: searched as (part of) a host name.
  }
  const [active, ended] = await Promise.all([
    sdk().investigations.active({ domain: host, limit: 50 }).first(),
    sdk().investigations.history({ domain: host, limit: 50 }).first(),
  ]);
  const all = [...active.items, ...ended.items] as InvestigationSummary[];
  return t.includes('/') ? all.filter((s) => s.url.includes(t) || (s.finalUrl ?? '').includes(t)) : all;
}

export function CaseInvestigations({ d, canWrite, done }: { d: CaseDetail; canWrite: boolean; done: () => void }) {
  const [text, setText] = useState('');
  const [found, setFound] = useState<InvestigationSummary[] | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const linked = new Set(d.investigations.map((i) => i.id));
  const search = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setMsg(null);
    try {
      setFound(await findScans(text));
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  const link = async (scanId: string) => {
    setError(null);
    try {
      await linkScan(d.id, scanId);
      setMsg(`Investigation ${scanId} linked.`);
      setFound(null);
      setText('');
      invalidateLoads();
      done();
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  return (
    <>
      {d.investigations.length === 0 ? <Empty>None linked.</Empty> : (
        <ul aria-label="Linked investigations">
          {d.investigations.map((i) => (
            <li key={i.id}>
              <Link to={`/investigations/${i.id}`}>{i.id}</Link> <span className="muted small">linked by {i.linkedBy}</span>{' '}
              {canWrite && (
                <ConfirmAction
                  label={`Unlink ${i.id.slice(0, 8)}`}
                  question={<>Unlink investigation <code>{i.id}</code> from this case? The investigation itself stays.</>}
                  confirmLabel="Yes, unlink"
                  run={async () => {
                    await sdk().request('delete', '/cases/{case_id}/investigations/{scan_id}', { path: { case_id: d.id, scan_id: i.id } } as never);
                    invalidateLoads();
                    done();
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {canWrite && (
        <form className="fields" onSubmit={search} aria-label="Link an investigation">
          <div className="field grow">
            <label htmlFor="link-scan">Link investigation (URL, host or scan id)</label>
            <input id="link-scan" required value={text} onChange={(e) => setText(e.target.value)} />
          </div>
          <button type="submit" disabled={!text.trim()}>Find investigations</button>
        </form>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      {msg && <p role="status">{msg}</p>}
      {found && (found.length === 0 ? <Empty>No investigation matches.</Empty> : (
        <ul aria-label="Matching investigations">
          {found.map((s) => (
            <li key={s.scanId}>
              <StatusBadge status={s.status} /> {s.label || s.url} <span className="muted small">{s.scanId}</span>{' '}
              {linked.has(s.scanId) ? <span className="muted">already linked</span> : <button type="button" onClick={() => link(s.scanId)}>Link {s.label || s.url}</button>}
            </li>
          ))}
        </ul>
      ))}
    </>
  );
}

/** The investigation page's "Add to case": a case found by its title. */
export function AddToCase({ scanId }: { scanId: string }) {
  const [q, setQ] = useState('');
  const [cases, setCases] = useState<Array<{ id: string; title: string; status: string }> | null>(null);
  const [msg, setMsg] = useState<{ caseId: string; title: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const search = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      setCases((await sdk().cases.list({ q: q.trim(), limit: 20 }).first()).items);
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  const add = async (c: { id: string; title: string }) => {
    setError(null);
    try {
      await linkScan(c.id, scanId);
      setMsg({ caseId: c.id, title: c.title });
      setCases(null);
      invalidateLoads();
    } catch (err) {
      setError(describeError(err).sentence);
    }
  };
  return (
    <section aria-labelledby="add-to-case-heading">
      <h2 id="add-to-case-heading">Add to case</h2>
      <form className="fields" onSubmit={search} aria-label="Find a case">
        <div className="field grow">
          <label htmlFor="add-case-q">Case title contains</label>
          <input id="add-case-q" required value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        <button type="submit" disabled={!q.trim()}>Find cases</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
      {msg && <p role="status">Added to case <Link to={`/cases/${msg.caseId}`}>{msg.title}</Link>.</p>}
      {cases && (cases.length === 0 ? <Empty>No case matches.</Empty> : (
        <ul aria-label="Matching cases">
          {cases.map((c) => (
            <li key={c.id}><StatusBadge status={c.status} /> {c.title} <button type="button" onClick={() => add(c)}>Add to {c.title}</button></li>
          ))}
        </ul>
      ))}
    </section>
  );
}

/** The intake page's "Investigate" for one reported URL; on a case's intake, started for that case (the API links it). */
export function InvestigateUrl({ url, caseId }: { url: string; caseId: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const started = await sdk().investigations.start({ url, caseId: caseId ?? undefined });
      navigate(`/investigations/${started.scanId}`);
    } catch (err) {
      setError(describeError(err).sentence);
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={start} disabled={busy} aria-label={`Investigate ${url}`}>{busy ? 'Starting…' : 'Investigate'}</button>
      {error && <span className="form-error" role="alert"> Could not start: {error}</span>}
    </>
  );
}
