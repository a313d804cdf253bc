// Stacks addresses: c32check (Crockford base32 without I L O U): `S`, the version as one c32
// character, then c32 of hash160 ‖ checksum, where checksum = the first 4 bytes of
// SHA-256(SHA-256(version ‖ hash160)) and each leading zero byte is written as one `0`.
// Mainnet versions: 22 (`SP`, single-signature) and 20 (`SM`, multi-signature); 26 (`ST`) and 21
// (`SN`) are testnet.
import { sha256 } from '@noble/hashes/sha2.js';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure, otherMatch } from './address-match';

export const C32_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const C32_RE = /^S[0-9A-HJKMNP-TV-Z]{39,40}$/;
const MAINNET: Record<number, string> = { 22: 'stacks-p2pkh', 20: 'stacks-p2sh' };
const TESTNET = new Set([26, 21]);

function c32Decode(body: string): Uint8Array | undefined {
  let zeros = 0;
  while (zeros < body.length && body[zeros] === '0') zeros++;
  let n = 0n;
  for (let i = zeros; i < body.length; i++) {
    const v = C32_ALPHABET.indexOf(body[i]);
    if (v < 0) return undefined;
    n = n * 32n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes]);
}

/** c32 of bytes (the inverse of c32Decode): big-endian base 32, one `0` per leading zero byte. */
export function c32Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = C32_ALPHABET[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return '0'.repeat(zeros) + out;
}

function checksum(version: number, hash160: Uint8Array): Uint8Array {
  return sha256(sha256(Uint8Array.from([version, ...hash160]))).subarray(0, 4);
}

/** A Stacks address for `version` and a 20-byte hash160 (test vectors and the generator). */
export function stacksAddress(version: number, hash160: Uint8Array): string {
  return `S${C32_ALPHABET[version]}${c32Encode(Uint8Array.from([...hash160, ...checksum(version, hash160)]))}`;
}

export function decodeStacks(s: string): DecodeResult {
  if (!C32_RE.test(s)) return emptyResult();
  const version = C32_ALPHABET.indexOf(s[1]);
  const bytes = c32Decode(s.slice(2));
  if (!bytes || bytes.length !== 24) return failure('stacks', 'not a hash160 with a 4-byte checksum');
  const hash160 = bytes.subarray(0, 20);
  const sum = checksum(version, hash160);
  for (let i = 0; i < 4; i++) if (sum[i] !== bytes[20 + i]) return failure('stacks', 'bad c32check checksum');
  if (stacksAddress(version, hash160) !== s) return failure('stacks', 'non-canonical c32 encoding');
  if (TESTNET.has(version)) return { matches: [otherMatch('testnet', ['stacks'], 'stacks-testnet', 'c32check (double SHA-256)', s, 'Stacks testnet address')], failures: [] };
  const format = MAINNET[version];
  if (!format) return failure('stacks', `unknown version ${version}`);
  return { matches: [addressMatch(['stacks'], format, 'c32check (double SHA-256, 4 bytes)', 'strong', s)], failures: [] };
}
