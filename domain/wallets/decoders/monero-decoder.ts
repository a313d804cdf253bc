// Monero: block base58 (8 bytes -> 11 chars), network byte, spend + view keys, optional 8-byte
// payment id, Keccak-256 checksum (first 4 bytes).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58xmr } from '@scure/base';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure, otherMatch } from './address-match';

const NET: Record<number, { format: string; len: number; testnet?: boolean }> = {
  18: { format: 'standard', len: 69 },
  19: { format: 'integrated', len: 77 },
  42: { format: 'subaddress', len: 69 },
  53: { format: 'testnet standard', len: 69, testnet: true },
  54: { format: 'testnet integrated', len: 77, testnet: true },
  63: { format: 'testnet subaddress', len: 69, testnet: true },
  24: { format: 'stagenet standard', len: 69, testnet: true },
  25: { format: 'stagenet integrated', len: 77, testnet: true },
  36: { format: 'stagenet subaddress', len: 69, testnet: true },
};

export function decodeMonero(s: string): DecodeResult {
  if (s.length !== 95 && s.length !== 106) return emptyResult();
  let raw: Uint8Array;
  try {
    raw = base58xmr.decode(s);
  } catch {
    return failure('monero', 'not Monero base58');
  }
  const net = NET[raw[0]];
  if (!net || raw.length !== net.len) return failure('monero', 'unknown network byte or length');
  const digest = keccak_256(raw.subarray(0, raw.length - 4));
  for (let i = 0; i < 4; i++) if (digest[i] !== raw[raw.length - 4 + i]) return failure('monero', 'bad Keccak-256 checksum');
  if (net.testnet) return { matches: [otherMatch('testnet', [], net.format, 'keccak-256', s, 'Monero test network address')], failures: [] };
  return { matches: [addressMatch(['monero'], net.format, 'Keccak-256 (4 bytes)', 'strong', s)], failures: [] };
}
