// Signing keys of evidence manifests (node:crypto; no hand-written cryptography).
//
// New signatures are ECDSA over the NIST P-384 curve with SHA-256, the anonymous variant of
// Webrecorder's wacz-auth 0.1.0 (what ReplayWeb.page checks with WebCrypto): the signature is the
// raw r‖s (96 bytes, IEEE P1363), the public key SPKI DER. Ed25519 is kept only to VERIFY packages
// signed before the switch.
//
// A key's fingerprint is the SHA-256 (64 hex digits) of its SPKI DER encoding:
//   openssl pkey -pubin -in public-key.pem -outform DER | sha256sum
// A key id names the algorithm and the fingerprint's first 16 bytes: `ecdsa-p384:<32 hex>`. The
// ids of Ed25519 keys keep their old form, `ed25519:` + the first 16 bytes of the SHA-256 of the raw
// 32-byte public key, so old packages keep the key id they were signed with.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export type SignatureAlgorithm = 'ecdsa-p384-sha256' | 'ed25519';
/** The algorithm new signatures use. */
export const SIGNATURE_ALGORITHM: SignatureAlgorithm = 'ecdsa-p384-sha256';
/** Bytes of a raw P-384 signature (r‖s, 48 bytes each). */
const P384_SIGNATURE_BYTES = 96;

export function isP384(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'secp384r1';
}

/** The signature algorithm of a key; throws for any key that signs nothing here. */
export function keyAlgorithm(key: KeyObject): SignatureAlgorithm {
  if (isP384(key)) return 'ecdsa-p384-sha256';
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  throw new Error(`not an ECDSA P-384 or Ed25519 key (${key.asymmetricKeyType ?? 'symmetric'}${curve ? ` ${curve}` : ''})`);
}

/** The raw 32-byte Ed25519 public key (the `x` of its JWK form). */
export function rawEd25519PublicKey(publicKey: KeyObject): Buffer {
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${publicKey.asymmetricKeyType ?? 'symmetric'})`);
  const jwk = publicKey.export({ format: 'jwk' });
  return Buffer.from(String(jwk.x), 'base64url');
}

export function spkiDer(publicKey: KeyObject): Buffer {
  return publicKey.export({ format: 'der', type: 'spki' });
}

/** SHA-256 (hex) of the SPKI DER: what a recipient compares with the fingerprint received out of band. */
export function keyFingerprint(publicKey: KeyObject): string {
  return createHash('sha256').update(spkiDer(publicKey)).digest('hex');
}

/** `ecdsa-p384:<32 hex>` (SPKI fingerprint) or, for old keys, `ed25519:<32 hex>` (raw key). */
export function signingKeyId(publicKey: KeyObject): string {
  if (keyAlgorithm(publicKey) === 'ed25519') {
    return `ed25519:${createHash('sha256').update(rawEd25519PublicKey(publicKey)).digest('hex').slice(0, 32)}`;
  }
  return `ecdsa-p384:${keyFingerprint(publicKey).slice(0, 32)}`;
}

export function publicKeyPem(publicKey: KeyObject): string {
  return publicKey.export({ format: 'pem', type: 'spki' }).toString();
}

/** A public key from PEM (SPKI) or base64 DER (SPKI), P-384 or Ed25519; throws on anything else. */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? createPublicKey(trimmed)
    : createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
  keyAlgorithm(key);
  return key;
}

/**
 * Signs `message` with a private key: ECDSA P-384 with SHA-256 as raw r‖s (96 bytes), or, for an
 * old key, Ed25519 (64 bytes).
 */
export function signMessage(privateKey: KeyObject, message: Buffer): Buffer {
  if (privateKey.asymmetricKeyType === 'ed25519') return sign(null, message, privateKey);
  return sign('sha256', message, { key: privateKey, dsaEncoding: 'ieee-p1363' });
}

export function verifyMessage(publicKey: KeyObject, message: Buffer, signature: Buffer): boolean {
  try {
    if (publicKey.asymmetricKeyType === 'ed25519') return verify(null, message, publicKey, signature);
    if (!isP384(publicKey) || signature.length !== P384_SIGNATURE_BYTES) return false;
    return verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

function derInteger(unsigned: Buffer): Buffer {
  let i = 0;
  while (i < unsigned.length - 1 && unsigned[i] === 0) i += 1;
  let body = unsigned.subarray(i);
  if (body[0]! & 0x80) body = Buffer.concat([Buffer.from([0]), body]);
  return Buffer.concat([Buffer.from([0x02, body.length]), body]);
}

/**
 * The DER (ASN.1 SEQUENCE of two INTEGERs) form of a raw r‖s ECDSA signature: what
 * `openssl dgst -verify -signature` reads. The package carries both forms of the one signature.
 */
export function ecdsaRawToDer(raw: Buffer): Buffer {
  if (raw.length !== P384_SIGNATURE_BYTES) throw new Error(`not a raw P-384 signature (${raw.length} bytes)`);
  const body = Buffer.concat([derInteger(raw.subarray(0, 48)), derInteger(raw.subarray(48))]);
  // At most 2 × (2 + 49) = 102 bytes: a one-byte length.
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}
