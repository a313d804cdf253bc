// RFC 4648 base32 (no padding) formats: Stellar StrKey (SEP-23, CRC16-XModem little-endian) and
// Algorand (32-byte key ‖ last 4 bytes of SHA-512/256(key), 58 chars).
import { hash } from 'node:crypto';
import { base32nopad } from '@scure/base';
import { crc16Xmodem } from '../codecs/crc16-xmodem';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure, otherMatch } from './address-match';

const B32 = /^[A-Z2-7]+$/;

/** Decodes and rejects non-canonical strings (non-zero unused trailing bits). */
function decodeCanonical(s: string): Uint8Array | undefined {
  try {
    const bytes = base32nopad.decode(s);
    return base32nopad.encode(bytes) === s ? bytes : undefined;
  } catch {
    return undefined;
  }
}

const STRKEY: Record<number, { len: number; kind: 'address' | 'secret' | 'non-payment'; format: string }> = {
  [6 << 3]: { len: 35, kind: 'address', format: 'account (G)' },
  [12 << 3]: { len: 43, kind: 'address', format: 'muxed account (M)' },
  [18 << 3]: { len: 35, kind: 'secret', format: 'secret seed (S)' },
  [2 << 3]: { len: 35, kind: 'non-payment', format: 'contract (C)' },
};

export function decodeStellar(s: string): DecodeResult {
  if ((s.length !== 56 && s.length !== 69) || !B32.test(s)) return emptyResult();
  const b = decodeCanonical(s);
  if (!b) return failure('stellar', 'non-canonical base32');
  const v = STRKEY[b[0]];
  if (!v || b.length !== v.len) return failure('stellar', 'unknown StrKey version byte');
  const crc = crc16Xmodem(b, b.length - 2);
  if ((crc & 0xff) !== b[b.length - 2] || crc >> 8 !== b[b.length - 1]) return failure('stellar', 'bad CRC16 checksum');
  if (v.kind === 'secret') return { matches: [otherMatch('secret', ['stellar'], v.format, 'CRC16-XModem', s, 'leaked Stellar secret seed, not an address')], failures: [] };
  if (v.kind === 'non-payment') return { matches: [otherMatch('non-payment', ['stellar'], v.format, 'CRC16-XModem', s, 'Stellar contract id, not a wallet')], failures: [] };
  return { matches: [addressMatch(['stellar'], v.format, 'StrKey CRC16-XModem', 'weak', s)], failures: [] };
}

export function decodeAlgorand(s: string): DecodeResult {
  if (s.length !== 58 || !B32.test(s)) return emptyResult();
  const b = decodeCanonical(s);
  if (!b || b.length !== 36) return failure('algorand', 'non-canonical base32');
  const digest = hash('sha512-256', b.subarray(0, 32), 'buffer');
  for (let i = 0; i < 4; i++) if (digest[28 + i] !== b[32 + i]) return failure('algorand', 'bad SHA-512/256 checksum');
  return { matches: [addressMatch(['algorand'], 'algorand', 'SHA-512/256 (4 bytes)', 'strong', s)], failures: [] };
}
