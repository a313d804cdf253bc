export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Socket-level failures that mean the request may never have reached the server: a kept-alive
 * connection the server closed as the client reused it (the classic keep-alive race, likelier on a
 * loaded machine), or a reset. */
const RETRYABLE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** fetch, retried once on a socket-level failure; a second failure is thrown with its cause in the message. */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code ?? '';
    if (!RETRYABLE_SOCKET_CODES.has(code)) throw withCause(err, url);
    process.stderr.write(`test http: ${init.method ?? 'GET'} ${url} failed at the socket (${code}); retrying once\n`);
    try {
      return await fetch(url, init);
    } catch (again) {
      throw withCause(again, url);
    }
  }
}

function withCause(err: unknown, url: string): Error {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return new Error(`${(err as Error).message} (${url}): ${cause?.code ?? ''} ${cause?.message ?? ''}`.trim(), { cause: err });
}

/** fetch + JSON decoding (when the answer is JSON). */
export async function http<T = any>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<HttpResult<T>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const res = await fetchOnce(url, { ...init, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json')) parsed = text ? JSON.parse(text) : null;
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const asUser = (email: string): Record<string, string> => ({ 'X-Goog-Authenticated-User-Email': `accounts.google.com:${email}` });
