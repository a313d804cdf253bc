// The vault: envelope encryption of sensitive records (an intake reporter's contact data).
// Each record is sealed with AES-256-GCM under its own random data key; the data key is wrapped
// (AES-256-GCM too) by a master key named by a key id. The master keys come from configuration
// (SVC_VAULT__MASTER_KEY, older ones in SVC_VAULT__PREVIOUS_MASTER_KEYS) or, when none is
// configured, from a keyring created on first start under <data_dir>/vault/keyring.json (mode 0600).
// Rotation (`fip vault rotate`) adds a new active master key and re-wraps every data key; readers
// that meet a key id they do not know reload the keyring, so running processes keep decrypting.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config/config';

const ALGO = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedRecord {
  key_id: string;
  /** nonce | tag | encrypted data key */
  wrapped_key: Buffer;
  nonce: Buffer;
  /** tag | ciphertext */
  ciphertext: Buffer;
}

export class VaultKeyMissingError extends Error {
  override name = 'VaultKeyMissingError';
}

interface KeyringFile {
  version: 1;
  active: string;
  keys: Record<string, string>;
}

/** A master key's id: derived from the key, so the same key always has the same id. */
export function masterKeyId(key: Buffer): string {
  return `mk-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

function gcmSeal(key: Buffer, nonce: Buffer, plaintext: Buffer, aad: string): Buffer {
  const cipher = createCipheriv(ALGO, key, nonce);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([cipher.getAuthTag(), body]);
}

function gcmOpen(key: Buffer, nonce: Buffer, sealed: Buffer, aad: string): Buffer {
  const decipher = createDecipheriv(ALGO, key, nonce);
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.subarray(0, TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(TAG_BYTES)), decipher.final()]);
}

export interface Vault {
  /** The key id new records are wrapped with. */
  activeKeyId(): string;
  /** Seals `plaintext`; `context` (e.g. `intake:<id>`) is bound as associated data. */
  seal(plaintext: Buffer, context: string): SealedRecord;
  open(record: SealedRecord, context: string): Buffer;
  /** The record with its data key re-wrapped under the active master key (ciphertext unchanged). */
  rewrap(record: SealedRecord): SealedRecord;
}

export interface MasterKeySource {
  /** Active key id and every key known (id -> key). */
  load(): { active: string; keys: Map<string, Buffer> };
  /** Adds a new active key (keyring only); returns its id. */
  addKey?(): string;
}

export function keyringPath(dataDir: string): string {
  return path.join(dataDir, 'vault', 'keyring.json');
}

function readKeyring(file: string): KeyringFile {
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as KeyringFile;
  if (parsed.version !== 1 || typeof parsed.active !== 'string' || !parsed.keys[parsed.active]) throw new Error(`vault keyring ${file} is malformed`);
  return parsed;
}

function writeKeyring(file: string, ring: KeyringFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(ring, null, 2), { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
}

/** The keyring under the data directory, created on first use with one fresh key. */
export function keyringSource(dataDir: string): MasterKeySource {
  const file = keyringPath(dataDir);
  const ensure = (): KeyringFile => {
    if (!fs.existsSync(file)) {
      const key = randomBytes(32);
      const id = masterKeyId(key);
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        // wx: of two processes starting together, one creates the keyring and the other reads it.
        fs.writeFileSync(file, JSON.stringify({ version: 1, active: id, keys: { [id]: key.toString('base64') } }, null, 2), { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    return readKeyring(file);
  };
  let cached: { mtimeMs: number; value: { active: string; keys: Map<string, Buffer> } } | null = null;
  return {
    load() {
      const ring = ensure();
      const mtimeMs = fs.statSync(file).mtimeMs;
      if (cached && cached.mtimeMs === mtimeMs && cached.value.active === ring.active) return cached.value;
      const value = { active: ring.active, keys: new Map(Object.entries(ring.keys).map(([id, k]) => [id, Buffer.from(k, 'base64')])) };
      cached = { mtimeMs, value };
      return value;
    },
    addKey() {
      const ring = ensure();
      const key = randomBytes(32);
      const id = masterKeyId(key);
      writeKeyring(file, { version: 1, active: id, keys: { ...ring.keys, [id]: key.toString('base64') } });
      return id;
    },
  };
}

/** Master keys from configuration: the active one and the previous ones (still readable). */
export function configuredKeySource(active: string, previous: readonly string[]): MasterKeySource {
  const activeKey = Buffer.from(active, 'base64');
  const keys = new Map<string, Buffer>([[masterKeyId(activeKey), activeKey]]);
  for (const p of previous) {
    const k = Buffer.from(p, 'base64');
    keys.set(masterKeyId(k), k);
  }
  return { load: () => ({ active: masterKeyId(activeKey), keys }) };
}

export function masterKeySourceFor(config: AppConfig): MasterKeySource {
  return config.vault.master_key ? configuredKeySource(config.vault.master_key, config.vault.previous_master_keys) : keyringSource(config.data_dir);
}

export function createVault(source: MasterKeySource): Vault {
  let state = source.load();
  const keyFor = (id: string): Buffer => {
    let key = state.keys.get(id);
    if (!key) {
      // Rotated by another process since we loaded: read the keys again.
      state = source.load();
      key = state.keys.get(id);
    }
    if (!key) throw new VaultKeyMissingError(`the vault has no master key ${id}`);
    return key;
  };
  const unwrap = (record: SealedRecord): Buffer => {
    const master = keyFor(record.key_id);
    return gcmOpen(master, record.wrapped_key.subarray(0, NONCE_BYTES), record.wrapped_key.subarray(NONCE_BYTES), `key:${record.key_id}`);
  };
  const wrap = (dataKey: Buffer): { key_id: string; wrapped_key: Buffer } => {
    const id = state.active;
    const nonce = randomBytes(NONCE_BYTES);
    return { key_id: id, wrapped_key: Buffer.concat([nonce, gcmSeal(keyFor(id), nonce, dataKey, `key:${id}`)]) };
  };
  return {
    activeKeyId: () => state.active,
    seal(plaintext, context) {
      // A rotation in another process makes its new key the active one here too.
      state = source.load();
      const dataKey = randomBytes(32);
      const nonce = randomBytes(NONCE_BYTES);
      const ciphertext = gcmSeal(dataKey, nonce, plaintext, context);
      return { ...wrap(dataKey), nonce, ciphertext };
    },
    open(record, context) {
      return gcmOpen(unwrap(record), record.nonce, record.ciphertext, context);
    },
    rewrap(record) {
      state = source.load();
      return { ...record, ...wrap(unwrap(record)) };
    },
  };
}

const vaults = new Map<string, Vault>();

/** One vault per process and configuration (the keyring is read once, then on rotation). */
export function vaultFor(config: AppConfig): Vault {
  const id = `${config.data_dir}\u0000${config.vault.master_key ?? ''}\u0000${config.vault.previous_master_keys.join(',')}`;
  let vault = vaults.get(id);
  if (!vault) {
    vault = createVault(masterKeySourceFor(config));
    vaults.set(id, vault);
  }
  return vault;
}
