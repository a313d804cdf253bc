// Navigation helpers on TanStack Router (the route tree itself is in routes.tsx). The console's
// paths live under /console (the API answers index.html for each of them,
// api/routes/console/console-routes.ts). Every view, filter, sort and selection is in the URL, so a
// link pasted to a colleague or a reload shows the same thing: pages keep such state with
// useSearchParam/useSearchParams (the query string), never only in component state.
import type { AnyRouter } from '@tanstack/react-router';
import { useCallback, useMemo, useRef, useState, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/console';

export interface Location {
  /** Path below /console, e.g. /investigations/<id>/results */
  path: string;
  query: URLSearchParams;
}

/** The location as the router's history holds it (it writes the browser's URL a moment later). */
function href(): string {
  const h = router?.history.location;
  return h ? `${h.pathname}${h.search}` : `${window.location.pathname}${window.location.search}`;
}

function parse(full: string): Location {
  const u = new URL(full, window.location.origin);
  const p = u.pathname;
  const path = p.startsWith(BASE) ? p.slice(BASE.length) || '/' : '/';
  return { path: path.replace(/\/+$/, '') || '/', query: new URLSearchParams(u.search) };
}

const current = (): Location => parse(href());

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

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  const off = router?.history.subscribe(onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    off?.();
  };
}

/** The current location (path and query string); re-renders on every navigation, at once. */
export function useLocation(): Location {
  const now = useSyncExternalStore(subscribe, href);
  return useMemo(() => parse(now), [now]);
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
