// Nano: `nano_`/`xrb_` + 52 chars of a 32-byte key (4 zero pad bits) + 8 chars of blake2b-5 (reversed),
// in Nano's own base32 alphabet.
import { blake2b } from '@noble/hashes/blake2.js';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure } from './address-match';

const ALPHABET = '13456789abcdefghijkmnopqrstuwxyz';

function toBits(s: string): number[] | undefined {
  const bits: number[] = [];
  for (const ch of s) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return undefined;
    for (let i = 4; i >= 0; i--) bits.push((v >> i) & 1);
  }
  return bits;
}

function bitsToBytes(bits: number[]): Uint8Array {
  const out = new Uint8Array(bits.length / 8);
  for (let i = 0; i < out.length; i++) for (let j = 0; j < 8; j++) out[i] = (out[i] << 1) | bits[i * 8 + j];
  return out;
}

export function decodeNano(s: string): DecodeResult {
  const m = /^(nano|xrb)_([13][13-9a-km-uw-z]{59})$/.exec(s);
  if (!m) return emptyResult();
  const bits = toBits(m[2]);
  if (!bits || bits.length !== 300 || bits.slice(0, 4).some((b) => b !== 0)) return failure('nano', 'bad encoding');
  const key = bitsToBytes(bits.slice(4, 260));
  const check = bitsToBytes(bits.slice(260));
  const digest = blake2b(key, { dkLen: 5 }).reverse();
  if (!digest.every((v, i) => v === check[i])) return failure('nano', 'bad blake2b checksum');
  return { matches: [addressMatch(['nano'], 'nano', 'blake2b (5 bytes)', 'strong', `nano_${m[2]}`)], failures: [] };
}
