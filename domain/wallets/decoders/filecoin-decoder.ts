// Filecoin f1/f2/f3/f4 (410 = EVM namespace): lower-case base32 of payload ‖ blake2b-4 checksum over
// (protocol byte ‖ payload) — for f4 over (0x04 ‖ leb128(namespace) ‖ subaddress).
import { blake2b } from '@noble/hashes/blake2.js';
import { base32nopad } from '@scure/base';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure } from './address-match';

function decodeB32Lower(s: string): Uint8Array | undefined {
  if (!/^[a-z2-7]+$/.test(s)) return undefined;
  try {
    const up = s.toUpperCase();
    const bytes = base32nopad.decode(up);
    return base32nopad.encode(bytes) === up ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function checksumOk(prefixBytes: number[], payload: Uint8Array, checksum: Uint8Array): boolean {
  const d = blake2b(Uint8Array.from([...prefixBytes, ...payload]), { dkLen: 4 });
  return d.every((v, i) => v === checksum[i]);
}

export function decodeFilecoin(s: string): DecodeResult {
  if (s[0] !== 'f') return emptyResult();
  const protocol = s[1];
  if (protocol === '1' || protocol === '2' || protocol === '3') {
    const payloadLen = protocol === '3' ? 48 : 20;
    const b = decodeB32Lower(s.slice(2));
    if (!b || b.length !== payloadLen + 4) return emptyResult();
    if (!checksumOk([Number(protocol)], b.subarray(0, payloadLen), b.subarray(payloadLen))) return failure('filecoin', 'bad blake2b checksum');
    return { matches: [addressMatch(['filecoin'], `f${protocol}`, 'blake2b (4 bytes)', 'strong', s)], failures: [] };
  }
  if (s.startsWith('f410f')) {
    const b = decodeB32Lower(s.slice(5));
    if (!b || b.length !== 24) return emptyResult();
    if (!checksumOk([4, 0x0a], b.subarray(0, 20), b.subarray(20))) return failure('filecoin', 'bad blake2b checksum');
    return { matches: [addressMatch(['filecoin'], 'f410 (delegated EVM)', 'blake2b (4 bytes)', 'strong', s)], failures: [] };
  }
  return emptyResult();
}
