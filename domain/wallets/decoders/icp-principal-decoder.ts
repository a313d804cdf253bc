// Internet Computer principal text form: lower-case base32 of CRC32(BE) ‖ bytes, in dash-separated
// groups of 5 (canister ids are 27 chars, self-authenticating user principals 63 chars).
import { base32nopad } from '@scure/base';
import { crc32 } from '../codecs/crc32';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure } from './address-match';

const SHAPE = /^(?:[a-z2-7]{5}-)+[a-z2-7]{1,5}$/;

export function decodeIcpPrincipal(s: string): DecodeResult {
  if (!SHAPE.test(s)) return emptyResult();
  const up = s.replace(/-/g, '').toUpperCase();
  let b: Uint8Array;
  try {
    b = base32nopad.decode(up);
  } catch {
    return emptyResult();
  }
  if (b.length < 5 || b.length > 33) return emptyResult();
  const stored = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  if (stored !== crc32(b, 4)) return failure('icp', 'bad CRC32');
  const format = b.length - 4 === 29 ? 'principal (self-authenticating)' : 'principal (canister)';
  return { matches: [addressMatch(['internet-computer'], format, 'CRC32', 'strong', s)], failures: [] };
}
