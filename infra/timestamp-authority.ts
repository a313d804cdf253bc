// The RFC 3161 time-stamping authorities outside the platform (SVC_EVIDENCE__TSA_URL), over HTTP
// (RFC 3161 §3.4: POST application/timestamp-query, answer application/timestamp-reply). Tried in
// order, each under a bounded timeout and a bounded answer size; an authority that times out,
// errors, answers something that is not a granted token, or a token for another imprint or nonce
// is recorded and the next one is asked. None answering is an outcome, not an error: the package
// then says it carries no third-party timestamp.
import { randomBytes } from 'node:crypto';
import {
  readTimestampResponse,
  timestampRequest,
  TIMESTAMP_QUERY_TYPE,
  type TstInfo,
} from '../domain/evidence/timestamp-token';

/** A granted token larger than this is not a token (they are a few kilobytes). */
const MAX_REPLY_BYTES = 1024 * 1024;

export interface TimestampAttempt {
  /** The authority's URL without credentials. */
  tsa: string;
  error: string;
}

export type TimestampOutcome =
  | { status: 'stamped'; tsa: string; response: Buffer; tstInfo: TstInfo; attempts: TimestampAttempt[] }
  | { status: 'not_configured' }
  | { status: 'unavailable'; attempts: TimestampAttempt[] };

/** The URL as it may be written into a package or a log: no user name or password. */
export function publicTsaUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

async function readBounded(res: Response): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const reader = res.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (bytes > MAX_REPLY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the answer exceeds ${MAX_REPLY_BYTES} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

async function askOne(url: string, sha256: Buffer, timeoutMs: number): Promise<{ response: Buffer; tstInfo: TstInfo }> {
  const nonce = randomBytes(8);
  const signal = AbortSignal.timeout(timeoutMs);
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': TIMESTAMP_QUERY_TYPE, accept: 'application/timestamp-reply' }, body: new Uint8Array(timestampRequest(sha256, nonce)), signal, redirect: 'error' });
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`HTTP ${res.status}`);
  }
  const body = await readBounded(res);
  const parsed = readTimestampResponse(body);
  if (parsed.status > 1 || !parsed.tstInfo) throw new Error(`the authority refused (PKIStatus ${parsed.status}${parsed.statusText ? `: ${parsed.statusText}` : ''})`);
  if (parsed.tstInfo.imprintSha256 !== sha256.toString('hex')) throw new Error('the token vouches for another message imprint');
  const wanted = nonce.toString('hex').replace(/^(00)+(?=.)/, '');
  if (parsed.tstInfo.nonce !== null && parsed.tstInfo.nonce !== wanted) throw new Error('the token carries another nonce (a replayed answer)');
  return { response: body, tstInfo: parsed.tstInfo };
}

/** Asks each authority in turn for a token over `sha256` (32 bytes); the first that answers well wins. */
export async function requestTimestamp(urls: readonly string[], sha256: Buffer, timeoutMs: number): Promise<TimestampOutcome> {
  if (urls.length === 0) return { status: 'not_configured' };
  const attempts: TimestampAttempt[] = [];
  for (const url of urls) {
    try {
      const { response, tstInfo } = await askOne(url, sha256, timeoutMs);
      return { status: 'stamped', tsa: publicTsaUrl(url), response, tstInfo, attempts };
    } catch (err) {
      const e = err as Error;
      const reason = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message);
      attempts.push({ tsa: publicTsaUrl(url), error: reason });
    }
  }
  return { status: 'unavailable', attempts };
}
