// The console's data access: the platform SDK's platform variant (sdk/, `kind: 'core'`: camelCase
// in the console, snake_case on the wire, errors as FipApiError). Every call goes to the API
// same-origin with the user's identity: behind the identity-aware proxy the browser carries it
// as-is (the SDK sends nothing extra); after a local sign-in on a developer's machine the SDK sends
// the identity header of the chosen user (identity.ts).
import { createFipClient, FipApiError, type FipClient } from '../../sdk/src';
import { getIdentityHeader } from './identity';

export { FipApiError as ApiError };
export type { Page } from '../../sdk/src';

let cached: { key: string; client: FipClient } | null = null;

/** The SDK client for the current identity. */
export function sdk(): FipClient {
  const id = getIdentityHeader();
  const key = id ? `${id.name}\n${id.value}` : '';
  if (!cached || cached.key !== key) {
    cached = { key, client: createFipClient({ kind: 'core', credentials: 'same-origin', proxyIdentity: id ? { value: id.value, header: id.name } : undefined }) };
  }
  return cached.client;
}

type Untyped = (method: string, path: string, options?: { query?: object; body?: unknown }) => Promise<unknown>;

/** A route the generated types do not know (yet): features other parts of the platform add, found in /openapi.json. */
export function getUntyped<T>(path: string, query?: object): Promise<T> {
  const client = sdk();
  return (client.request as unknown as Untyped).call(client, 'get', path, { query }) as Promise<T>;
}

export interface SavedFile {
  filename: string;
  /** SHA-256 of the bytes received (computed here), when the file went through the page. */
  sha256: string | null;
  /** X-Content-SHA256 as the platform declared it, when it did. */
  declaredSha256: string | null;
}

async function sha256Hex(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Saves bytes as a file through the browser's download (an object URL, revoked a minute later). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Saves a download. Behind the proxy (no header to add) a plain link lets the browser stream the
 * file to disk; with a local sign-in the identity header must be sent, so the SDK streams it into a
 * Blob first. `hash`: also compute the SHA-256 of what arrived (through the SDK in both modes);
 * `query`: query parameters of the download (a `purpose` for the chain of custody).
 */
export async function download(path: string, { hash = false, query }: { hash?: boolean; query?: Record<string, string> } = {}): Promise<SavedFile> {
  if (!getIdentityHeader() && !hash) {
    const a = document.createElement('a');
    a.href = query ? `${path}?${new URLSearchParams(query).toString()}` : path;
    a.download = '';
    document.body.appendChild(a);
    a.click();
    a.remove();
    return { filename: path.split('/').pop() ?? '', sha256: null, declaredSha256: null };
  }
  const d = await sdk().download(path as never, query ? ({ query } as never) : {});
  const blob = await new Response(d.stream).blob();
  const filename = d.filename ?? path.split('/').pop() ?? 'download';
  saveBlob(blob, filename);
  return { filename, sha256: hash ? await sha256Hex(blob) : null, declaredSha256: d.response.headers.get('X-Content-SHA256') };
}

/**
 * A file's bytes as an object URL (screenshots, graph images, intake previews); revoke it when
 * done. `type`: the Blob's type when the caller decided it (a PDF opened in a tab needs one).
 */
export async function objectUrl(path: string, { query, type }: { query?: Record<string, string>; type?: string } = {}): Promise<string> {
  const d = await sdk().download(path as never, query ? ({ query } as never) : {});
  const blob = await new Response(d.stream).blob();
  return URL.createObjectURL(type ? new Blob([blob], { type }) : blob);
}

let openApiPaths: Promise<Set<string>> | null = null;

/**
 * The API's documented paths (features other parts of the platform add appear here when present),
 * as the document writes them: `/investigations/ssi/{scan_id}/evidence-bundle`, never key-translated.
 */
export function availablePaths(): Promise<Set<string>> {
  openApiPaths ??= sdk()
    .openapi()
    .then((doc) => new Set(Object.keys(doc.paths ?? {})))
    .catch(() => new Set<string>());
  return openApiPaths;
}
