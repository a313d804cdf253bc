// The pure half of package verification: given the manifest bytes, the digest file bytes and the
// hash and size of every other file found in the package, say whether it is intact and name each
// file that is not. Reading a directory, a ZIP or blobs is services/evidence/evidence-verification.ts.
import type { KeyObject } from 'node:crypto';
import { DIGEST_PATH, MANIFEST_PATH, isSafePackagePath, prefixedSha256, sha256Hex, type PackageDigest, type PackageManifest } from './package-manifest';
import { parsePublicKey, signingKeyId, verifyMessage } from './signing-key';

export interface FoundFile {
  path: string;
  /** Hex SHA-256 of the bytes found. */
  sha256: string;
  bytes: number;
}

export interface PackageContents {
  /** null when the package has no datapackage.json. */
  manifestBytes: Buffer | null;
  digestBytes: Buffer | null;
  /** Every other file in the package. */
  files: readonly FoundFile[];
}

export type ProblemCode =
  | 'changed'
  | 'missing'
  | 'extra'
  | 'manifest_missing'
  | 'manifest_malformed'
  | 'manifest_digest_mismatch'
  | 'digest_missing'
  | 'digest_malformed'
  | 'bad_signature'
  | 'key_id_mismatch'
  | 'unknown_key_id'
  // The RFC 3161 token beside the manifest (services/evidence/trusted-time.ts).
  | 'timestamp_malformed'
  | 'timestamp_mismatch'
  | 'timestamp_untrusted';

export interface VerificationProblem {
  /** The file the problem is about (a package path). */
  file: string;
  code: ProblemCode;
  message: string;
}

export interface VerifiedArtifact {
  name: string;
  /** `sha256:<hex>` of the bytes found (the listed hash when the file is missing). */
  sha256: string;
  ok: boolean;
}

export interface VerificationResult {
  valid: boolean;
  key_id: string | null;
  artifacts: VerifiedArtifact[];
  problems: VerificationProblem[];
}

