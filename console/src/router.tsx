// Navigation helpers on TanStack Router (the route tree itself is in routes.tsx). The console's
// paths live under /console (the API answers index.html for each of them,
// api/routes/console/console-routes.ts). Every view, filter, sort and selection is in the URL, so a
// link pasted to a colleague or a reload shows the same thing: pages keep such state with
// useSearchParam/useSearchParams (the query string), never only in component state.
import { useRouterState, type AnyRouter } from '@tanstack/react-router';
import { useCallback, useMemo, useRef, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/console';

export interface Location {
  /** Path below /console, e.g. /investigations/<id>/results */
  path: string;
  query: URLSearchParams;
}

function current(): Location {
  const p = window.location.pathname;
  const path = p.startsWith(BASE) ? p.slice(BASE.length) || '/' : '/';
  return { path: path.replace(/\/+$/, '') || '/', query: new URLSearchParams(window.location.search) };
}

let router: AnyRouter | null = null;

/** routes.tsx registers the one router instance (navigate() is called outside components too). */
export function registerRouter(r: AnyRouter): void {
  router = r;
}

/** Goes to a console path (below /console, may carry a query string). */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = `${BASE}${to === '/' ? '' : to}`;
  if (!router) {
    window.location.assign(url);
    return;
  }
  if (opts.replace) router.history.replace(url);
  else router.history.push(url);
}

/** The current location; re-renders on every navigation. */
export function useLocation(): Location {
  const href = useRouterState({ select: (s) => s.location.href });
  // href is the trigger; window.location is the truth.
  return useMemo(() => (href ? current() : current()), [href]);
}

function withQuery(path: string, q: URLSearchParams): string {
  const s = q.toString();
  return `${path}${s ? `?${s}` : ''}`;
}

/** Several query-string values at once; `set` replaces the history entry (typing does not flood Back). */
export function useSearchParams(): [URLSearchParams, (changes: Record<string, string | null | undefined>, opts?: { push?: boolean }) => void] {
  const loc = useLocation();
  const set = useCallback((changes: Record<string, string | null | undefined>, opts: { push?: boolean } = {}) => {
    const now = current();
    const q = new URLSearchParams(now.query);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === undefined || v === '') q.delete(k);
      else q.set(k, v);
    }
    navigate(withQuery(now.path, q), { replace: !opts.push });
  }, []);
  return [loc.query, set];
}

/**
 * One query-string value as state (empty = absent from the URL). The value shows at once (a local
 * copy, so typing into a filter is never behind); the URL follows, and a navigation (Back, a link)
 * brings the local copy back in line with it.
 */
export function useSearchParam(name: string, fallback = ''): [string, (v: string) => void] {
  const [query, set] = useSearchParams();
  const fromUrl = query.get(name) ?? fallback;
  const [local, setLocal] = useState(fromUrl);
  const [seen, setSeen] = useState(fromUrl);
  // Values written here and not yet in the URL: the URL passing through them is not a navigation.
  const pending = useRef<string[]>([]);
  if (seen !== fromUrl) {
    setSeen(fromUrl);
    const i = pending.current.indexOf(fromUrl);
    if (i >= 0) pending.current = pending.current.slice(i + 1);
    else {
      pending.current = [];
      setLocal(fromUrl);
    }
  }
  const setValue = useCallback((v: string) => {
    pending.current.push(v);
    setLocal(v);
    set({ [name]: v === fallback ? null : v });
  }, [set, name, fallback]);
  return [local, setValue];
}

/** A link that navigates without reloading (modifier-clicks open a new tab as usual). */
export function Link({ to, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    rest.onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={`${BASE}${to === '/' ? '' : to}`} {...rest} onClick={onClick} />;
}
