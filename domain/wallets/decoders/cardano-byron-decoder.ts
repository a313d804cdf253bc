// Cardano Byron: base58 of CBOR [tag24(bytes), uint32 crc32(bytes)] (Icarus `Ae2…`, Daedalus `DdzFF…`).
import { base58 } from '@scure/base';
import { crc32 } from '../codecs/crc32';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure } from './address-match';

export function decodeCardanoByron(s: string): DecodeResult {
  if (!(s.startsWith('Ae2') || s.startsWith('DdzFF'))) return emptyResult();
  let b: Uint8Array;
  try {
    b = base58.decode(s);
  } catch {
    return emptyResult();
  }
  // 0x82 = array(2); 0xd8 0x18 = tag 24; then a byte string header.
  if (b[0] !== 0x82 || b[1] !== 0xd8 || b[2] !== 0x18) return failure('byron', 'not a Byron CBOR envelope');
  let i = 3;
  let len: number;
  const h = b[i++];
  if (h >= 0x40 && h <= 0x57) len = h - 0x40;
  else if (h === 0x58) len = b[i++];
  else if (h === 0x59) { len = (b[i] << 8) | b[i + 1]; i += 2; }
  else return failure('byron', 'bad CBOR byte string');
  const start = i;
  const end = start + len;
  if (b[end] !== 0x1a || b.length !== end + 5) return failure('byron', 'bad CBOR checksum field');
  const stored = ((b[end + 1] << 24) | (b[end + 2] << 16) | (b[end + 3] << 8) | b[end + 4]) >>> 0;
  if (stored !== crc32(b, start, end)) return failure('byron', 'bad CRC32');
  return { matches: [addressMatch(['cardano'], 'byron', 'CRC32 in CBOR', 'strong', s)], failures: [] };
}
