// The SDK's HTTP core: openapi-fetch builds and sends requests; this layer adds authentication
// headers, key translation (platform variant), retries of idempotent calls on 429/503, and the
// mapping of error answers to FipApiError. Fetch only: runs in Node 20+ and browsers.
import createFetchClient from 'openapi-fetch';
import { identityTranslator, snakeCaseTranslator, type KeyTranslator } from './case-keys.js';
import { FipApiError } from './errors.js';

export type ApiKind = 'core' | 'default';

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 disables). */
  retries?: number;
  /** First back-off step in ms (default 250); doubles per retry, with jitter (50-100% of the step). */
  baseDelayMs?: number;
  /** Upper bound of one wait, also for Retry-After (default 30 000). */
  maxDelayMs?: number;
}

export interface ClientOptions {
  /** The API's base URL, e.g. `http://127.0.0.1:8080`; in a browser '' (the default) is the page's own origin. */
  baseUrl?: string;
  /**
   * `core`: this platform's Core API (snake_case on the wire; keys translated). `default`: an
   * external API speaking the SDK's camelCase schema (payloads unchanged). When not given:
   * `core` if the environment has SVC_API_KIND=core (Node), else `default`.
   */
  kind?: ApiKind;
  /** Sent as X-API-KEY (trusted services). */
  apiKey?: string;
  /**
   * A person's identity as the identity-aware proxy forwards it, sent as-is, e.g.
   * `{ value: 'accounts.google.com:ana@example.org' }` (header X-Goog-Authenticated-User-Email unless `header`).
   * Behind the real proxy a browser sends nothing: the proxy adds it.
   */
  proxyIdentity?: { value: string; header?: string };
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** fetch `credentials` (browsers behind a proxy that uses cookies: `include` or `same-origin`). */
  credentials?: RequestCredentials;
  retry?: RetryOptions;
  /** More opaque fields (values never translated), in addition to OPAQUE_FIELDS (case-keys.ts). */
  opaqueFields?: string[];
  /** A fetch implementation (default globalThis.fetch). */
  fetch?: typeof globalThis.fetch;
}

export interface RequestOptions {
  /** Path parameters by the template's own names (`{ scan_id }` for `{scan_id}`): never renamed. */
  path?: Record<string, string | number>;
  /** Query parameters (camelCase; undefined values are left out). */
  query?: object;
  /** A JSON body (camelCase) or FormData (sent as multipart/form-data, untranslated). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as Idempotency-Key; makes a POST retryable. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export const PROXY_IDENTITY_HEADER = 'X-Goog-Authenticated-User-Email';

/** `core` when the environment says SVC_API_KIND=core (Node); browsers have no environment. */
export function kindFromEnvironment(): ApiKind {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.SVC_API_KIND?.trim().toLowerCase() === 'core' ? 'core' : 'default';
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const RETRY_STATUSES = new Set([429, 503]);

/** Milliseconds to wait as the Retry-After header says (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A fetch that retries idempotent requests (GET/HEAD/PUT/DELETE, or any with an Idempotency-Key) answered 429 or 503. */
export function retryingFetch(baseFetch: typeof globalThis.fetch, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  return async (request: Request) => {
    const retryable = IDEMPOTENT.has(request.method.toUpperCase()) || request.headers.has('Idempotency-Key');
    for (let attempt = 0; ; attempt++) {
      const willRetry = retryable && attempt < retries;
      const response = await baseFetch(willRetry ? request.clone() : request);
      if (!willRetry || !RETRY_STATUSES.has(response.status)) return response;
      const step = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
      const backoff = step * (0.5 + Math.random() * 0.5);
      const wait = Math.min(maxDelayMs, retryAfterMs(response.headers.get('Retry-After')) ?? backoff);
      await response.body?.cancel().catch(() => undefined);
      await sleep(wait, request.signal);
    }
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error answer as a FipApiError: the platform's {"error": {code, message, details}} or any other body. */
export function toApiError(response: Response, body: unknown, translator: KeyTranslator): FipApiError {
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  const err = isRecord(body) && isRecord(body.error) ? body.error : null;
  if (err && typeof err.code === 'string' && typeof err.message === 'string') {
    let details = err.details;
    if (details !== undefined) {
      details = translator.fromWire(details);
      if (Array.isArray(details)) {
        details = details.map((d: unknown) => (isRecord(d) && typeof d.path === 'string' ? { ...d, path: translator.pathFromWire(d.path) } : d));
      }
    }
    return new FipApiError(response.status, err.code, err.message, details, requestId);
  }
  const text = typeof body === 'string' ? body.slice(0, 500) : '';
  return new FipApiError(response.status, `http_${response.status}`, text || `HTTP ${response.status} ${response.statusText}`.trim(), undefined, requestId);
}

type RawClient = ReturnType<typeof createFetchClient<Record<string, never>>>;

/** The transport a client and its route groups share. */
export class Transport {
  readonly kind: ApiKind;
  readonly translator: KeyTranslator;
  private readonly raw: RawClient;

  constructor(readonly options: ClientOptions) {
    if (options.baseUrl === undefined && typeof (globalThis as { document?: unknown }).document === 'undefined') {
      throw new TypeError('baseUrl is required outside a browser');
    }
    this.kind = options.kind ?? kindFromEnvironment();
    this.translator = this.kind === 'core' ? snakeCaseTranslator(options.opaqueFields) : identityTranslator;
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.apiKey) headers['X-API-KEY'] = options.apiKey;
    if (options.proxyIdentity) headers[options.proxyIdentity.header ?? PROXY_IDENTITY_HEADER] = options.proxyIdentity.value;
    const baseFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
    this.raw = createFetchClient<Record<string, never>>({
      baseUrl: options.baseUrl ?? '',
      headers,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      fetch: retryingFetch(baseFetch, options.retry),
    });
  }

  private wireQuery(query: object | undefined): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) out[this.translator.nameToWire(key)] = value;
    }
    return out;
  }

  /** Sends the request; answers the Response when it is a success, else throws FipApiError. */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    const translator = this.translator;
    const { error, response } = await this.raw.request(method.toLowerCase() as 'get', path as never, {
      params: { query: this.wireQuery(options.query), path: options.path ?? {} },
      pathSerializer: (url: string) => fillPath(url, options.path ?? {}),
      ...(options.body === undefined ? {} : { body: options.body as never }),
      bodySerializer: (body: unknown) => (body instanceof FormData ? body : JSON.stringify(translator.toWire(body))),
      headers,
      parseAs: 'stream',
      ...(options.signal ? { signal: options.signal } : {}),
    } as never);
    if (!response.ok) {
      let body: unknown = error;
      if (typeof body === 'string') {
        try {
          body = JSON.parse(body);
        } catch {
          // not JSON: keep the text
        }
      }
      throw toApiError(response, body, translator);
    }
    return response;
  }

  /** Sends the request and answers its JSON body with keys camelCased (platform variant); undefined when empty. */
  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, options);
    const text = await response.text();
    if (!text) return undefined as T;
    const type = response.headers.get('Content-Type') ?? '';
    if (!/json/i.test(type)) return text as T;
    return this.translator.fromWire(JSON.parse(text)) as T;
  }
}

/**
 * Fills `{name}` in a path template from the param named exactly `name` (the template's own name,
 * in both variants: a path parameter is never renamed); a missing one is a TypeError naming it.
 */
export function fillPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined || value === null || value === '') throw new TypeError(`path parameter ${name} is required for ${template}`);
    return encodeURIComponent(String(value));
  });
}
