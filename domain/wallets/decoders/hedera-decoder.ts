// Hedera `shard.realm.num` with the optional HIP-15 checksum `-abcde` (mainnet ledger id 0x00).
// Without the checksum the string is indistinguishable from a version number; context decides.
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure } from './address-match';

const SHAPE = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([a-z]{5}))?$/;

/** HIP-15 checksum of an `s.r.n` string for a ledger id (0 = mainnet, 1 = testnet, 2 = previewnet). */
export function hip15Checksum(address: string, ledgerId = 0): string {
  const p3 = 26 * 26 * 26;
  const p5 = p3 * 26 * 26;
  const m = 1_000_003;
  const w = 31;
  const h = [ledgerId, 0, 0, 0, 0, 0, 0];
  const d = Array.from(address, (c) => (c === '.' ? 10 : Number(c)));
  let sd0 = 0;
  let sd1 = 0;
  let sd = 0;
  let sh = 0;
  for (let i = 0; i < d.length; i++) {
    sd = (w * sd + d[i]) % p3;
    if (i % 2 === 0) sd0 = (sd0 + d[i]) % 11;
    else sd1 = (sd1 + d[i]) % 11;
  }
  for (const byte of h) sh = (w * sh + byte) % p5;
  const c = ((((address.length % 5) * 11 + sd0) * 11 + sd1) * p3 + sd + sh) % p5;
  let cp = (c * m) % p5;
  let out = '';
  for (let i = 0; i < 5; i++) {
    out = String.fromCharCode(97 + (cp % 26)) + out;
    cp = Math.floor(cp / 26);
  }
  return out;
}

export function decodeHedera(s: string): DecodeResult {
  const m = SHAPE.exec(s);
  if (!m) return emptyResult();
  const base = `${m[1]}.${m[2]}.${m[3]}`;
  if (m[4]) {
    if (hip15Checksum(base, 0) !== m[4]) return failure('hedera', 'bad HIP-15 checksum (mainnet)');
    return { matches: [addressMatch(['hedera'], 'account-id (checksummed)', 'HIP-15', 'weak', base)], failures: [] };
  }
  if (m[1] !== '0' || m[2] !== '0') return failure('hedera', 'mainnet accounts are 0.0.N');
  return { matches: [addressMatch(['hedera'], 'account-id', 'none', 'none', base)], failures: [] };
}
