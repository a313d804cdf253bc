// The platform's blob store: content-addressed blobs (a blob's key is `sha256/<xx>/<hex>`, its
// SHA-256), so writing the same bytes twice (a retried activity) stores them once. Two
// implementations behind one interface, chosen by SVC_BLOBS__URL: a local directory (`file:///path`,
// the embedded default `$SVC_DATA_DIR/blobs`) and S3-compatible object storage (`s3://bucket/prefix`,
// infra/blob-store-s3.ts). Nothing outside infra/ knows which one runs.
//
// Everything is a stream: put() hashes the bytes on their way to storage (the key is known only at
// the end, so each implementation first stages the bytes, then moves them under their key), get()
// answers a stream (optionally a byte range). Memory stays flat whatever the size.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buffer } from 'node:stream/consumers';

export interface StoredBlob {
  key: string;
  sha256: string;
  size: number;
}

/** An inclusive byte range, as in HTTP: bytes start..end (end defaults to the last byte). */
export interface ByteRange {
  start: number;
  end?: number;
}

export type BlobSource = Buffer | Uint8Array | Readable | AsyncIterable<Uint8Array>;

export interface BlobStore {
  /** Where blobs go, for logs and messages: `file:///…` or `s3://bucket/prefix` (never a secret). */
  readonly location: string;
  /** Stores the bytes (a Buffer or any stream, of any size) and answers their content-addressed key. */
  put(body: BlobSource): Promise<StoredBlob>;
  /** The blob's bytes as a stream; throws BlobNotFoundError when there is no such blob. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size and SHA-256 of a blob, or null when there is none. */
  head(key: string): Promise<StoredBlob | null>;
  exists(key: string): Promise<boolean>;
  /** Removes a blob; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every blob whose key starts with the prefix (`''` for all, `sha256/ab/` for a shard), in no set order. */
  list(prefix?: string): AsyncIterable<StoredBlob>;
  /**
   * The blob as a stream at once (errors, a missing blob included, arrive on the stream).
   * For callers that need a stream synchronously (an e-mail attachment); prefer get().
   */
  open(key: string): Readable;
  close(): Promise<void>;
}

/** A whole blob in memory, for the small ones read as a unit (a page's HAR, an intake's text, a screenshot). */
export async function readBlob(blobs: Pick<BlobStore, 'get'>, key: string): Promise<Buffer> {
  return buffer(await blobs.get(key));
}

export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
  constructor(readonly key: string) {
    super(`no blob ${key}`);
  }
}

const KEY_RE = /^sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/;
const PREFIX_RE = /^[0-9a-z/]*$/;

export function blobKeyFor(sha256: string): string {
  return `sha256/${sha256.slice(0, 2)}/${sha256}`;
}

export function checkBlobKey(key: string): string {
  if (!KEY_RE.test(key)) throw new Error(`not a blob key: ${JSON.stringify(key)}`);
  return key;
}

export function checkListPrefix(prefix: string): string {
  if (!PREFIX_RE.test(prefix)) throw new Error(`not a blob key prefix: ${JSON.stringify(prefix)}`);
  return prefix;
}

/** The SHA-256 a content-addressed key names. */
export function sha256OfKey(key: string): string {
  return checkBlobKey(key).slice('sha256/xx/'.length);
}

/** Passes bytes through unchanged while computing their SHA-256 and counting them. */
export class HashingStream extends Transform {
  private readonly hash = createHash('sha256');
  /** Bytes seen so far (not `size`: @aws-sdk/lib-storage takes a Body's `size` for its length). */
  bytes = 0;
  private hex: string | null = null;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.hex = this.hash.digest('hex');
    done();
  }

  /** Available once the stream has ended. */
  get sha256(): string {
    if (this.hex === null) throw new Error('the stream has not ended yet');
    return this.hex;
  }
}

export function toReadable(body: BlobSource): Readable {
  if (body instanceof Readable) return body;
  if (Buffer.isBuffer(body) || body instanceof Uint8Array) return Readable.from([Buffer.from(body.buffer, body.byteOffset, body.byteLength)]);
  return Readable.from(body);
}

/** A stream handed out at once, fed by a stream that is still being opened. */
export function deferredStream(open: () => Promise<Readable>): Readable {
  const out = new PassThrough();
  open().then(
    (source) => {
      source.on('error', (err) => out.destroy(err));
      source.pipe(out);
    },
    (err: Error) => out.destroy(err),
  );
  return out;
}

// --- the local directory -------------------------------------------------------------------------

