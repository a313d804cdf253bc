// The base58check checksum: the last 4 bytes equal SHA-256(SHA-256(payload))[0..4].
// Node's own SHA-256 (OpenSSL): a few times faster per call than a JavaScript implementation, and
// checksums are computed for every base58-shaped candidate of a page.
import { hash } from 'node:crypto';

/** Returns the payload without its checksum, or undefined when the checksum does not match. */
export function stripDoubleSha256Checksum(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length < 5) return undefined;
  const payload = bytes.subarray(0, bytes.length - 4);
  const digest = hash('sha256', hash('sha256', payload, 'buffer'), 'buffer');
  for (let i = 0; i < 4; i++) if (digest[i] !== bytes[bytes.length - 4 + i]) return undefined;
  return payload;
}
