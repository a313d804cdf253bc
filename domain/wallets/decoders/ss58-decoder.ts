// SS58 (Polkadot prefix 0, Kusama prefix 2, generic Substrate prefix 42): base58 of
// prefix ‖ 32-byte account ‖ first 2 bytes of blake2b-512("SS58PRE" ‖ prefix ‖ account).
import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import type { DecodeResult, NetworkId } from '../wallet-types';
import { addressMatch, emptyResult, failure } from './address-match';

const SS58PRE = new TextEncoder().encode('SS58PRE');
const PREFIXES: Record<number, NetworkId[]> = { 0: ['polkadot'], 2: ['kusama'], 42: ['polkadot', 'kusama'] };

export function decodeSs58(s: string): DecodeResult {
  let raw: Uint8Array;
  try {
    raw = base58.decode(s);
  } catch {
    return emptyResult();
  }
  const prefixLen = raw[0] < 64 ? 1 : raw[0] < 128 ? 2 : 0;
  if (!prefixLen || raw.length !== prefixLen + 32 + 2) return emptyResult();
  const body = raw.subarray(0, prefixLen + 32);
  // BLAKE2b-512 without a key: Node's own (OpenSSL) blake2b512.
  const hash = createHash('blake2b512').update(SS58PRE).update(body).digest();
  if (hash[0] !== raw[raw.length - 2] || hash[1] !== raw[raw.length - 1]) return failure('ss58', 'bad SS58 checksum');
  const prefix = prefixLen === 1 ? raw[0] : ((raw[0] & 0x3f) << 2) | (raw[1] >> 6) | ((raw[1] & 0x3f) << 8);
  const networks = PREFIXES[prefix];
  if (!networks) return failure('ss58', `SS58 prefix ${prefix} is not a supported network`);
  return { matches: [addressMatch(networks, prefix === 42 ? 'ss58 (generic substrate)' : 'ss58', `SS58 (prefix ${prefix}, blake2b 2 bytes)`, 'weak', s)], failures: [] };
}
