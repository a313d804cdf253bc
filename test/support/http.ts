export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** fetch + JSON decoding (when the answer is JSON). */
export async function http<T = any>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<HttpResult<T>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const res = await fetch(url, { ...init, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json')) parsed = text ? JSON.parse(text) : null;
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const asUser = (email: string): Record<string, string> => ({ 'X-Goog-Authenticated-User-Email': `accounts.google.com:${email}` });
