// An investigation's actions in its header: cancel one that runs (after a confirmation; the
// workflow stops and the scan ends `cancelled`), and re-run one that ended, with the same URL,
// label, playbook and page limit. Before a re-run the page looks up the investigations of the same
// site (/investigations/ssi/history and /active by domain) and warns when the same URL was
// investigated in the last RECENT_DAYS days, naming the latest.
import { useState } from 'react';
import { sdk } from '../api';
import { ConfirmButton } from '../confirm';
import { describeError } from '../errors';
import { Time } from '../components';
import { invalidateLoads } from '../query';
import { Link, navigate } from '../router';
import type { InvestigationDetail, InvestigationSummary } from '../types';

export const RECENT_DAYS = 7;
const RUNNING = new Set(['queued', 'running']);

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** The other investigations of this exact URL started in the last RECENT_DAYS days, newest first. */
async function recentSameUrl(inv: InvestigationDetail): Promise<InvestigationSummary[]> {
  const since = new Date(Date.now() - RECENT_DAYS * 86_400_000).toISOString();
  const domain = hostOf(inv.url) || undefined;
  const [history, active] = await Promise.all([
    sdk().investigations.history({ domain, since, limit: 100 }).first(),
    sdk().investigations.active({ domain, since, limit: 100 }).first(),
  ]);
  return [...active.items, ...history.items]
    .filter((s) => s.url === inv.url && s.scanId !== inv.scanId)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

function maxPagesOf(options: Record<string, unknown>): number | undefined {
  const v = options.max_pages ?? options.maxPages;
  return typeof v === 'number' ? v : undefined;
}

export function InvestigationActions({ inv, onChanged }: { inv: InvestigationDetail; onChanged: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [recent, setRecent] = useState<InvestigationSummary[] | null>(null);
  const cancel = async () => {
    setError(null);
    try {
      await sdk().tasks.cancel(inv.taskId);
      setNotice('Cancelled: the investigation stops after its current step.');
      invalidateLoads();
      onChanged();
    } catch (err) {
      setError(`Could not cancel: ${describeError(err).sentence}`);
    }
  };
  const rerun = async () => {
    setError(null);
    try {
      const maxPages = maxPagesOf(inv.options);
      const started = await sdk().investigations.start({
        url: inv.url, label: inv.label || undefined, playbookId: inv.playbookId ?? undefined, ...(maxPages ? { options: { max_pages: maxPages } } : {}),
      });
      invalidateLoads();
      navigate(`/investigations/${started.scanId}`);
    } catch (err) {
      setError(`Could not re-run: ${describeError(err).sentence}`);
    }
  };
  const askRerun = async () => {
    setError(null);
    setChecking(true);
    try {
      setRecent(await recentSameUrl(inv));
    } catch (err) {
      setError(`Could not look up earlier investigations: ${describeError(err).sentence}`);
    } finally {
      setChecking(false);
    }
  };
  return (
    <div className="toolbar investigation-actions">
      {RUNNING.has(inv.status) && (
        <ConfirmButton
          label="Cancel investigation" question="Stop this investigation? What it captured so far is kept; it cannot be resumed (re-run it instead)."
          yes="Yes, cancel it" onConfirm={cancel}
        />
      )}
      {!RUNNING.has(inv.status) && recent === null && (
        <button type="button" onClick={() => void askRerun()} disabled={checking}>{checking ? 'Checking earlier runs…' : 'Re-run'}</button>
      )}
      {recent !== null && (
        <div className={recent.length ? 'notice' : 'card'} role="alertdialog" aria-label="Re-run this investigation?">
          {recent.length > 0 ? (
            <p>
              <strong>This URL was investigated {recent.length} other time{recent.length > 1 ? 's' : ''} in the last {RECENT_DAYS} days</strong>, latest{' '}
              <Link to={`/investigations/${recent[0].scanId}`}>{recent[0].status} <Time iso={recent[0].createdAt} /></Link>. Re-run anyway?
            </p>
          ) : (
            <p>Start a new investigation of {inv.url} with the same settings?</p>
          )}
          <button type="button" className="primary" onClick={() => void rerun()}>{recent.length ? 'Re-run anyway' : 'Yes, re-run'}</button>{' '}
          <button type="button" onClick={() => setRecent(null)}>Keep</button>
        </div>
      )}
      {notice && <p role="status" className="ok-text">{notice}</p>}
      {error && <p role="alert" className="form-error">{error}</p>}
    </div>
  );
}
