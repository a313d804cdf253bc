// Base58Check formats: BTC/BCH legacy, LTC, DOGE, DASH, TRX, ZEC transparent, XTZ, plus the
// non-address kinds that share the encoding (WIF private keys, BIP-32 extended keys).
import { base58 } from '@scure/base';
import { stripDoubleSha256Checksum } from '../codecs/double-sha256-checksum';
import type { AddressMatch, DecodeResult, NetworkId } from '../wallet-types';
import { addressMatch, emptyResult, failure, otherMatch } from './address-match';

const CHECKSUM = 'base58check (double SHA-256)';

/** 1-byte versions in front of a 20-byte hash. */
const V1: Record<number, { networks: NetworkId[]; format: string } | { testnet: string }> = {
  0x00: { networks: ['bitcoin', 'bitcoin-cash'], format: 'p2pkh' },
  0x05: { networks: ['bitcoin', 'bitcoin-cash'], format: 'p2sh' },
  0x30: { networks: ['litecoin'], format: 'p2pkh' },
  0x32: { networks: ['litecoin'], format: 'p2sh' },
  0x1e: { networks: ['dogecoin'], format: 'p2pkh' },
  0x16: { networks: ['dogecoin'], format: 'p2sh' },
  0x4c: { networks: ['dash'], format: 'p2pkh' },
  0x10: { networks: ['dash'], format: 'p2sh' },
  0x41: { networks: ['tron'], format: 'tron' },
  0x6f: { testnet: 'Bitcoin testnet' },
  0xc4: { testnet: 'Bitcoin testnet' },
  0x71: { testnet: 'Dogecoin testnet' },
  0x8c: { testnet: 'Dash testnet' },
};

/** Multi-byte versions (hex) in front of a 20-byte hash. */
const VN: Array<{ prefix: number[]; networks: NetworkId[]; format: string; testnet?: boolean }> = [
  { prefix: [0x1c, 0xb8], networks: ['zcash'], format: 't1 (p2pkh)' },
  { prefix: [0x1c, 0xbd], networks: ['zcash'], format: 't3 (p2sh)' },
  { prefix: [0x1d, 0x25], networks: ['zcash'], format: 'tm (testnet)', testnet: true },
  { prefix: [0x1c, 0xba], networks: ['zcash'], format: 't2 (testnet)', testnet: true },
  { prefix: [0x1c, 0x28], networks: ['ycash'], format: 's1 (p2pkh)' },
  { prefix: [0x1c, 0x2c], networks: ['ycash'], format: 's3 (p2sh)' },
  { prefix: [0x06, 0xa1, 0x9f], networks: ['tezos'], format: 'tz1' },
  { prefix: [0x06, 0xa1, 0xa1], networks: ['tezos'], format: 'tz2' },
  { prefix: [0x06, 0xa1, 0xa4], networks: ['tezos'], format: 'tz3' },
  { prefix: [0x06, 0xa1, 0xa6], networks: ['tezos'], format: 'tz4' },
  { prefix: [0x02, 0x5a, 0x79], networks: ['tezos'], format: 'KT1 (contract)' },
];

const XKEY_VERSIONS = new Set(['0488b21e', '0488ade4', '049d7cb2', '049d7878', '04b24746', '04b2430c', '043587cf', '04358394']);

function hasPrefix(b: Uint8Array, p: number[]): boolean {
  for (let i = 0; i < p.length; i++) if (b[i] !== p[i]) return false;
  return true;
}

export function decodeBase58Check(s: string): DecodeResult {
  let raw: Uint8Array;
  try {
    raw = base58.decode(s);
  } catch {
    return emptyResult();
  }
  const payload = stripDoubleSha256Checksum(raw);
  if (!payload) return failure('base58check', 'bad base58check checksum');
  const matches: AddressMatch[] = [];
  if (payload.length === 21) {
    const v = V1[payload[0]];
    if (!v) return failure('base58check', `unknown version byte 0x${payload[0].toString(16).padStart(2, '0')}`);
    if ('testnet' in v) return { matches: [otherMatch('testnet', [], 'base58check', CHECKSUM, s, `${v.testnet} address`)], failures: [] };
    if (v.format === 'tron' && (s.length !== 34 || s[0] !== 'T')) return failure('tron', 'bad length');
    matches.push(addressMatch(v.networks, v.format, CHECKSUM, 'strong', s));
    return { matches, failures: [] };
  }
  for (const v of VN) {
    if (payload.length === v.prefix.length + 20 && hasPrefix(payload, v.prefix)) {
      if (v.testnet) return { matches: [otherMatch('testnet', [], v.format, CHECKSUM, s, 'testnet address')], failures: [] };
      return { matches: [addressMatch(v.networks, v.format, CHECKSUM, 'strong', s)], failures: [] };
    }
  }
  if (payload[0] === 0x80 && (payload.length === 33 || (payload.length === 34 && payload[33] === 0x01))) {
    return { matches: [otherMatch('secret', [], 'wif', CHECKSUM, s, 'leaked private key (WIF), not an address')], failures: [] };
  }
  if (payload.length === 78) {
    const version = Array.from(payload.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join('');
    if (XKEY_VERSIONS.has(version)) {
      const secret = version === '0488ade4' || version === '049d7878' || version === '04b2430c' || version === '04358394';
      return { matches: [otherMatch(secret ? 'secret' : 'extended-key', [], 'bip32', CHECKSUM, s, secret ? 'leaked extended private key, not an address' : 'extended public key, not an address')], failures: [] };
    }
  }
  return failure('base58check', `unexpected payload length ${payload.length}`);
}
