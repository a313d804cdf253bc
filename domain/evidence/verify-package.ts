// The pure half of package verification: given the manifest bytes, the digest file bytes and the
// hash and size of every other file found in the package, say whether it is intact and name each
// file that is not. Reading a directory, a ZIP or blobs is services/evidence/evidence-verification.ts.
import type { KeyObject } from 'node:crypto';
import { DIGEST_PATH, MANIFEST_PATH, WACZ_AUTH_VERSION, isSafePackagePath, prefixedSha256, sha256Hex, type PackageDigest, type PackageManifest } from './package-manifest';
import { ecdsaRawToDer, keyAlgorithm, keyFingerprint, parsePublicKey, signingKeyId, verifyMessage } from './signing-key';

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
  | 'untrusted_key'
  // The RFC 3161 token over the manifest (services/evidence/trusted-time.ts).
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
  /** SHA-256 (hex) of the SPKI DER of the key enclosed in the package: compare it with the one received out of band. */
  fingerprint: string | null;
  algorithm: string | null;
  /** Whether that key is in the trusted set; null when no trusted set was given (nothing vouches for the key). */
  trusted: boolean | null;
  artifacts: VerifiedArtifact[];
  problems: VerificationProblem[];
}

export interface VerifyOptions {
  /** Key id -> SPKI PEM. When this or trustedFingerprints is given, a package signed by any other key is invalid (`untrusted_key`). */
  trustedKeys?: ReadonlyMap<string, string>;
  /** SHA-256 (hex) fingerprints of the SPKI DER of trusted keys. */
  trustedFingerprints?: Iterable<string>;
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

/** Fingerprints (SHA-256 of SPKI DER) of every key the caller trusts; null: no trust set was given. */
function trustedFingerprintSet(options: VerifyOptions): Set<string> | null {
  if (!options.trustedKeys && !options.trustedFingerprints) return null;
  const set = new Set<string>([...(options.trustedFingerprints ?? [])].map((f) => f.toLowerCase()));
  for (const pem of options.trustedKeys?.values() ?? []) set.add(keyFingerprint(parsePublicKey(pem)));
  return set;
}

interface Signer {
  keyId: string | null;
  fingerprint: string | null;
  algorithm: string | null;
  trusted: boolean | null;
}

/** Checks the signature block; returns who signed it as far as it can be read. */
function checkDigest(digestBytes: Buffer, manifestHash: string, manifest: PackageManifest | null, options: VerifyOptions, problems: VerificationProblem[]): Signer {
  const parsed = parseJson(digestBytes);
  if (!isDigest(parsed)) {
    problems.push({ file: DIGEST_PATH, code: 'digest_malformed', message: `${DIGEST_PATH} is not a signed manifest digest (unreadable JSON or missing fields)` });
    return { keyId: null, fingerprint: null, algorithm: null, trusted: null };
  }
  const bad = (message: string, code: ProblemCode = 'digest_malformed') => problems.push({ file: DIGEST_PATH, code, message });
  // Every byte of the digest file is either covered by the signature or must equal something that is:
  // the file must be exactly the platform's serialization of its fields, and redundant fields must agree.
  if (`${JSON.stringify(parsed, null, 2)}\n` !== digestBytes.toString('utf8')) bad(`${DIGEST_PATH} has been altered (it is not in the form the platform writes)`);
  if (parsed.path !== MANIFEST_PATH) bad(`${DIGEST_PATH} names ${JSON.stringify(parsed.path)} instead of ${MANIFEST_PATH}`);
  const sig = parsed.signature;
  const signed = parsed.signedData;
  const signer: Signer = { keyId: sig.key_id, fingerprint: null, algorithm: sig.algorithm, trusted: null };
  if (sig.algorithm !== 'ecdsa-p384-sha256' && sig.algorithm !== 'ed25519') bad(`unsupported signature algorithm ${JSON.stringify(sig.algorithm)}`);
  if (signed.hash !== parsed.hash || signed.signature !== sig.signature || sig.signed_at !== signed.created) bad(`${DIGEST_PATH}: signedData disagrees with the signature block`);
  if (manifest && (signed.created !== manifest.created || signed.software !== manifest.software)) bad(`${DIGEST_PATH}: signedData created/software differ from ${MANIFEST_PATH}`);
  if (parsed.hash !== manifestHash) {
    problems.push({ file: MANIFEST_PATH, code: 'manifest_digest_mismatch', message: `${MANIFEST_PATH} has been changed: its digest is ${manifestHash}, the signed digest is ${parsed.hash}` });
  }
  let key: KeyObject;
  try {
    key = parsePublicKey(sig.public_key);
  } catch {
    bad(`${DIGEST_PATH}: the enclosed public key is neither an ECDSA P-384 nor an Ed25519 key`, 'bad_signature');
    return signer;
  }
  const fingerprint = keyFingerprint(key);
  signer.fingerprint = fingerprint;
  if (keyAlgorithm(key) !== sig.algorithm) bad(`${DIGEST_PATH}: the enclosed key is ${keyAlgorithm(key)}, the signature claims ${sig.algorithm}`);
  if (derBase64(sig.public_key) !== signed.publicKey) bad(`${DIGEST_PATH}: signedData.publicKey differs from signature.public_key`);
  if (signingKeyId(key) !== sig.key_id) bad(`key id ${sig.key_id} is not the fingerprint of the enclosed public key (${signingKeyId(key)})`, 'key_id_mismatch');
  const raw = Buffer.from(sig.signature, 'base64');
  if (sig.algorithm === 'ecdsa-p384-sha256') {
    if (signed.version !== WACZ_AUTH_VERSION) bad(`${DIGEST_PATH}: signedData.version is ${JSON.stringify(signed.version)}, not ${WACZ_AUTH_VERSION}`);
    if (sig.fingerprint !== fingerprint) bad(`${DIGEST_PATH}: the fingerprint ${String(sig.fingerprint)} is not that of the enclosed key (${fingerprint})`, 'key_id_mismatch');
    let der = '';
    try {
      der = ecdsaRawToDer(raw).toString('base64');
    } catch {
      // a signature of the wrong length fails below
    }
    if (sig.signature_der !== der) bad(`${DIGEST_PATH}: signature_der is not the DER form of the signature`);
  }
  if (!verifyMessage(key, Buffer.from(parsed.hash, 'utf8'), raw)) {
    bad(`the signature over ${parsed.hash} does not verify with the enclosed key ${sig.key_id} (fingerprint ${fingerprint})`, 'bad_signature');
  }
  const trusted = trustedFingerprintSet(options);
  if (trusted) {
    signer.trusted = trusted.has(fingerprint);
    if (!signer.trusted) {
      bad(`the signer is UNTRUSTED: key ${sig.key_id} with fingerprint ${fingerprint} is not in the trusted set (the key ring, --public-key or --fingerprint); the package may have been re-signed by someone else`, 'untrusted_key');
    }
  }
  return signer;
}

export function verifyPackageContents(contents: PackageContents, options: VerifyOptions = {}): VerificationResult {
  const problems: VerificationProblem[] = [];
  const artifacts: VerifiedArtifact[] = [];
  const found = new Map(contents.files.map((f) => [f.path, f]));
  let manifest: PackageManifest | null = null;
  let signer: Signer = { keyId: null, fingerprint: null, algorithm: null, trusted: null };

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
    signer = checkDigest(contents.digestBytes, manifestHash, manifest, options, problems);
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
  return { valid: problems.length === 0, key_id: signer.keyId, fingerprint: signer.fingerprint, algorithm: signer.algorithm, trusted: signer.trusted, artifacts, problems };
}
