// The console's data access: every call goes to the platform's API, same-origin, with the user's
// identity (the proxy's, carried by the browser as-is; or, on a developer's machine, the identity
// header of the user picked at local sign-in). Payloads are camelCase in the console; the platform
// speaks snake_case (keys only are translated, never values, and never inside opaque maps).
import { getIdentityHeader } from './identity';

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly details?: unknown) {
    super(message);
  }
}

/** Free-form maps whose keys are data, not field names: never translated. */
const OPAQUE = new Set(['scope', 'options', 'detail', 'result', 'tls', 'response_headers', 'responseHeaders', 'attributes', 'context']);

const toCamel = (k: string) => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const toSnake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function mapKeys(value: unknown, rename: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, rename));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [rename(k), OPAQUE.has(k) ? v : mapKeys(v, rename)]));
  }
  return value;
}
export const camelize = <T>(v: unknown) => mapKeys(v, toCamel) as T;
export const snakeize = (v: unknown) => mapKeys(v, toSnake);

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') q.set(toSnake(k), String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export function authHeaders(): Record<string, string> {
  const id = getIdentityHeader();
  return id ? { [id.name]: id.value } : {};
}

async function failure(res: Response): Promise<ApiError> {
  let body: { error?: { code?: string; message?: string; details?: unknown } } = {};
  try {
    body = await res.json();
  } catch {
    // not JSON
  }
  return new ApiError(res.status, body.error?.code ?? `http_${res.status}`, body.error?.message ?? `${res.status} ${res.statusText}`, body.error?.details);
}

export async function request<T>(method: string, path: string, opts: { query?: Query; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(), ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(withQuery(path, opts.query), { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(snakeize(opts.body)), credentials: 'same-origin' });
  if (!res.ok) throw await failure(res);
  if (res.status === 204) return undefined as T;
  return camelize<T>(await res.json());
}

export const get = <T>(path: string, query?: Query) => request<T>('GET', path, { query });
export const post = <T>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>('POST', path, { body: body ?? {}, headers });

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Fetches a file with the user's identity: its bytes, name (Content-Disposition) and headers. */
export async function fetchFile(path: string): Promise<{ blob: Blob; filename: string; headers: Headers }> {
  const res = await fetch(path, { headers: authHeaders(), credentials: 'same-origin' });
  if (!res.ok) throw await failure(res);
  const cd = res.headers.get('content-disposition') ?? '';
  const filename = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd)?.[1] ?? path.split('/').pop() ?? 'download';
  return { blob: await res.blob(), filename: decodeURIComponent(filename), headers: res.headers };
}

/** Saves a download: the browser streams it to disk through a plain link when it carries the
 * proxy's identity; with a local sign-in the header must be sent, so the file goes through a blob. */
export async function download(path: string): Promise<{ filename: string; sha256Header: string | null }> {
  if (!getIdentityHeader()) {
    const a = document.createElement('a');
    a.href = path;
    a.download = '';
    document.body.appendChild(a);
    a.click();
    a.remove();
    return { filename: path.split('/').pop() ?? '', sha256Header: null };
  }
  const file = await fetchFile(path);
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { filename: file.filename, sha256Header: file.headers.get('x-content-sha256') };
}

let openApiPaths: Promise<Set<string>> | null = null;

/** The API's documented paths (features other parts of the platform add appear here when present). */
export function availablePaths(): Promise<Set<string>> {
  openApiPaths ??= fetch('/openapi.json')
    .then((r) => (r.ok ? r.json() : { paths: {} }))
    .then((doc: { paths?: Record<string, unknown> }) => new Set(Object.keys(doc.paths ?? {})))
    .catch(() => new Set<string>());
  return openApiPaths;
}
