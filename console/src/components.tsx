// Shared pieces: loading, empty, error and "not available" states, a data hook, a copy button and a
// sortable table.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { ApiError } from './api';
import { describeError } from './errors';
import { getIdentityHeader } from './identity';

export function Loading({ what }: { what: string }) {
  return <p className="state" role="status" aria-live="polite">Loading {what}…</p>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state empty">{children}</div>;
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const d = describeError(error);
  return (
    <div className="state error" role="alert">
      <p><strong>Could not load this.</strong> {d.sentence}</p>
      {retry && <button type="button" onClick={retry}>Try again</button>}
    </div>
  );
}

export function NotAvailable({ what }: { what: string }) {
  return (
    <div className="state unavailable" role="note">
      <p><strong>{what} is not available on this platform yet.</strong></p>
      <p className="muted">The API does not offer it (it answered 404). It appears here once the platform provides it.</p>
    </div>
  );
}

export type Loaded<T> = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ok'; data: T } | { status: 'unavailable' };

/**
 * Cached data fetching (TanStack Query): loads again whenever `key` changes; an answer already in
 * the cache shows at once and is refreshed in the background (on mount and on focus); reload()
 * refetches keeping what is shown until the answer. The cache key is the call site (the loader's
 * source), the key and the identity, so two pages never share an entry by accident and another
 * user never sees the previous one's data. An API 404 with `unavailableOn404` becomes
 * 'unavailable' (a feature the platform does not have).
 */
export function useLoad<T>(load: () => Promise<T>, key: string, opts: { unavailableOn404?: boolean } = {}): [Loaded<T>, () => void] {
  const id = getIdentityHeader()?.value ?? '';
  const loadRef = useRef(load);
  loadRef.current = load;
  const q = useQuery({
    queryKey: ['load', load.toString(), key, id],
    queryFn: () => loadRef.current(),
    retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 2,
  });
  const { refetch } = q;
  const reload = useCallback(() => void refetch(), [refetch]);
  let state: Loaded<T>;
  if (q.data !== undefined && !(q.isError && opts.unavailableOn404 && q.error instanceof ApiError && q.error.status === 404)) state = { status: 'ok', data: q.data };
  else if (q.isError) state = opts.unavailableOn404 && q.error instanceof ApiError && q.error.status === 404 ? { status: 'unavailable' } : { status: 'error', error: q.error };
  else state = { status: 'loading' };
  return [state, reload];
}

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API unavailable (plain http on another host): select a hidden field instead.
      const t = document.createElement('textarea');
      t.value = value;
      document.body.appendChild(t);
      t.select();
      document.execCommand('copy');
      t.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" className="icon" onClick={copy} aria-label={`Copy ${label}`} title={`Copy ${label}`}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

export { SortableTable, type Column } from './table';

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  const d = new Date(iso);
  return <time dateTime={iso} title={iso}>{d.toISOString().replace('T', ' ').slice(0, 19)} UTC</time>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status.replace(/_/g, ' ')}</span>;
}

/** First / next page of a cursor-paged list (the cursor lives in the URL: a deep link). */
export function Pager({ next, cursor, setCursor }: { next: string | null | undefined; cursor: string | null; setCursor: (c: string | null) => void }) {
  return (
    <div className="pager">
      <button type="button" disabled={!cursor} onClick={() => setCursor(null)}>First page</button>
      <button type="button" disabled={!next} onClick={() => setCursor(next ?? null)}>Next page</button>
    </div>
  );
}
