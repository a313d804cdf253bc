import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// An API key is `fip_<prefix>_<secret>`: the prefix finds the row, the SHA-256 of the whole key is
// what is stored. Keys are 256-bit random, so a fast hash is the right tool (no password stretching).
const KEY_RE = /^fip_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

/** What a key's name may be (who uses it, e.g. intake-bot): 2-64 letters, digits, . _ -. */
export const API_KEY_NAME_RE = /^[a-z0-9][a-z0-9._-]{1,63}$/i;

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: Buffer;
}

export function generateApiKey(): NewApiKey {
  const prefix = randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 12);
  const key = `fip_${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function apiKeyPrefix(key: string): string | null {
  const m = KEY_RE.exec(key);
  return m ? m[1] : null;
}

/** Constant-time comparison of a presented key against a stored hash. */
export function apiKeyMatches(presented: string, storedHash: Buffer): boolean {
  const h = hashApiKey(presented);
  return h.length === storedHash.length && timingSafeEqual(h, storedHash);
}
