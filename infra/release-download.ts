// Downloads one executable out of a released .tar.gz into a cache path, or says why it could not.
// Bounded in time so that a machine without internet (or behind a silent firewall) learns it in
// seconds and moves on to the next source; verified before anything lands in the cache: the
// archive's SHA-256, then the executable must run and print the expected version.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { Progress } from './go-tool';

export interface DownloadLimits {
  /** From the request to the response headers: covers DNS, connecting and TLS. */
  responseMs: number;
  /** Longest wait for the next chunk of a body. */
  stallMs: number;
  /** The whole step: checksums and archive. */
  totalMs: number;
  /** Largest archive accepted, and largest executable extracted from it. */
  maxBytes: number;
}

export const DOWNLOAD_LIMITS: DownloadLimits = {
  responseMs: 5_000,
  stallMs: 10_000,
  totalMs: 120_000,
  maxBytes: 256 * 1024 * 1024,
};

export interface ReleaseDownload {
  /** For progress lines: "the Temporal CLI". */
  label: string;
  /** The .tar.gz archive. */
  url: string;
  /** The archive's SHA-256: pinned by the caller, or listed (sha256sum format) in a checksums file published beside it. */
  sha256: { pinned: string } | { checksumsUrl: string };
  /** The executable's path inside the archive. */
  entry: string;
  /** Where the executable is installed (written beside it first, then renamed, so a failure never leaves half a file). */
  target: string;
  /** A run that must succeed before the executable is kept: arguments and what its output must match. */
  check: { args: string[]; expect: RegExp };
  limits?: DownloadLimits;
}

class DownloadFailure extends Error {}

/** True when the executable is installed at `d.target`; false (after a progress line saying why) otherwise. */
export async function downloadReleaseBinary(d: ReleaseDownload, progress: Progress): Promise<boolean> {
  const limits = d.limits ?? DOWNLOAD_LIMITS;
  const started = Date.now();
  const deadline = started + limits.totalMs;
  const parent = path.dirname(path.dirname(d.target));
  let staging: string | null = null;
  progress(`${d.label} not found: downloading ${d.url} ...`);
  try {
    const expected = 'pinned' in d.sha256 ? d.sha256.pinned : await checksumFromFile(d.sha256.checksumsUrl, path.posix.basename(new URL(d.url).pathname), limits, deadline);
    const archive = await fetchBounded(d.url, limits, deadline);
    const actual = createHash('sha256').update(archive).digest('hex');
    if (actual !== expected.toLowerCase()) throw new DownloadFailure(`SHA-256 mismatch: the archive has ${actual}, expected ${expected}`);
    fs.mkdirSync(parent, { recursive: true });
    staging = fs.mkdtempSync(path.join(parent, `.${path.basename(d.target)}-download-`));
    const file = path.join(staging, path.basename(d.target));
    await extractEntry(archive, d.entry, file, limits.maxBytes);
    const output = await runCheck(file, d.check.args);
    if (!d.check.expect.test(output)) throw new DownloadFailure(`\`${path.basename(d.target)} ${d.check.args.join(' ')}\` printed ${JSON.stringify(output.trim().slice(0, 200))}, expected ${d.check.expect}`);
    fs.mkdirSync(path.dirname(d.target), { recursive: true });
    fs.renameSync(file, d.target);
    progress(`  downloaded ${(archive.length / 1e6).toFixed(1)} MB in ${seconds(started)} s, SHA-256 verified: ${output.trim().split('\n')[0]}`);
    return true;
  } catch (err) {
    progress(`  could not download ${d.label} (${seconds(started)} s): ${describe(err)}`);
    return false;
  } finally {
    if (staging) fs.rmSync(staging, { recursive: true, force: true });
  }
}

function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(1);
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // fetch() reports every network error as "fetch failed"; the reason (ENOTFOUND, ECONNREFUSED, ...) is its cause.
  const cause = err.cause instanceof Error ? err.cause : null;
  return cause ? `${err.message}: ${cause.message}` : err.message;
}