/** The filesystem store rooted at `root` (blobs are `<root>/sha256/xx/<hex>`). */
export function createFileBlobStore(root: string): BlobStore {
  const absRoot = path.resolve(root);
  const fileOf = (key: string) => path.join(absRoot, checkBlobKey(key));
  const stagingDir = path.join(absRoot, '.staging');

  const store: BlobStore = {
    location: `file://${absRoot}`,
    async put(body) {
      // Stage under a unique name in the same filesystem, then rename: a reader never sees half a
      // blob, and two writers of the same bytes both end with the same complete file.
      await fs.promises.mkdir(stagingDir, { recursive: true });
      const tmp = path.join(stagingDir, `${randomUUID()}.tmp`);
      const hashing = new HashingStream();
      try {
        await pipeline(toReadable(body), hashing, fs.createWriteStream(tmp, { flags: 'wx' }));
        const key = blobKeyFor(hashing.sha256);
        const file = fileOf(key);
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.rename(tmp, file);
        return { key, sha256: hashing.sha256, size: hashing.bytes };
      } finally {
        await fs.promises.rm(tmp, { force: true });
      }
    },
    async get(key, range) {
      const file = fileOf(key);
      const handle = await fs.promises.open(file, 'r').catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'ENOENT' ? new BlobNotFoundError(key) : err;
      });
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },
    async head(key) {
      try {
        const stat = await fs.promises.stat(fileOf(key));
        return { key, sha256: sha256OfKey(key), size: stat.size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async exists(key) {
      return (await store.head(key)) !== null;
    },
    async delete(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
    async *list(prefix = '') {
      checkListPrefix(prefix);
      const top = path.join(absRoot, 'sha256');
      const shards = await fs.promises.readdir(top).catch(() => [] as string[]);
      for (const shard of shards.sort()) {
        if (!`sha256/${shard}/`.startsWith(prefix) && !prefix.startsWith(`sha256/${shard}/`)) continue;
        const names = await fs.promises.readdir(path.join(top, shard)).catch(() => [] as string[]);
        for (const name of names.sort()) {
          const key = `sha256/${shard}/${name}`;
          if (!KEY_RE.test(key) || !key.startsWith(prefix)) continue;
          const head = await store.head(key);
          if (head) yield head;
        }
      }
    },
    open(key) {
      return deferredStream(() => store.get(key));
    },
    async close() {},
  };
  return store;
}

/** The filesystem store of a data directory (`<dataDir>/blobs`), as before SVC_BLOBS__URL existed. */
export function createBlobStore(dataDir: string): BlobStore {
  return createFileBlobStore(path.join(dataDir, 'blobs'));
}

// --- choosing by URL -------------------------------------------------------------------------------

/** The blob settings (SVC_BLOBS__*), as the config holds them. */
export interface BlobStoreSettings {
  /** `file:///absolute/path` or `s3://bucket[/prefix]`. */
  url: string;
  endpoint?: string;
  region?: string;
  access_key_id?: string;
  secret_access_key?: string;
  force_path_style?: boolean;
}

export type ParsedBlobUrl = { kind: 'file'; root: string } | { kind: 's3'; bucket: string; prefix: string };

/** Parses SVC_BLOBS__URL; throws a message naming the expected forms. */
export function parseBlobUrl(url: string): ParsedBlobUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not a URL: expected file:///absolute/path or s3://bucket/prefix, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol === 'file:') {
    if (parsed.host && parsed.host !== 'localhost') throw new Error(`a file: URL names a local path (file:///path), got host ${parsed.host}`);
    return { kind: 'file', root: fileURLToPath(parsed) };
  }
  if (parsed.protocol === 's3:') {
    const bucket = parsed.hostname;
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`s3://<bucket>/<prefix>: ${JSON.stringify(bucket)} is not a bucket name`);
    if (parsed.search || parsed.hash || parsed.username || parsed.password || parsed.port) {
      throw new Error('s3://<bucket>/<prefix> takes no port, credentials, query or fragment (use SVC_BLOBS__ENDPOINT and the key settings)');
    }
    const prefix = decodeURIComponent(parsed.pathname).replace(/^\/+/, '').replace(/\/+$/, '');
    return { kind: 's3', bucket, prefix: prefix ? `${prefix}/` : '' };
  }
  throw new Error(`unsupported scheme ${parsed.protocol} (expected file:///absolute/path or s3://bucket/prefix)`);
}

/** The store SVC_BLOBS__* describe (the AWS SDK is loaded only for an s3:// URL). */
export function createBlobStoreFromSettings(settings: BlobStoreSettings): BlobStore {
  const parsed = parseBlobUrl(settings.url);
  if (parsed.kind === 'file') return createFileBlobStore(parsed.root);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createS3BlobStore } = require('./blob-store-s3') as typeof import('./blob-store-s3');
  return createS3BlobStore({ ...settings, bucket: parsed.bucket, prefix: parsed.prefix });
}

/** The store of a platform process: SVC_BLOBS__URL and its settings, else `<data_dir>/blobs`. */
export function createConfiguredBlobStore(config: { data_dir: string; blobs: Omit<BlobStoreSettings, 'url'> & { url?: string } }): BlobStore {
  return createBlobStoreFromSettings({ ...config.blobs, url: config.blobs.url ?? pathToFileURL(path.join(config.data_dir, 'blobs')).href });
}