export interface VerifyOptions {
  /** Key id -> SPKI PEM. When given, a package signed by a key not in it is invalid (`unknown_key_id`). */
  trustedKeys?: ReadonlyMap<string, string>;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

function isManifest(value: unknown): value is PackageManifest {
  const m = value as PackageManifest;
  return (
    typeof m === 'object' && m !== null && typeof m.created === 'string' && typeof m.software === 'string' && Array.isArray(m.resources) &&
    m.resources.every((r) => typeof r === 'object' && r !== null && typeof r.path === 'string' && typeof r.hash === 'string' && typeof r.bytes === 'number')
  );
}

function isDigest(value: unknown): value is PackageDigest {
  const d = value as PackageDigest;
  return (
    typeof d === 'object' && d !== null && typeof d.hash === 'string' && typeof d.path === 'string' &&
    typeof d.signedData === 'object' && d.signedData !== null &&
    typeof d.signature === 'object' && d.signature !== null &&
    ['key_id', 'algorithm', 'public_key', 'signature', 'signed_at'].every((k) => typeof (d.signature as unknown as Record<string, unknown>)[k] === 'string')
  );
}

function derBase64(pem: string): string {
  return pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
}

/** Checks the signature block; returns the key id it claims (null when unreadable). */
function checkDigest(digestBytes: Buffer, manifestHash: string, manifest: PackageManifest | null, options: VerifyOptions, problems: VerificationProblem[]): string | null {
  const parsed = parseJson(digestBytes);
  if (!isDigest(parsed)) {
    problems.push({ file: DIGEST_PATH, code: 'digest_malformed', message: `${DIGEST_PATH} is not a signed manifest digest (unreadable JSON or missing fields)` });
    return null;
  }
  const bad = (message: string, code: ProblemCode = 'digest_malformed') => problems.push({ file: DIGEST_PATH, code, message });
  // Every byte of the digest file is either covered by the signature or must equal something that is:
  // the file must be exactly the platform's serialization of its fields, and redundant fields must agree.
  if (`${JSON.stringify(parsed, null, 2)}\n` !== digestBytes.toString('utf8')) bad(`${DIGEST_PATH} has been altered (it is not in the form the platform writes)`);
  if (parsed.path !== MANIFEST_PATH) bad(`${DIGEST_PATH} names ${JSON.stringify(parsed.path)} instead of ${MANIFEST_PATH}`);
  const sig = parsed.signature;
  const signed = parsed.signedData;
  if (sig.algorithm !== 'ed25519') bad(`unsupported signature algorithm ${JSON.stringify(sig.algorithm)}`);
  if (signed.hash !== parsed.hash || signed.signature !== sig.signature || sig.signed_at !== signed.created) bad(`${DIGEST_PATH}: signedData disagrees with the signature block`);
  if (manifest && (signed.created !== manifest.created || signed.software !== manifest.software)) bad(`${DIGEST_PATH}: signedData created/software differ from ${MANIFEST_PATH}`);
  if (parsed.hash !== manifestHash) {
    problems.push({ file: MANIFEST_PATH, code: 'manifest_digest_mismatch', message: `${MANIFEST_PATH} has been changed: its digest is ${manifestHash}, the signed digest is ${parsed.hash}` });
  }
  let embedded: KeyObject;
  try {
    embedded = parsePublicKey(sig.public_key);
  } catch {
    bad(`${DIGEST_PATH}: the public key is not an Ed25519 key`, 'bad_signature');
    return sig.key_id;
  }
  if (derBase64(sig.public_key) !== signed.publicKey) bad(`${DIGEST_PATH}: signedData.publicKey differs from signature.public_key`);
  if (signingKeyId(embedded) !== sig.key_id) bad(`key id ${sig.key_id} is not the fingerprint of the enclosed public key (${signingKeyId(embedded)})`, 'key_id_mismatch');
  let key = embedded;
  if (options.trustedKeys) {
    const trusted = options.trustedKeys.get(sig.key_id);
    if (!trusted) {
      bad(`signed by key ${sig.key_id}, which is not a trusted key`, 'unknown_key_id');
      return sig.key_id;
    }
    key = parsePublicKey(trusted);
  }
  if (!verifyMessage(key, Buffer.from(parsed.hash, 'utf8'), Buffer.from(sig.signature, 'base64'))) {
    bad(`the signature over ${parsed.hash} does not verify with key ${sig.key_id}`, 'bad_signature');
  }
  return sig.key_id;
}

export function verifyPackageContents(contents: PackageContents, options: VerifyOptions = {}): VerificationResult {
  const problems: VerificationProblem[] = [];
  const artifacts: VerifiedArtifact[] = [];
  const found = new Map(contents.files.map((f) => [f.path, f]));
  let manifest: PackageManifest | null = null;
  let keyId: string | null = null;

  if (!contents.manifestBytes) {
    problems.push({ file: MANIFEST_PATH, code: 'manifest_missing', message: `${MANIFEST_PATH} is missing` });
  } else {
    const parsed = parseJson(contents.manifestBytes);
    if (isManifest(parsed)) manifest = parsed;
    else problems.push({ file: MANIFEST_PATH, code: 'manifest_malformed', message: `${MANIFEST_PATH} is not a manifest (unreadable JSON or missing fields)` });
  }
  const manifestHash = contents.manifestBytes ? `sha256:${sha256Hex(contents.manifestBytes)}` : '';
  if (!contents.digestBytes) {
    problems.push({ file: DIGEST_PATH, code: 'digest_missing', message: `${DIGEST_PATH} (the signature) is missing` });
  } else if (contents.manifestBytes) {
    keyId = checkDigest(contents.digestBytes, manifestHash, manifest, options, problems);
  }

  const listed = new Set<string>();
  for (const resource of manifest?.resources ?? []) {
    listed.add(resource.path);
    const file = isSafePackagePath(resource.path) ? found.get(resource.path) : undefined;
    if (!file) {
      problems.push({ file: resource.path, code: 'missing', message: `${resource.path} is listed in the manifest but missing` });
      artifacts.push({ name: resource.path, sha256: resource.hash, ok: false });
      continue;
    }
    const actual = prefixedSha256(file.sha256);
    const ok = actual === resource.hash && file.bytes === resource.bytes;
    if (!ok) problems.push({ file: resource.path, code: 'changed', message: `${resource.path} has been changed: sha256 ${actual} (${file.bytes} bytes), listed ${resource.hash} (${resource.bytes} bytes)` });
    artifacts.push({ name: resource.path, sha256: actual, ok });
  }
  for (const file of contents.files) {
    if (listed.has(file.path)) continue;
    problems.push({ file: file.path, code: 'extra', message: `${file.path} is not listed in the manifest` });
    artifacts.push({ name: file.path, sha256: prefixedSha256(file.sha256), ok: false });
  }
  if (contents.manifestBytes) {
    artifacts.unshift({ name: MANIFEST_PATH, sha256: manifestHash, ok: !problems.some((p) => p.file === MANIFEST_PATH) });
  }
  if (contents.digestBytes) {
    artifacts.unshift({ name: DIGEST_PATH, sha256: `sha256:${sha256Hex(contents.digestBytes)}`, ok: !problems.some((p) => p.file === DIGEST_PATH) });
  }
  return { valid: problems.length === 0, key_id: keyId, artifacts, problems };
}
