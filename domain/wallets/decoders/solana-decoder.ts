// Solana: base58 of a raw 32-byte Ed25519 key. No checksum and no version, so context decides.
import { base58 } from '@scure/base';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult } from './address-match';

export function decodeSolana(s: string): DecodeResult {
  if (s.length < 32 || s.length > 44) return emptyResult();
  let raw: Uint8Array;
  try {
    raw = base58.decode(s);
  } catch {
    return emptyResult();
  }
  if (raw.length !== 32) return emptyResult();
  return { matches: [addressMatch(['solana'], 'ed25519-pubkey', 'none', 'none', s)], failures: [] };
}
