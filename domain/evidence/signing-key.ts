// Ed25519 signing of evidence manifests (node:crypto; no hand-written cryptography).
// A key id is the public key's fingerprint: `ed25519:` + the first 16 bytes (32 hex digits) of the
// SHA-256 of the raw 32-byte public key, so the same key always has the same id and anyone holding
// the public key can recompute it.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export const SIGNATURE_ALGORITHM = 'ed25519';

/** The raw 32-byte Ed25519 public key (the `x` of its JWK form). */
export function rawEd25519PublicKey(publicKey: KeyObject): Buffer {
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${publicKey.asymmetricKeyType ?? 'symmetric'})`);
  const jwk = publicKey.export({ format: 'jwk' });
  return Buffer.from(String(jwk.x), 'base64url');
}

/** `ed25519:<32 hex digits>`: the first 16 bytes of SHA-256(raw public key). */
export function signingKeyId(publicKey: KeyObject): string {
  return `ed25519:${createHash('sha256').update(rawEd25519PublicKey(publicKey)).digest('hex').slice(0, 32)}`;
}

export function publicKeyPem(publicKey: KeyObject): string {
  return publicKey.export({ format: 'pem', type: 'spki' }).toString();
}

/** A public key from PEM (SPKI) or base64 DER (SPKI); throws on anything else. */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? createPublicKey(trimmed)
    : createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 public key (${key.asymmetricKeyType ?? 'unknown'})`);
  return key;
}

/** Ed25519 signature (64 bytes) over `message` with a private key. */
export function signMessage(privateKey: KeyObject, message: Buffer): Buffer {
  return sign(null, message, privateKey);
}

export function verifyMessage(publicKey: KeyObject, message: Buffer, signature: Buffer): boolean {
  try {
    return verify(null, message, publicKey, signature);
  } catch {
    return false;
  }
}
