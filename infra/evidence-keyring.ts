// The evidence signing keys (ECDSA P-384, domain/evidence/signing-key.ts). Either configured
// (SVC_EVIDENCE__SIGNING_KEY: a PKCS#8 PEM private key, or the path of a file holding one) or, when
// unset, a keyring created on first use under <data_dir>/evidence/signing-keys.json (file mode 0600,
// directory 0700).
// Rotation (`fip evidence keys rotate`, keyring only) makes a fresh key active and keeps every
// earlier PUBLIC key (its private key is dropped), so packages signed before still verify.
// A keyring whose active key is still an Ed25519 one (before the switch to P-384) is rotated once
// on first use: the Ed25519 key stays, retired, to verify the packages it signed.
// Public keys of earlier configured keys: SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS (PEMs or paths).
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config/config';
import type { ManifestSigner } from '../domain/evidence/package-manifest';
import { isP384, keyAlgorithm, keyFingerprint, parsePublicKey, publicKeyPem, signingKeyId, signMessage, type SignatureAlgorithm } from '../domain/evidence/signing-key';

export class EvidenceKeyringError extends Error {
  override name = 'EvidenceKeyringError';
}

interface StoredKey {
  public_key: string;
  /** PKCS#8 PEM; absent once the key is retired by a rotation. */
  private_key?: string;
  created_at: string;
  retired_at?: string;
}

interface KeyringFile {
  version: 1;
  active: string;
  keys: Record<string, StoredKey>;
}

export interface SigningKeyInfo {
  key_id: string;
  /** SHA-256 (hex) of the SPKI DER: what recipients compare. */
  fingerprint: string;
  algorithm: SignatureAlgorithm;
  active: boolean;
  created_at: string | null;
  retired_at: string | null;
  can_sign: boolean;
  source: 'keyring' | 'configured' | 'previous';
  public_key: string;
}

export interface EvidenceKeyring {
  /** The active key as a manifest signer (domain/evidence/package-manifest.ts signManifest). */
  signer(): ManifestSigner;
  activeKeyId(): string;
  /** Every key whose packages verify: key id -> SPKI PEM (the active key and all earlier ones). */
  trustedKeys(): Map<string, string>;
  list(): SigningKeyInfo[];
  /** Keyring only: a new active key; returns its id. */
  rotate(): string;
}

export function evidenceKeyringPath(dataDir: string): string {
  return path.join(dataDir, 'evidence', 'signing-keys.json');
}

function newKey(now: Date): { id: string; stored: StoredKey } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  return {
    id: signingKeyId(publicKey),
    stored: {
      public_key: publicKeyPem(publicKey),
      private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      created_at: now.toISOString(),
    },
  };
}

function readKeyring(file: string): KeyringFile {
  const ring = JSON.parse(fs.readFileSync(file, 'utf8')) as KeyringFile;
  if (ring.version !== 1 || typeof ring.active !== 'string' || !ring.keys?.[ring.active]?.private_key) {
    throw new EvidenceKeyringError(`evidence keyring ${file} is malformed (no active private key)`);
  }
  return ring;
}

function writeKeyring(file: string, ring: KeyringFile, flag: 'wx' | 'replace'): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const body = JSON.stringify(ring, null, 2);
  if (flag === 'wx') {
    fs.writeFileSync(file, body, { mode: 0o600, flag: 'wx' });
    return;
  }
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, body, { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `fn` holding `<file>.lock` (created exclusively; one left over 30 s by a dead process is taken over). */
function withLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 30_000) fs.rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new EvidenceKeyringError(`evidence keyring ${file} is locked by another process (${lock})`);
      else sleepMs(50);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/** A new active P-384 key; every earlier key keeps only its public half. */
function rotated(ring: KeyringFile, now: Date): KeyringFile {
  const { id, stored } = newKey(now);
  const keys: Record<string, StoredKey> = {};
  for (const [kid, k] of Object.entries(ring.keys)) {
    keys[kid] = { public_key: k.public_key, created_at: k.created_at, retired_at: k.retired_at ?? now.toISOString() };
  }
  keys[id] = stored;
  return { version: 1, active: id, keys };
}

