// XRP Ledger: classic `r…` addresses and X-addresses (XLS-5d), Base58Check over the Ripple alphabet.
import { base58xrp } from '@scure/base';
import { stripDoubleSha256Checksum } from '../codecs/double-sha256-checksum';
import type { DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure, otherMatch } from './address-match';

export function decodeXrp(s: string): DecodeResult {
  let raw: Uint8Array;
  try {
    raw = base58xrp.decode(s);
  } catch {
    return emptyResult();
  }
  const payload = stripDoubleSha256Checksum(raw);
  if (!payload) return failure('xrp', 'bad checksum');
  if (payload.length === 21 && payload[0] === 0x00) {
    return { matches: [addressMatch(['xrp'], 'classic', 'base58check (Ripple alphabet)', 'strong', s)], failures: [] };
  }
  if (payload.length === 31) {
    const main = payload[0] === 0x05 && payload[1] === 0x44;
    const test = payload[0] === 0x04 && payload[1] === 0x93;
    const flag = payload[22];
    const reservedZero = payload.subarray(27, 31).every((b) => b === 0);
    if ((main || test) && (flag === 0 || flag === 1) && reservedZero && (flag === 1 || payload.subarray(23, 27).every((b) => b === 0))) {
      if (test) return { matches: [otherMatch('testnet', [], 'x-address', 'base58check', s, 'XRP testnet X-address')], failures: [] };
      return { matches: [addressMatch(['xrp'], flag ? 'x-address (with tag)' : 'x-address', 'base58check (Ripple alphabet)', 'strong', s)], failures: [] };
    }
    return failure('xrp', 'bad X-address layout');
  }
  return failure('xrp', 'unexpected payload');
}
