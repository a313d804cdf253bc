// The signed manifest every evidence package carries (evidence bundles, LEA packages, dossiers):
// `datapackage.json` lists every file with path, bytes and `sha256:<hex>` (Frictionless Data
// Package, as WACZ 1.1.1 uses it), and `datapackage-digest.json` holds the manifest's own digest
// and a signature over that digest, in the anonymous variant of Webrecorder's wacz-auth 0.1.0:
//
//   { "path": "datapackage.json", "hash": "sha256:<hex>",
//     "signedData": { hash, created, software, version: "0.1.0",
//                     signature: base64 raw r‖s (ECDSA P-384, SHA-256), publicKey: base64 SPKI DER },
//     "signature": { key_id, algorithm: "ecdsa-p384-sha256", fingerprint, public_key (PEM),
//                    signature (= signedData.signature), signature_der (the same signature as DER,
//                    for `openssl dgst -verify`), signed_at } }
//
// The signed message is the UTF-8 text of the digest (`sha256:<hex>`), so a file's change changes
// its hash, which changes the manifest, which changes the digest the signature covers.
// Packages signed before the switch carry an Ed25519 signature (no `version`, `fingerprint` or
// `signature_der`); they still verify.
import { createHash } from 'node:crypto';
import { ecdsaRawToDer, keyAlgorithm, keyFingerprint, parsePublicKey, type SignatureAlgorithm } from './signing-key';

export const MANIFEST_PATH = 'datapackage.json';
export const DIGEST_PATH = 'datapackage-digest.json';
/** The WACZ version `wacz validate` (PyPI wacz 0.6.0) accepts. */
export const WACZ_VERSION = '1.1.1';
/** The wacz-auth version of the signature block (`signedData.version`). */
export const WACZ_AUTH_VERSION = '0.1.0';

export interface ManifestFile {
  /** Path inside the package, `/`-separated, relative, no `..`. */
  path: string;
  bytes: number;
  /** Hex SHA-256 of the file's bytes (a `sha256:` prefix is accepted). */
  sha256: string;
  /** Resource name; default: the path's last segment, lowercased. */
  name?: string;
}

export interface ManifestResource {
  name: string;
  path: string;
  hash: string;
  bytes: number;
}

export interface PackageManifest {
  profile: string;
  wacz_version?: string;
  title?: string;
  description?: string;
  created: string;
  software: string;
  resources: ManifestResource[];
  extras?: Record<string, unknown>;
}

export interface PackageSignature {
  key_id: string;
  algorithm: SignatureAlgorithm;
  /** SHA-256 (hex) of the public key's SPKI DER; absent in Ed25519-era packages. */
  fingerprint?: string;
  /** SPKI PEM. */
  public_key: string;
  /** Base64 signature over the UTF-8 bytes of the manifest digest (`sha256:<hex>`): raw r‖s for ECDSA. */
  signature: string;
  /** ECDSA only: the same signature DER-encoded (base64). */
  signature_der?: string;
  signed_at: string;
}

/** wacz-auth 0.1.0, anonymous signature (Ed25519-era packages lack `version`). */
export interface SignedData {
  hash: string;
  created: string;
  software: string;
  version?: string;
  signature: string;
  /** Base64 SPKI DER. */
  publicKey: string;
}

export interface PackageDigest {
  path: typeof MANIFEST_PATH;
  hash: string;
  signedData: SignedData;
  signature: PackageSignature;
}

/** What signs: the active key of the evidence keyring (infra/evidence-keyring.ts) or any other. */
export interface ManifestSigner {
  keyId: string;
  /** SPKI PEM of the public key. */
  publicKeyPem: string;
  sign(message: Buffer): Buffer;
}

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function prefixedSha256(hex: string): string {
  const bare = hex.startsWith('sha256:') ? hex.slice(7) : hex;
  if (!/^[0-9a-f]{64}$/.test(bare)) throw new Error(`not a hex SHA-256: ${hex}`);
  return `sha256:${bare}`;
}

