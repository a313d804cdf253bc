// Hex accounts without 0x/40: Aptos and Sui (0x + 64 hex, no checksum; also Starknet when the value
// is a felt below 2^251, the address domain, chosen only when Starknet is named), NEAR implicit accounts
// (64 lower-case hex, no checksum), Internet Computer ledger account ids (64 hex = CRC32 ‖ SHA-224),
// and TON raw addresses (`0:` / `-1:` + 64 hex, no checksum).
import { crc32 } from '../codecs/crc32';
import { hex } from '@scure/base';
import type { AddressMatch, DecodeResult } from '../wallet-types';
import { addressMatch, emptyResult, failure } from './address-match';

const HEX64 = /^[0-9a-fA-F]{64}$/;

export function decodeHex64(s: string, rawTonWorkchain?: '0' | '-1'): DecodeResult {
  const body = s.startsWith('0x') ? s.slice(2) : s;
  if (!HEX64.test(body)) return emptyResult();
  const lower = body.toLowerCase();
  if (s.startsWith('0x')) {
    if (/^0{24}/.test(lower)) return failure('hex64', 'ABI-padded 20-byte value, not an account');
    // Below 2^251 = 0x08 followed by 62 zeros: a Starknet contract address (every Starknet account is one) is a felt in [0, 2^251).
    const starknet = lower.charCodeAt(0) === 48 && lower.charCodeAt(1) < 56;
    return { matches: [addressMatch(starknet ? ['aptos', 'sui', 'starknet'] : ['aptos', 'sui'], 'hex32 (0x + 64 hex)', 'none', 'none', `0x${lower}`)], failures: [] };
  }
  if (rawTonWorkchain) {
    return { matches: [addressMatch(['ton'], 'ton-raw', 'none', 'none', `${rawTonWorkchain}:${lower}`)], failures: [] };
  }
  const matches: AddressMatch[] = [];
  const bytes = hex.decode(lower);
  const crc = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  if (crc === crc32(bytes, 4)) matches.push(addressMatch(['internet-computer'], 'icp-account-id', 'CRC32', 'strong', lower));
  else if (body === lower) matches.push(addressMatch(['near'], 'near-implicit', 'none', 'none', lower));
  return { matches, failures: [] };
}
