// One investigation with tabs: Overview, Results (the wallet table, each wallet with the record it
// was seen in and the screenshot after the step that revealed it), Pages (screenshots), Actions
// (the agent's timeline) and Evidence (bundle, LEA package, PDF: shown when the API has them).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { availablePaths, download, objectUrl, sdk, type SavedFile } from '../api';
import { Column, CopyButton, Empty, ErrorState, Loading, SortableTable, StatusBadge, Time, useLoad } from '../components';
import { EntityLink, entityTypeOf } from '../entity-link';
import { explorerUrl } from '../explorers';
import { Link, navigate, useSearchParam } from '../router';
import type { InvestigationDetail, ScanWallet, Task } from '../types';
import { FunnelOverview, GuidancePanel } from './investigation-funnel';
import { AddToCampaign, investigationMembers } from './campaign-add';
import { InvestigationActions } from './investigation-actions';
import { hasRole, useMe } from '../session';
import { AddToCase } from './case-investigations';
import { ShotThumb, ShotViewer, type Shot } from './investigation-screenshots';
import { SimilarSites } from './investigation-similar';
import { RequestTakedown } from './takedowns';
import { ClassificationPanel } from './classification';

export const TABS = ['overview', 'results', 'pages', 'actions', 'evidence'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = { overview: 'Overview', results: 'Results', pages: 'Pages', actions: 'Actions', evidence: 'Evidence' };
const RUNNING = new Set(['queued', 'running']);

function durationText(from: string | null, to: string | null): string {
  if (!from || !to) return '—';
  const s = Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
  return s < 90 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

function LiveTask({ taskId, onEnd }: { taskId: string; onEnd: () => void }) {
  const [task, setTask] = useState<Task | null>(null);
  const ended = useRef(false);
  useEffect(() => {
    let live = true;
    const poll = async () => {
      try {
        const t = await sdk().tasks.get(taskId);
        if (!live) return;
        setTask(t);
        if (!RUNNING.has(t.status) && !ended.current) {
          ended.current = true;
          onEnd();
        }
      } catch {
        // keep the last state; the next poll tries again
      }
    };
    void poll();
    const timer = setInterval(poll, 1500);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [taskId, onEnd]);
  if (!task) return <p className="live" role="status">Waiting for the task…</p>;
  const p = task.progress;
  return (
    <div className="live card" role="status" aria-live="polite">
      <strong>Running:</strong> state <strong>{p?.stage ?? task.status}</strong>
      {p?.percent !== null && p?.percent !== undefined && <> <progress max={100} value={p.percent} aria-label="Progress" /> {Math.round(p.percent)}%</>}
      {task.lastFailure && <p className="warn">Retrying {task.lastFailure.activity} (attempt {task.lastFailure.attempt}): {task.lastFailure.message}</p>}
    </div>
  );
}

function Overview({ inv }: { inv: InvestigationDetail }) {
  return (
    <>
      <dl className="facts">
        <dt>Target</dt><dd className="break">{inv.url}</dd>
        <dt>Final URL</dt><dd className="break">{inv.finalUrl ?? <span className="muted">not reached yet</span>}</dd>
        <dt>Status</dt><dd><StatusBadge status={inv.status} /> state {inv.state}</dd>
        {inv.error && <><dt>Error</dt><dd className="error-text">{inv.error}</dd></>}
        <dt>Requested by</dt><dd>{inv.requestedBy}</dd>
        <dt>Created</dt><dd><Time iso={inv.createdAt} /></dd>
        <dt>Started</dt><dd><Time iso={inv.startedAt} /></dd>
        <dt>Completed</dt><dd><Time iso={inv.completedAt} /></dd>
        <dt>Duration</dt><dd>{durationText(inv.startedAt, inv.completedAt)}</dd>
        <dt>Wallets</dt><dd>{inv.wallets.length}</dd>
        <dt>Pages</dt><dd>{inv.pages.length}</dd>
        {inv.caseId && <><dt>Case</dt><dd><Link to={`/cases/${inv.caseId}`}>{inv.caseId}</Link></dd></>}
      </dl>
      <h3>Redirect chain</h3>
      {inv.redirectChain.length === 0 ? (
        <Empty>No redirect recorded (yet).</Empty>
      ) : (
        <ol className="chain">
          {inv.redirectChain.map((hop, i) => (
            <li key={i}><span className="break">{hop.url}</span> <span className="muted">({hop.kind}{hop.status ? `, HTTP ${hop.status}` : ''})</span></li>
          ))}
        </ol>
      )}
      {inv.pii.length > 0 && (
        <>
          <h3>Contact data found on the site</h3>
          <ul>{inv.pii.map((p, i) => <li key={i}>{p.kind}: {entityTypeOf(p.kind) ? <EntityLink type={entityTypeOf(p.kind)!} value={p.value} /> : p.value} <span className="muted small">on {p.pageUrl}</span></li>)}</ul>
        </>
      )}
      <FunnelOverview inv={inv} />
      <SimilarSites scanId={inv.scanId} />
    </>
  );
}

function Results({ inv }: { inv: InvestigationDetail }) {
  const [text, setText] = useSearchParam('filter');
  const [network, setNetwork] = useSearchParam('network');
  const [confidence, setConfidence] = useSearchParam('confidence');
  const [message, setMessage] = useState<string | null>(null);
  const networks = [...new Set(inv.wallets.map((w) => w.network))].sort();
  const needle = text.trim().toLowerCase();
  const rows = inv.wallets.filter(
    (w) => (!network || w.network === network) && (!confidence || w.confidence === confidence) &&
      (!needle || [w.address, w.token, w.network, w.source, w.pageUrl ?? ''].some((v) => v.toLowerCase().includes(needle))),
  );
  const exportAs = async (format: 'csv' | 'xlsx') => {
    setMessage(null);
    try {
      const r = await download(`/investigations/ssi/${inv.scanId}/wallets.${format}`);
      setMessage(`Downloaded ${r.filename || `wallets.${format}`}`);
    } catch (err) {
      setMessage(`Export failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  const columns: Column<ScanWallet>[] = [
    {
      key: 'address', label: 'Address', value: (w) => w.address,
      render: (w) => {
        const href = explorerUrl(w.network, w.address);
        return (
          <span className="address">
            <EntityLink type="wallet" value={w.address}><code>{w.address}</code></EntityLink> <CopyButton value={w.address} label={`address ${w.address}`} />
            {href && <a href={href} target="_blank" rel="noopener noreferrer" aria-label={`Open ${w.address} on a ${w.network} explorer`}>Explorer ↗</a>}
            {' '}<Link to={`/wallets?address=${encodeURIComponent(w.address)}`} aria-label={`Other sites with ${w.address}`}>Other sites</Link>
          </span>
        );
      },
    },
    { key: 'token', label: 'Token', value: (w) => w.token },
    { key: 'network', label: 'Network', value: (w) => w.network },
    { key: 'confidence', label: 'Confidence', value: (w) => ({ high: 3, medium: 2, low: 1 })[w.confidence] ?? 0, render: (w) => <span className={`conf conf-${w.confidence}`}>{w.confidence}</span> },
    { key: 'source', label: 'Source', value: (w) => w.source },
    { key: 'page', label: 'Page', value: (w) => w.pageUrl ?? '', render: (w) => (w.pageUrl ? <span className="break">{w.pageUrl}</span> : <span className="muted">—</span>) },
    { key: 'seen', label: 'Seen in', value: (w) => w.provenance?.warcTargetUri ?? '', render: (w) => <SeenIn wallet={w} /> },
  ];
  return (
    <>
      <div className="toolbar">
        <div className="field grow">
          <label htmlFor="w-filter">Filter</label>
          <input id="w-filter" type="search" placeholder="address, token, source, page" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="w-network">Network</label>
          <select id="w-network" value={network} onChange={(e) => setNetwork(e.target.value)}>
            <option value="">All</option>
            {networks.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="w-conf">Confidence</label>
          <select id="w-conf" value={confidence} onChange={(e) => setConfidence(e.target.value)}>
            <option value="">All</option><option value="high">high</option><option value="medium">medium</option><option value="low">low</option>
          </select>
        </div>
        <button type="button" onClick={() => exportAs('csv')}>Export CSV</button>
        <button type="button" onClick={() => exportAs('xlsx')}>Export XLSX</button>
      </div>
      {message && <p role="status" className="muted">{message}</p>}
      <p className="muted small" aria-live="polite">{rows.length} of {inv.wallets.length} wallets</p>
      {inv.wallets.length === 0 ? (
        <Empty>{RUNNING.has(inv.status) ? 'No wallet found yet; the table fills as the agent works.' : 'This investigation found no wallet.'}</Empty>
      ) : rows.length === 0 ? (
        <Empty>No wallet matches these filters.</Empty>
      ) : (
        <SortableTable caption="Wallets found by this investigation" rows={rows} columns={columns} rowKey={(w) => `${w.network}:${w.token}:${w.address}`} />
      )}
    </>
  );
}

/**
 * Where a wallet was seen: the WARC record of the evidence bundle that holds it, the step that
 * revealed it, and the screenshot taken then (fetched only when asked for: each download is a
 * custody entry).
 */
function SeenIn({ wallet }: { wallet: ScanWallet }) {
  const [open, setOpen] = useState(false);
  const p = wallet.provenance;
  if (!p) return <span className="muted small">{wallet.provenanceReason ?? '—'}</span>;
  return (
    <span className="seen-in small">
      <span className="break" title={p.warcRecordId}>{p.warcRecordType} <code>{p.warcTargetUri}</code></span>
      <br /><span className="badge">{p.state}</span> {p.step}
      <br /><code className="muted" title="WARC-Record-ID">{p.warcRecordId}</code>
      {p.screenshotDownloadPath && (
        <>
          <br />
          <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide screenshot' : 'Screenshot after this step'}
          </button>
          {open && <Screenshot path={p.screenshotDownloadPath} alt={`Screenshot after ${p.step} on ${p.pageUrl}`} />}
        </>
      )}
    </span>
  );
}

function Screenshot({ path, alt }: { path: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    objectUrl(path).then(
      (u) => {
        url = u;
        if (live) setSrc(u);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  if (failed) return <p className="muted">Screenshot unavailable.</p>;
  if (!src) return <p className="muted" role="status">Loading screenshot…</p>;
  return <img src={src} alt={alt} loading="lazy" />;
}

function Pages({ inv }: { inv: InvestigationDetail }) {
  const [viewing, setViewing] = useSearchParam('shot');
  if (inv.pages.length === 0) return <Empty>No page captured {RUNNING.has(inv.status) ? 'yet' : ''}.</Empty>;
  const shots: Shot[] = inv.pages.map((p) => ({ path: p.artifacts.screenshot.downloadPath, alt: `Screenshot of ${p.url}`, caption: p.title || p.url }));
  const open = viewing === '' ? -1 : Math.min(Number(viewing) - 1, shots.length - 1);
  return (
    <>
      <ul className="pages">
        {inv.pages.map((p, i) => (
          <li key={p.id} className="card">
            <h3 className="break">{p.title || p.url}</h3>
            <p className="muted small break">{p.url} · HTTP {p.httpStatus ?? '—'} · {p.serverIp ?? 'no IP'} · state {p.foundInState} · <Time iso={p.capturedAt} /></p>
            <ShotThumb shot={shots[i]} onOpen={() => setViewing(String(i + 1))} />
            <p className="small">
              {(['screenshot', 'dom', 'har'] as const).map((k) => (
                <span key={k} className="artifact">
                  <button type="button" className="link" onClick={() => void download(p.artifacts[k].downloadPath)}>{k.toUpperCase()}</button>{' '}
                  <code title="SHA-256 at capture">{p.artifacts[k].sha256.slice(0, 16)}…</code>
                </span>
              ))}
            </p>
          </li>
        ))}
      </ul>
      {open >= 0 && <ShotViewer shots={shots} index={open} onIndex={(i) => setViewing(String(i + 1))} onClose={() => setViewing('')} />}
    </>
  );
}

function Actions({ inv }: { inv: InvestigationDetail }) {
  if (inv.agentActions.length === 0) return <Empty>The agent has not acted yet.</Empty>;
  return (
    <ol className="timeline">
      {inv.agentActions.map((a, i) => (
        <li key={i} className={a.action === 'enter_state' ? 'state-change' : ''}>
          <Time iso={a.at} /> <span className="badge">{a.state}</span> <strong>{a.action.replace(/_/g, ' ')}</strong> <span className="break">{a.target}</span>
          {a.outcome && <span className="muted"> → {a.outcome}</span>}
          {a.walletsFound > 0 && <span className="conf conf-high"> {a.walletsFound} wallet{a.walletsFound > 1 ? 's' : ''}</span>}
        </li>
      ))}
    </ol>
  );
}

const EVIDENCE = [
  { path: '/investigations/ssi/{scan_id}/evidence-bundle', label: 'Evidence bundle (WACZ)' },
  { path: '/investigations/ssi/{scan_id}/lea-package', label: 'Law-enforcement package (ZIP)' },
  { path: '/investigations/ssi/{scan_id}/report.pdf', label: 'PDF report' },
];

function Evidence({ inv }: { inv: InvestigationDetail }) {
  const [paths] = useLoad(availablePaths, 'openapi');
  const [done, setDone] = useState<Record<string, SavedFile | { error: string }>>({});
  if (paths.status !== 'ok') return <Loading what="evidence downloads" />;
  const present = EVIDENCE.filter((e) => paths.data.has(e.path));
  if (present.length === 0) {
    return (
      <div className="state unavailable" role="note">
        <p><strong>Evidence downloads are not available on this platform yet.</strong></p>
        <p className="muted">The evidence bundle, LEA package and PDF report appear here once the platform provides them. The captured artifacts with their SHA-256 are on the Pages tab.</p>
      </div>
    );
  }
  const get1 = async (p: string) => {
    try {
      const saved = await download(p.replace('{scan_id}', inv.scanId), { hash: true });
      setDone((d) => ({ ...d, [p]: saved }));
    } catch (err) {
      setDone((d) => ({ ...d, [p]: { error: err instanceof Error ? err.message : String(err) } }));
    }
  };
  return (
    <ul className="evidence">
      {present.map((e) => {
        const r = done[e.path];
        return (
          <li key={e.path} className="card">
            <button type="button" onClick={() => void get1(e.path)}>Download {e.label}</button>
            {r && 'error' in r && <p className="form-error" role="alert">{r.error}</p>}
            {r && 'filename' in r && (
              <p className="small">{r.filename}: SHA-256 <code>{r.sha256}</code>{r.declaredSha256 && (r.declaredSha256 === r.sha256 ? ' (matches the platform’s hash)' : ` (the platform declared ${r.declaredSha256})`)}</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function InvestigationDetailPage({ scanId, tab }: { scanId: string; tab: string | undefined }) {
  const active: Tab = (TABS as readonly string[]).includes(tab ?? '') ? (tab as Tab) : 'overview';
  const me = useMe();
  const [inv, reload] = useLoad(() => sdk().investigations.get(scanId), scanId);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const running = inv.status === 'ok' && RUNNING.has(inv.data.status);
  useEffect(() => {
    if (!running) return;
    const t = setInterval(reload, 3000);
    return () => clearInterval(t);
  }, [running, reload]);
  const select = (t: Tab) => navigate(`/investigations/${scanId}${t === 'overview' ? '' : `/${t}`}`, { replace: true });
  const onKey = (e: KeyboardEvent, i: number) => {
    const next = e.key === 'ArrowRight' ? (i + 1) % TABS.length : e.key === 'ArrowLeft' ? (i + TABS.length - 1) % TABS.length : e.key === 'Home' ? 0 : e.key === 'End' ? TABS.length - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    select(TABS[next]);
    tabRefs.current[next]?.focus();
  };
  if (inv.status === 'loading') return <Loading what="the investigation" />;
  if (inv.status === 'error') return <ErrorState error={inv.error} retry={reload} />;
  if (inv.status !== 'ok') return null;
  const d = inv.data;
  return (
    <>
      <p><Link to="/investigations">← Investigations</Link></p>
      <h1 className="break">{d.label || d.url}</h1>
      <p className="muted"><StatusBadge status={d.status} /> scan <code>{d.scanId}</code></p>
      <AddToCampaign what="this investigation's entities" members={() => investigationMembers(d.url, d.wallets)} />
      <InvestigationActions inv={d} onChanged={reload} />
      <RequestTakedown scanId={d.scanId} status={d.status} />
      {hasRole(me, 'admin', 'analyst') && <AddToCase scanId={d.scanId} />}
      {running && <LiveTask taskId={d.taskId} onEnd={reload} />}
      <GuidancePanel scanId={d.scanId} active={running} onReplied={reload} />
      <div role="tablist" aria-label="Investigation views" className="tabs">
        {TABS.map((t, i) => (
          <button
            key={t} type="button" role="tab" id={`tab-${t}`} aria-controls={`panel-${t}`} aria-selected={t === active} tabIndex={t === active ? 0 : -1}
            ref={(el) => { tabRefs.current[i] = el; }} onClick={() => select(t)} onKeyDown={(e) => onKey(e, i)}
          >
            {TAB_LABELS[t]}{t === 'results' ? ` (${d.wallets.length})` : t === 'pages' ? ` (${d.pages.length})` : ''}
          </button>
        ))}
      </div>
      <section role="tabpanel" id={`panel-${active}`} aria-labelledby={`tab-${active}`} tabIndex={0} className="panel">
        {active === 'overview' && <Overview inv={d} />}
        {active === 'overview' && <ClassificationPanel kind="investigation" id={d.scanId} classification={d.classification} onChanged={reload} />}
        {active === 'results' && <Results inv={d} />}
        {active === 'pages' && <Pages inv={d} />}
        {active === 'actions' && <Actions inv={d} />}
        {active === 'evidence' && <Evidence inv={d} />}
      </section>
    </>
  );
}