async function checksumFromFile(url: string, archiveName: string, limits: DownloadLimits, deadline: number): Promise<string> {
  const text = (await fetchBounded(url, { ...limits, maxBytes: 1024 * 1024 }, deadline)).toString('utf8');
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64})\s+\*?(\S+)\s*$/i.exec(line.trim());
    if (m && m[2] === archiveName) return m[1];
  }
  throw new DownloadFailure(`${url} lists no SHA-256 for ${archiveName}`);
}

/** GET url into memory, within the limits (see DownloadLimits) and before `deadline`. */
export async function fetchBounded(url: string, limits: DownloadLimits, deadline: number): Promise<Buffer> {
  const controller = new AbortController();
  const fail = (why: string) => controller.abort(new DownloadFailure(`${why} (${url})`));
  const total = setTimeout(() => fail(`not complete within ${limits.totalMs / 1000} s`), Math.max(0, deadline - Date.now()));
  let idle = setTimeout(() => fail(`no response within ${limits.responseMs / 1000} s`), limits.responseMs);
  try {
    const res = await fetch(url, { signal: controller.signal });
    if (!res.ok || !res.body) throw new DownloadFailure(`HTTP ${res.status} ${res.statusText} from ${url}`);
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > limits.maxBytes) throw new DownloadFailure(`${url} is ${declared} bytes, more than the ${limits.maxBytes} accepted`);
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      clearTimeout(idle);
      idle = setTimeout(() => fail(`stalled: no data for ${limits.stallMs / 1000} s`), limits.stallMs);
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) throw new DownloadFailure(`${url} is more than the ${limits.maxBytes} bytes accepted`);
      chunks.push(Buffer.from(value));
    }
    return Buffer.concat(chunks);
  } catch (err) {
    // An abort surfaces as an AbortError (or the read's error); the reason set above says which bound it was.
    if (controller.signal.aborted && controller.signal.reason instanceof DownloadFailure) throw controller.signal.reason;
    throw err;
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
    // Releases the connection when the body was not read to its end (an error above).
    controller.abort();
  }
}

/** Writes the regular file `name` of the .tar.gz `archive` to `file` (mode 0755); an error when it is not there. */
async function extractEntry(archive: Buffer, name: string, file: string, maxBytes: number): Promise<void> {
  const extract = tar.extract();
  const gunzip = zlib.createGunzip();
  gunzip.on('error', (err) => extract.destroy(new DownloadFailure(`the archive is not a valid .tar.gz: ${err.message}`)));
  Readable.from([archive]).pipe(gunzip).pipe(extract);
  let found = false;
  try {
    for await (const entry of extract) {
      if (found || entry.header.name.replace(/^\.\//, '') !== name) {
        entry.resume();
        continue;
      }
      if (entry.header.type !== 'file') throw new DownloadFailure(`${name} in the archive is a ${entry.header.type}, not a file`);
      if ((entry.header.size ?? 0) > maxBytes) throw new DownloadFailure(`${name} in the archive is ${entry.header.size} bytes, more than the ${maxBytes} accepted`);
      const out = await fs.promises.open(file, 'wx', 0o755);
      try {
        for await (const chunk of entry) await out.write(chunk as Buffer);
      } finally {
        await out.close();
      }
      found = true;
    }
  } catch (err) {
    if (err instanceof DownloadFailure) throw err;
    throw new DownloadFailure(`the archive is not a valid .tar.gz: ${describe(err)}`);
  }
  if (!found) throw new DownloadFailure(`the archive has no ${name}`);
}

function runCheck(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 15_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new DownloadFailure(`\`${path.basename(file)} ${args.join(' ')}\` failed: ${err.message.split('\n')[0]} ${stderr.trim().slice(0, 200)}`.trim()));
      else resolve(stdout);
    });
  });
}