function ensureKeyring(file: string): KeyringFile {
  if (!fs.existsSync(file)) {
    const { id, stored } = newKey(new Date());
    try {
      // wx: of two processes starting together, one creates the keyring and the other reads it.
      writeKeyring(file, { version: 1, active: id, keys: { [id]: stored } }, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const ring = readKeyring(file);
  if (isP384(createPublicKey(ring.keys[ring.active]!.public_key))) return ring;
  // An Ed25519-era keyring: its key now only verifies; a P-384 key signs from here on.
  return withLock(file, () => {
    const current = readKeyring(file);
    if (isP384(createPublicKey(current.keys[current.active]!.public_key))) return current;
    const next = rotated(current, new Date());
    writeKeyring(file, next, 'replace');
    return next;
  });
}

function signerOf(privateKey: KeyObject): ManifestSigner {
  const publicKey = createPublicKey(privateKey);
  return { keyId: signingKeyId(publicKey), publicKeyPem: publicKeyPem(publicKey), sign: (message) => signMessage(privateKey, message) };
}

function describe(pem: string): { fingerprint: string; algorithm: SignatureAlgorithm } {
  const key = createPublicKey(pem);
  return { fingerprint: keyFingerprint(key), algorithm: keyAlgorithm(key) };
}

/** A PEM given inline or the path of a file holding it. */
function pemOrFile(value: string, what: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  try {
    return fs.readFileSync(value, 'utf8');
  } catch {
    throw new EvidenceKeyringError(`${what}: not a PEM and not a readable file (${value})`);
  }
}

/** The keyring under the data directory, created on first use with one fresh key. */
export function fileEvidenceKeyring(dataDir: string): EvidenceKeyring {
  const file = evidenceKeyringPath(dataDir);
  let cache: { mtimeMs: number; ring: KeyringFile; signer: ManifestSigner } | null = null;
  const load = () => {
    const ring = ensureKeyring(file);
    const mtimeMs = fs.statSync(file).mtimeMs;
    if (!cache || cache.mtimeMs !== mtimeMs || cache.ring.active !== ring.active) {
      cache = { mtimeMs, ring, signer: signerOf(createPrivateKey(ring.keys[ring.active]!.private_key!)) };
    }
    return cache;
  };
  return {
    signer: () => load().signer,
    activeKeyId: () => load().ring.active,
    trustedKeys: () => new Map(Object.entries(load().ring.keys).map(([id, k]) => [id, k.public_key])),
    list: () => {
      const { ring } = load();
      return Object.entries(ring.keys).map(([id, k]) => ({
        key_id: id,
        ...describe(k.public_key),
        active: id === ring.active,
        created_at: k.created_at,
        retired_at: k.retired_at ?? null,
        can_sign: Boolean(k.private_key),
        source: 'keyring' as const,
        public_key: k.public_key,
      }));
    },
    rotate: () => {
      load();
      const next = withLock(file, () => {
        const ring = rotated(readKeyring(file), new Date());
        writeKeyring(file, ring, 'replace');
        return ring;
      });
      cache = null;
      return next.active;
    },
  };
}

/** A configured private key (PEM or path) plus the public keys of earlier ones. */
export function configuredEvidenceKeyring(signingKey: string, previousPublicKeys: readonly string[]): EvidenceKeyring {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pemOrFile(signingKey, 'SVC_EVIDENCE__SIGNING_KEY'));
  } catch (err) {
    if (err instanceof EvidenceKeyringError) throw err;
    throw new EvidenceKeyringError('SVC_EVIDENCE__SIGNING_KEY is not a PEM private key');
  }
  if (!isP384(privateKey)) {
    const kind = `${privateKey.asymmetricKeyType ?? 'symmetric'}${privateKey.asymmetricKeyDetails?.namedCurve ? ` ${privateKey.asymmetricKeyDetails.namedCurve}` : ''}`;
    throw new EvidenceKeyringError(
      `SVC_EVIDENCE__SIGNING_KEY is a ${kind} key, not ECDSA P-384 (make one: openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384; ` +
        'the public key of an earlier Ed25519 key goes into SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS)',
    );
  }
  const signer = signerOf(privateKey);
  const previous = previousPublicKeys.map((value) => {
    const key = parsePublicKey(pemOrFile(value, 'SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS'));
    return { id: signingKeyId(key), pem: publicKeyPem(key) };
  });
  return {
    signer: () => signer,
    activeKeyId: () => signer.keyId,
    trustedKeys: () => new Map([[signer.keyId, signer.publicKeyPem], ...previous.map((p) => [p.id, p.pem] as [string, string])]),
    list: () => [
      { key_id: signer.keyId, ...describe(signer.publicKeyPem), active: true, created_at: null, retired_at: null, can_sign: true, source: 'configured' as const, public_key: signer.publicKeyPem },
      ...previous.map((p) => ({ key_id: p.id, ...describe(p.pem), active: false, created_at: null, retired_at: null, can_sign: false, source: 'previous' as const, public_key: p.pem })),
    ],
    rotate: () => {
      throw new EvidenceKeyringError(
        'the signing key is configured (SVC_EVIDENCE__SIGNING_KEY): set the new key there and add the old public key to SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS instead',
      );
    },
  };
}

const keyrings = new Map<string, EvidenceKeyring>();

/** One keyring per process and configuration. */
export function evidenceKeyringFor(config: AppConfig): EvidenceKeyring {
  const { signing_key: signingKey, previous_public_keys: previous } = config.evidence;
  const id = `${config.data_dir}\u0000${signingKey ?? ''}\u0000${previous.join(',')}`;
  let keyring = keyrings.get(id);
  if (!keyring) {
    keyring = signingKey ? configuredEvidenceKeyring(signingKey, previous) : fileEvidenceKeyring(config.data_dir);
    keyrings.set(id, keyring);
  }
  return keyring;
}

/**
 * The keys this installation trusts, without creating anything: the configured keys, else the
 * keyring's if there is one, else none (a recipient's machine: `fip evidence verify` then trusts only
 * what it is given).
 */
export function existingTrustedKeys(config: AppConfig): Map<string, string> {
  if (config.evidence.signing_key) return evidenceKeyringFor(config).trustedKeys();
  const file = evidenceKeyringPath(config.data_dir);
  if (!fs.existsSync(file)) return new Map();
  return new Map(Object.entries(readKeyring(file).keys).map(([id, k]) => [id, k.public_key]));
}
