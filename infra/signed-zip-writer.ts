// Writes a signed package as a streamed ZIP (archiver): the files one at a time, each hashed as it
// passes (memory stays flat however large), then files that depend on what was written (the custody
// log), then datapackage.json listing every file and datapackage-digest.json signing it.
// Every entry carries the same fixed date, so the same files give the same entry bytes.
import { createHash } from 'node:crypto';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { createSignedManifest, DIGEST_PATH, MANIFEST_PATH, type ManifestFile, type ManifestOptions, type ManifestSigner } from '../domain/evidence/package-manifest';
import { digestTimestampField, TIMESTAMP_TOKEN_PATH } from '../domain/evidence/timestamp-token';

export interface ZipEntrySource {
  path: string;
  open(): Readable | Buffer | Promise<Readable | Buffer>;
  /** Stored without compression (WARCs and indexes in a WACZ). */
  store?: boolean;
}

export interface WrittenFile extends ManifestFile {
  path: string;
}

export interface SignedZipOptions {
  /** The date of every entry (e.g. the capture time). */
  date: Date;
  signer: ManifestSigner;
  manifest: Omit<ManifestOptions, 'created'> & { created?: string };
  /** Called after the files: more files (e.g. the custody log), given what was written. */
  after?: (written: readonly WrittenFile[]) => Promise<ZipEntrySource[]>;
  /**
   * Trusted time: asked with the manifest's bytes once they are known, answers an RFC 3161 token
   * (or null), which cannot be listed in the manifest it vouches for: written beside it as
   * `timestamp.tsr`, or (`embedInDigest`, for a WACZ, whose validators refuse unlisted files) as
   * `timestamp.token` (base64) in datapackage-digest.json.
   */
  timestamp?: { stamp: (manifestBytes: Buffer) => Promise<Buffer | null>; embedInDigest?: boolean };
  /** Called once the package is complete (manifest hash, files). */
  onComplete?: (result: { files: WrittenFile[]; manifestSha256: string; keyId: string }) => void | Promise<void>;
}

/** The ZIP as a readable stream; entries are produced lazily as the consumer reads. */
export function signedZipStream(entries: AsyncIterable<ZipEntrySource> | Iterable<ZipEntrySource>, options: SignedZipOptions): Readable {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const out = new PassThrough();
  archive.on('error', (err) => out.destroy(err));
  archive.pipe(out);

  const appendOne = async (source: ZipEntrySource): Promise<WrittenFile> => {
    const body = await source.open();
    const hash = createHash('sha256');
    let bytes = 0;
    const entryDone = new Promise<void>((resolve, reject) => {
      // A consumer that goes away (a client disconnecting) ends the package: no entry would ever finish.
      const onClose = () => {
        archive.off('entry', onEntry);
        if (!Buffer.isBuffer(body)) body.destroy();
        reject(new Error('the package stream was closed before it was complete'));
      };
      const onEntry = (entry: { name: string }) => {
        if (entry.name !== source.path) return;
        archive.off('entry', onEntry);
        archive.off('error', reject);
        out.off('close', onClose);
        resolve();
      };
      archive.on('entry', onEntry);
      archive.once('error', reject);
      if (out.destroyed) onClose();
      else out.once('close', onClose);
    });
    if (Buffer.isBuffer(body)) {
      hash.update(body);
      bytes = body.length;
      archive.append(body, { name: source.path, date: options.date, store: source.store });
    } else {
      const hashing = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          hash.update(chunk);
          bytes += chunk.length;
          cb(null, chunk);
        },
      });
      body.on('error', (err) => hashing.destroy(err));
      hashing.on('error', (err) => out.destroy(err));
      archive.append(body.pipe(hashing), { name: source.path, date: options.date, store: source.store });
    }
    await entryDone;
    return { path: source.path, sha256: hash.digest('hex'), bytes };
  };

  void (async () => {
    const written: WrittenFile[] = [];
    for await (const source of entries) written.push(await appendOne(source));
    for (const source of (await options.after?.(written)) ?? []) written.push(await appendOne(source));
    const created = options.manifest.created ?? new Date().toISOString();
    const signed = createSignedManifest(written, options.signer, { ...options.manifest, created });
    const token = (await options.timestamp?.stamp(signed.manifestBytes)) ?? null;
    const embed = token !== null && options.timestamp?.embedInDigest === true;
    const digestBytes = embed ? Buffer.from(`${JSON.stringify({ ...(JSON.parse(signed.digestBytes.toString('utf8')) as object), ...digestTimestampField(token) }, null, 2)}\n`, 'utf8') : signed.digestBytes;
    archive.append(signed.manifestBytes, { name: MANIFEST_PATH, date: options.date });
    archive.append(digestBytes, { name: DIGEST_PATH, date: options.date });
    if (token && !embed) archive.append(token, { name: TIMESTAMP_TOKEN_PATH, date: options.date });
    await archive.finalize();
    await options.onComplete?.({ files: written, manifestSha256: signed.digest.hash, keyId: options.signer.keyId });
  })().catch((err: unknown) => {
    archive.abort();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}