/** A relative, `/`-separated path without `.`/`..` segments, backslashes or control characters. */
export function isSafePackagePath(p: string): boolean {
  if (!p || p.length > 500 || p.startsWith('/') || p.includes('\\') || [...p].some((c) => c.charCodeAt(0) < 0x20)) return false;
  return p.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

function resourceName(file: ManifestFile): string {
  if (file.name) return file.name;
  return file.path.toLowerCase().replace(/[^a-z0-9._/-]/g, '-');
}

export interface ManifestOptions {
  /** `data-package` for everything; `waczVersion` makes it a WACZ 1.1.1 datapackage. */
  profile?: string;
  waczVersion?: string;
  title?: string;
  description?: string;
  /** ISO 8601 UTC; also the signature's `created` (wacz validate compares them). */
  created: string;
  software: string;
  extras?: Record<string, unknown>;
}

/** The manifest of `files` (in the given order) and its exact bytes. */
export function buildManifest(files: readonly ManifestFile[], options: ManifestOptions): { manifest: PackageManifest; bytes: Buffer } {
  const seen = new Set<string>();
  for (const f of files) {
    if (!isSafePackagePath(f.path)) throw new Error(`unsafe package path: ${JSON.stringify(f.path)}`);
    if (f.path === MANIFEST_PATH || f.path === DIGEST_PATH) throw new Error(`${f.path} is the manifest itself`);
    if (seen.has(f.path)) throw new Error(`duplicate package path: ${f.path}`);
    seen.add(f.path);
  }
  const manifest: PackageManifest = {
    profile: options.profile ?? 'data-package',
    ...(options.waczVersion ? { wacz_version: options.waczVersion } : {}),
    ...(options.title ? { title: options.title } : {}),
    ...(options.description ? { description: options.description } : {}),
    created: options.created,
    software: options.software,
    resources: files.map((f) => ({ name: resourceName(f), path: f.path, hash: prefixedSha256(f.sha256), bytes: f.bytes })),
    ...(options.extras ? { extras: options.extras } : {}),
  };
  return { manifest, bytes: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8') };
}

/** The digest file for manifest bytes, signed by `signer` (`created` must be the manifest's). */
export function signManifest(manifestBytes: Buffer, signer: ManifestSigner, options: { created: string; software: string; signedAt?: string }): { digest: PackageDigest; bytes: Buffer } {
  const hash = `sha256:${sha256Hex(manifestBytes)}`;
  const publicKey = parsePublicKey(signer.publicKeyPem);
  const algorithm = keyAlgorithm(publicKey);
  if (algorithm !== 'ecdsa-p384-sha256') throw new Error(`new packages are signed with ECDSA P-384; ${signer.keyId} is an ${algorithm} key (kept to verify old packages only)`);
  const raw = signer.sign(Buffer.from(hash, 'utf8'));
  const signature = raw.toString('base64');
  const publicKeyDer = publicKeyPemToDerBase64(signer.publicKeyPem);
  const digest: PackageDigest = {
    path: MANIFEST_PATH,
    hash,
    signedData: { hash, created: options.created, software: options.software, version: WACZ_AUTH_VERSION, signature, publicKey: publicKeyDer },
    signature: {
      key_id: signer.keyId, algorithm, fingerprint: keyFingerprint(publicKey), public_key: signer.publicKeyPem,
      signature, signature_der: ecdsaRawToDer(raw).toString('base64'), signed_at: options.signedAt ?? options.created,
    },
  };
  return { digest, bytes: Buffer.from(`${JSON.stringify(digest, null, 2)}\n`, 'utf8') };
}

/** Manifest and signed digest for a set of files: what a package writer puts beside them. */
export function createSignedManifest(
  files: readonly ManifestFile[],
  signer: ManifestSigner,
  options: ManifestOptions & { signedAt?: string },
): { manifest: PackageManifest; manifestBytes: Buffer; digest: PackageDigest; digestBytes: Buffer } {
  const { manifest, bytes: manifestBytes } = buildManifest(files, options);
  const { digest, bytes: digestBytes } = signManifest(manifestBytes, signer, { created: options.created, software: options.software, signedAt: options.signedAt });
  return { manifest, manifestBytes, digest, digestBytes };
}

function publicKeyPemToDerBase64(pem: string): string {
  return pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
}
