// Offline verification of a signed evidence package (an evidence bundle, an LEA package, a dossier):
// a directory or a ZIP on disk, or any set of named byte streams (blobs). Every file is hashed
// as a stream (flat memory however large); the verdict itself is domain/evidence/verify-package.ts.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DIGEST_PATH, MANIFEST_PATH } from '../../domain/evidence/package-manifest';
import { verifyPackageContents, type FoundFile, type VerificationResult, type VerifyOptions } from '../../domain/evidence/verify-package';
import { TIMESTAMP_TOKEN_PATH } from '../../domain/evidence/timestamp-token';
import { checkTimestamp, type TimestampVerdict } from './trusted-time';

export interface PackageEntry {
  /** Path inside the package (`/`-separated). */
  path: string;
  open(): Readable | Promise<Readable>;
}

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

async function hashStream(stream: Readable, keep: boolean): Promise<{ sha256: string; bytes: number; body: Buffer | null }> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    const buf = chunk as Buffer;
    hash.update(buf);
    bytes += buf.length;
    if (keep) {
      if (bytes > MAX_MANIFEST_BYTES) throw new Error('the manifest is too large');
      chunks.push(buf);
    }
  }
  return { sha256: hash.digest('hex'), bytes, body: keep ? Buffer.concat(chunks) : null };
}

/** The signature's verdict plus the trusted-time token's (an invalid token makes the package invalid). */
export interface PackageVerification extends VerificationResult {
  timestamp: TimestampVerdict;
}

export interface PackageVerifyOptions extends VerifyOptions {
  /** The time-stamping authority's CA (PEM file): the token's signature chain is checked too. */
  tsaCaFile?: string;
}

/** Verifies a package given as named streams (e.g. blobs of a dossier). */
export async function verifyPackageEntries(entries: Iterable<PackageEntry> | AsyncIterable<PackageEntry>, options: PackageVerifyOptions = {}): Promise<PackageVerification> {
  let manifestBytes: Buffer | null = null;
  let digestBytes: Buffer | null = null;
  let tokenFile: Buffer | null = null;
  const files: FoundFile[] = [];
  for await (const entry of entries) {
    const isManifest = entry.path === MANIFEST_PATH;
    const isDigest = entry.path === DIGEST_PATH;
    const isTimestamp = entry.path === TIMESTAMP_TOKEN_PATH;
    const { sha256, bytes, body } = await hashStream(await entry.open(), isManifest || isDigest || isTimestamp);
    if (isManifest) manifestBytes = body;
    else if (isDigest) digestBytes = body;
    else if (isTimestamp) tokenFile = body;
    else files.push({ path: entry.path, sha256, bytes });
  }
  const result = verifyPackageContents({ manifestBytes, digestBytes, files }, options);
  const stamp = await checkTimestamp({ manifestBytes, tokenFile, digestBytes, tsaCaFile: options.tsaCaFile });
  const problems = [...result.problems, ...stamp.problems];
  return { ...result, valid: problems.length === 0, problems, timestamp: stamp.verdict };
}

function* directoryEntries(root: string, prefix = ''): Generator<PackageEntry> {
  for (const dirent of fs.readdirSync(path.join(root, prefix), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${dirent.name}` : dirent.name;
    if (dirent.isDirectory()) yield* directoryEntries(root, rel);
    else if (dirent.isFile()) yield { path: rel, open: () => fs.createReadStream(path.join(root, rel)) };
  }
}

interface UnzipperFile {
  path: string;
  type: 'File' | 'Directory';
  stream(): Readable;
}
// unzipper (reads the ZIP's central directory and streams one entry at a time) has no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const unzipper = require('unzipper') as { Open: { file(p: string): Promise<{ files: UnzipperFile[] }> } };

async function zipEntries(file: string): Promise<PackageEntry[]> {
  const directory = await unzipper.Open.file(file);
  return directory.files.filter((f) => f.type === 'File').map((f) => ({ path: f.path, open: () => f.stream() }));
}

/** Verifies a package directory or ZIP file (`fip evidence verify`, tests, the dossier check). */
export async function verifyPackage(dirOrZip: string, options: PackageVerifyOptions = {}): Promise<PackageVerification> {
  const stat = fs.statSync(dirOrZip);
  if (stat.isDirectory()) return verifyPackageEntries(directoryEntries(dirOrZip), options);
  let entries: PackageEntry[];
  try {
    entries = await zipEntries(dirOrZip);
  } catch (err) {
    throw new Error(`${dirOrZip} is neither a directory nor a readable ZIP file (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
  return verifyPackageEntries(entries, options);
}
