// The funnel agent in the investigation detail: the live guidance panel (the agent waits for a human:
// a captcha, a choice, an unknown step), and on the Overview the funnel's states, what the site asked
// the persona for (pii_exposures), the persona itself (analysts, on demand, with a purpose, never
// cached) and the mail the persona received (evidence, downloadable with a purpose).
import { Fragment, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError, download, objectUrl, sdk } from '../api';
import { Empty, Time } from '../components';
import { describeError } from '../errors';
import { getIdentityHeader } from '../identity';
import { hasRole, useMe } from '../session';
import type { InvestigationDetail } from '../types';
import type { Schema } from '../../../sdk/src';

type GuidanceRequest = Schema<'GuidanceRequest'>;
type Persona = Schema<'InvestigationPersona'>;

const GUIDANCE_POLL_MS = 2000;
/** The funnel's named states, in the order the workflow walks them. */
export const FUNNEL_STATES = ['REGISTER', 'VERIFY_CONTACT', 'LOGIN', 'NAVIGATE_DEPOSIT', 'AWAITING_GUIDANCE'] as const;
/** A field the agent names by a CSS selector (not a label): not worth showing to a person. */
const SELECTOR = /^[[#.]|[=\]>]/;
const KIND_LABELS: Record<GuidanceRequest['kind'], string> = { captcha: 'Captcha', choice: 'A choice', unknown: 'An unknown step' };

/** What a failed guidance reply means, as a sentence. */
function replyError(err: unknown): string {
  if (err instanceof ApiError && err.status === 409) return 'This question has expired or was already answered; the panel shows the next one, if any.';
  if (err instanceof ApiError && err.status === 404) return 'This question is no longer known to the platform.';
  return describeError(err).sentence;
}

/**
 * The pending question of a scan, polled while it is active; null when nothing is pending (404).
 * `paused`: the analyst is typing an answer or confirming an abort; the question stays on screen
 * until they send (a question answered meanwhile is then a 409, said as a sentence).
 */
function useGuidance(scanId: string, active: boolean, paused: boolean) {
  const id = getIdentityHeader()?.value ?? '';
  return useQuery({
    queryKey: ['guidance', scanId, id],
    queryFn: async (): Promise<GuidanceRequest | null> => {
      try {
        return await sdk().request('get', '/investigations/ssi/{scan_id}/guidance', { path: { scan_id: scanId } } as never) as GuidanceRequest;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    enabled: active,
    refetchInterval: active && !paused ? GUIDANCE_POLL_MS : false,
    retry: false,
  });
}

function GuidanceScreenshot({ path, question }: { path: string; question: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [large, setLarge] = useState(false);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    objectUrl(path).then(
      (u) => {
        url = u;
        if (live) setSrc(u);
        else URL.revokeObjectURL(u);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  useEffect(() => {
    if (!large) return;
    const onKey = (e: globalThis.KeyboardEvent) => e.key === 'Escape' && setLarge(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [large]);
  if (failed) return <p className="muted">The screenshot could not be loaded.</p>;
  if (!src) return <p className="muted" role="status">Loading the screenshot…</p>;
  const alt = `The page as the agent saw it when it asked: ${question}`;
  return (
    <>
      <button type="button" className="shot-thumb" onClick={() => setLarge(true)} aria-label="Enlarge the screenshot">
        <img src={src} alt={alt} />
      </button>
      {large && (
        <div className="shot-overlay" role="dialog" aria-modal="true" aria-label="Screenshot, enlarged" onClick={() => setLarge(false)}>
          <img src={src} alt={alt} />
          <button type="button" autoFocus onClick={() => setLarge(false)}>Close</button>
        </div>
      )}
    </>
  );
}

/**
 * The question the agent waits on, live: shown while the scan is in AWAITING_GUIDANCE, gone when it
 * moves on. The answer is typed into the field the agent asked about; "Abort the funnel" (after a
 * confirmation) cancels it.
 */
export function GuidancePanel({ scanId, active, onReplied }: { scanId: string; active: boolean; onReplied: () => void }) {
  const me = useMe();
  const allowed = hasRole(me, 'admin', 'analyst');
  const [answer, setAnswer] = useState('');
  const [confirming, setConfirming] = useState(false);
  const g = useGuidance(scanId, active && allowed, answer.trim() !== '' || confirming);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const input = useRef<HTMLInputElement | null>(null);
  const request = g.data ?? null;
  const requestId = request?.requestId ?? null;
  useEffect(() => {
    setAnswer('');
    setConfirming(false);
    if (!requestId) return;
    setError(null);
    setSent(null);
    input.current?.focus();
  }, [requestId]);
  if (!allowed || !request || !active) {
    if (error) return <p className="form-error" role="alert">{error}</p>;
    return sent ? <p className="muted" role="status">{sent}</p> : null;
  }

  const reply = async (body: { answer: string } | { action: 'abort' }) => {
    setBusy(true);
    setError(null);
    try {
      await sdk().request('post', '/investigations/ssi/{scan_id}/guidance', { path: { scan_id: scanId }, body: { requestId: request.requestId, ...body } } as never);
      setSent('answer' in body ? 'Answer sent: the agent goes on.' : 'The funnel was aborted.');
      await g.refetch();
      onReplied();
    } catch (err) {
      setError(replyError(err));
      void g.refetch();
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (answer.trim()) void reply({ answer });
  };
  return (
    <section className="card guidance" aria-labelledby="guidance-heading" aria-live="polite">
      <h2 id="guidance-heading">The agent needs you</h2>
      <p><span className="badge badge-guidance">{KIND_LABELS[request.kind] ?? request.kind}</span> <strong className="guidance-question">{request.question}</strong></p>
      <p className="muted small">{request.field && !SELECTOR.test(request.field) ? `Your answer is typed into the field “${request.field}”.` : 'Your answer is typed into the field the agent asked about.'}</p>
      <GuidanceScreenshot path={request.screenshotUrl} question={request.question} />
      <form onSubmit={submit} className="fields">
        <div className="field grow">
          <label htmlFor="guidance-answer">Your answer</label>
          <input id="guidance-answer" ref={input} autoComplete="off" value={answer} onChange={(e) => setAnswer(e.target.value)} disabled={busy} />
        </div>
        <button type="submit" className="primary" disabled={busy || !answer.trim()}>Send the answer</button>
        {!confirming && <button type="button" onClick={() => setConfirming(true)} disabled={busy}>Abort the funnel</button>}
      </form>
      {confirming && (
        <div className="notice" role="alertdialog" aria-label="Abort the funnel?">
          <p>Abort the funnel? The agent stops walking this site’s sign-up; it cannot be resumed.</p>
          <button type="button" onClick={() => void reply({ action: 'abort' })} disabled={busy}>Yes, abort the funnel</button>{' '}
          <button type="button" onClick={() => setConfirming(false)} disabled={busy}>Keep waiting</button>
        </div>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </section>
  );
}

/** The persona the funnel used: analysts ask for it with a purpose; its values live only in this view. */
function PersonaReveal({ scanId }: { scanId: string }) {
  const [open, setOpen] = useState(false);
  const [purpose, setPurpose] = useState('');
  const [persona, setPersona] = useState<Persona | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const p = await sdk().request('get', '/investigations/ssi/{scan_id}/persona', { path: { scan_id: scanId }, query: { purpose: purpose.trim() } } as never) as Persona;
      setPersona(p);
      setOpen(false);
    } catch (err) {
      setError(err instanceof ApiError && err.status === 404 ? 'This investigation used no persona (it did not register, or registering was off).' : describeError(err).sentence);
    } finally {
      setBusy(false);
    }
  };
  const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
  if (persona) {
    const v = persona.values;
    const rows: Array<[string, string]> = [
      ['Name', v.fullName], ['Username', v.username], ['E-mail', v.email], ['Password', v.password], ['Phone', v.phone],
      ['Birth date', v.birthDate], ['Address', [v.addressLine, v.postcode, v.city, v.country].filter(Boolean).join(', ')],
    ];
    return (
      <div className="card persona">
        <p className="muted small">Persona for {persona.site}{persona.reused ? ' (reused from an earlier investigation)' : ''}; {persona.registered ? 'registered on the site' : 'not registered'}. This read was audited.</p>
        <dl className="facts">{rows.map(([k, val]) => <Fragment key={k}><dt>{k}</dt><dd className="break"><code>{val}</code></dd></Fragment>)}</dl>
        <button type="button" onClick={() => setPersona(null)}>Hide persona</button>
      </div>
    );
  }
  return (
    <>
      <button type="button" onClick={() => { setOpen(true); setError(null); }}>Reveal persona</button>
      {open && (
        <form className="card reveal" role="dialog" aria-label="Reveal the persona" onSubmit={submit} onKeyDown={onKey}>
          <p>Every read of a persona is audited with its purpose.</p>
          <div className="field grow">
            <label htmlFor="persona-purpose">Purpose</label>
            <input id="persona-purpose" autoFocus required maxLength={500} value={purpose} onChange={(e) => setPurpose(e.target.value)} />
          </div>
          <div className="row">
            <button type="submit" className="primary" disabled={busy || !purpose.trim()}>Reveal</button>
            <button type="button" onClick={() => setOpen(false)}>Cancel</button>
          </div>
        </form>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
    </>
  );
}

function MailList({ inv, canDownload }: { inv: InvestigationDetail; canDownload: boolean }) {
  const [purpose, setPurpose] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  if (inv.mail.length === 0) return <Empty>The persona received no mail.</Empty>;
  const get1 = async (path: string) => {
    setMessage(null);
    try {
      const r = await download(path, { query: { purpose: purpose.trim() } });
      setMessage(`Downloaded ${r.filename}`);
    } catch (err) {
      setMessage(`Download failed: ${describeError(err).sentence}`);
    }
  };
  return (
    <>
      {canDownload && (
        <div className="field">
          <label htmlFor="mail-purpose">Purpose of a download</label>
          <input id="mail-purpose" value={purpose} maxLength={500} onChange={(e) => setPurpose(e.target.value)} />
        </div>
      )}
      <div className="table-wrap">
        <table>
          <caption className="sr-only">Mail the persona received</caption>
          <thead><tr><th scope="col">From</th><th scope="col">Subject</th><th scope="col">Received</th><th scope="col">SHA-256</th>{canDownload && <th scope="col">Download</th>}</tr></thead>
          <tbody>
            {inv.mail.map((m) => (
              <tr key={m.id}>
                <td data-label="From" className="break">{m.from}</td>
                <td data-label="Subject" className="break">{m.subject}</td>
                <td data-label="Received"><Time iso={m.receivedAt} /></td>
                <td data-label="SHA-256"><code title={m.sha256}>{m.sha256.slice(0, 16)}…</code></td>
                {canDownload && (
                  <td data-label="Download">
                    <button type="button" disabled={!purpose.trim()} onClick={() => void get1(m.downloadPath)} aria-label={`Download the mail “${m.subject}”`}>.eml</button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canDownload && !purpose.trim() && <p className="muted small">Give a purpose to download a mail (it goes into the chain of custody).</p>}
      {message && <p role="status" className="muted">{message}</p>}
    </>
  );
}

/** The funnel on the Overview: states passed, what the site asked for, the persona, the mail. */
export function FunnelOverview({ inv }: { inv: InvestigationDetail }) {
  const me = useMe();
  const entered = inv.agentActions.filter((a) => a.action === 'enter_state').map((a) => a.target);
  const funnel = entered.filter((s) => (FUNNEL_STATES as readonly string[]).includes(s));
  const outcome = [...inv.agentActions].reverse().find((a) => a.action === 'funnel_outcome');
  const exposures = inv.piiExposures;
  if (funnel.length === 0 && exposures.length === 0 && inv.mail.length === 0 && !outcome) return null;
  return (
    <section aria-labelledby="funnel-heading" className="funnel">
      <h3 id="funnel-heading">The funnel</h3>
      <ol className="funnel-states" aria-label="States passed">
        {entered.map((s, i) => <li key={i} className={(FUNNEL_STATES as readonly string[]).includes(s) ? 'funnel-state' : ''}>{s}</li>)}
      </ol>
      {outcome?.outcome && <p>Where the funnel ended: <strong>{outcome.outcome}</strong></p>}
      <p className="muted small">Each step’s screenshot and DOM are on the Pages and Actions tabs.</p>
      <h4>What the site asked for</h4>
      {exposures.length === 0 ? <Empty>The site asked the persona for nothing.</Empty> : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">What the site asked the persona for</caption>
            <thead><tr><th scope="col">Kind</th><th scope="col">Field</th><th scope="col">Page</th><th scope="col">State</th></tr></thead>
            <tbody>
              {exposures.map((e, i) => (
                <tr key={i}>
                  <td data-label="Kind">{e.kind}</td>
                  <td data-label="Field">{e.field ?? <span className="muted">—</span>}</td>
                  <td data-label="Page" className="break">{e.pageUrl}</td>
                  <td data-label="State">{e.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hasRole(me, 'analyst') && (
        <>
          <h4>Persona</h4>
          <PersonaReveal scanId={inv.scanId} />
        </>
      )}
      <h4>Mail received</h4>
      <MailList inv={inv} canDownload={hasRole(me, 'admin', 'analyst')} />
    </section>
  );
}
