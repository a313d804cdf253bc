// Shared pieces: loading, empty, error and "not available" states, a data hook, a copy button and a
// sortable table.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from './api';

export function Loading({ what }: { what: string }) {
  return <p className="state" role="status" aria-live="polite">Loading {what}…</p>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state empty">{children}</div>;
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const e = error instanceof ApiError ? error : null;
  const message = e ? e.message : error instanceof Error ? error.message : String(error);
  const hint = e?.status === 403 ? 'Your roles do not allow this view.' : e?.status === 401 ? 'You are not signed in.' : null;
  return (
    <div className="state error" role="alert">
      <p><strong>Could not load this.</strong> {hint ?? message}</p>
      {hint && <p className="muted">{message}</p>}
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

/** Loads data again whenever `key` changes; reload() refetches keeping what is shown until the answer.
 * An API 404 with `unavailableOn404` becomes 'unavailable' (a feature the platform does not have). */
export function useLoad<T>(load: () => Promise<T>, key: string, opts: { unavailableOn404?: boolean } = {}): [Loaded<T>, () => void] {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const lastKey = useRef<string | null>(null);
  useEffect(() => {
    let live = true;
    if (lastKey.current !== key) setState({ status: 'loading' });
    lastKey.current = key;
    loadRef.current().then(
      (data) => live && setState({ status: 'ok', data }),
      (error: unknown) => {
        if (!live) return;
        if (opts.unavailableOn404 && error instanceof ApiError && error.status === 404) setState({ status: 'unavailable' });
        else setState({ status: 'error', error });
      },
    );
    return () => {
      live = false;
    };
  }, [key, tick, opts.unavailableOn404]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
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

export interface Column<T> {
  key: string;
  label: string;
  value: (row: T) => string | number;
  render?: (row: T) => ReactNode;
}

/** A table whose column headers sort it (click or Enter/Space; aria-sort says the order). */
export function SortableTable<T>({ rows, columns, caption, rowKey, initialSort }: { rows: T[]; columns: Column<T>[]; caption: string; rowKey: (r: T) => string; initialSort?: string }) {
  const [sort, setSort] = useState<{ key: string; dir: 1 | -1 }>({ key: initialSort ?? columns[0].key, dir: 1 });
  const col = columns.find((c) => c.key === sort.key) ?? columns[0];
  const sorted = [...rows].sort((a, b) => {
    const x = col.value(a);
    const y = col.value(b);
    return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * sort.dir;
  });
  return (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" aria-sort={c.key === sort.key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
                <button type="button" className="sort" onClick={() => setSort((s) => ({ key: c.key, dir: s.key === c.key ? (-s.dir as 1 | -1) : 1 }))}>
                  {c.label}
                  <span aria-hidden="true">{c.key === sort.key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((r) => (
            <tr key={rowKey(r)}>
              {columns.map((c) => (
                <td key={c.key} data-label={c.label}>{c.render ? c.render(r) : c.value(r)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  const d = new Date(iso);
  return <time dateTime={iso} title={iso}>{d.toISOString().replace('T', ' ').slice(0, 19)} UTC</time>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status.replace(/_/g, ' ')}</span>;
}
