// The base58check checksum: the last 4 bytes equal SHA-256(SHA-256(payload))[0..4].
import { sha256 } from '@noble/hashes/sha2.js';

/** Returns the payload without its checksum, or undefined when the checksum does not match. */
export function stripDoubleSha256Checksum(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length < 5) return undefined;
  const payload = bytes.subarray(0, bytes.length - 4);
  const digest = sha256(sha256(payload));
  for (let i = 0; i < 4; i++) if (digest[i] !== bytes[bytes.length - 4 + i]) return undefined;
  return payload;
}
