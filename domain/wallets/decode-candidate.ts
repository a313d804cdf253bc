// Dispatch of one candidate string to the few decoders its length, first characters and alphabet
// allow, then deterministic verification by those decoders. Also the single-address validator
// behind `fip ssi wallet validate`.
import { decodeBase58Check } from './decoders/base58check-decoder';
import { decodeAlgorand, decodeStellar } from './decoders/base32-account-decoder';
import { bech32Prefix, decodeBech32Address } from './decoders/bech32-decoder';
import { decodeStacks } from './decoders/c32check-decoder';
import { decodeCardanoByron } from './decoders/cardano-byron-decoder';
import { decodeCashaddr } from './decoders/cashaddr-decoder';
import { decodeEvm } from './decoders/evm-decoder';
import { decodeFilecoin } from './decoders/filecoin-decoder';
import { decodeHedera } from './decoders/hedera-decoder';
import { decodeHex64 } from './decoders/hex-account-decoder';
import { decodeIcpPrincipal } from './decoders/icp-principal-decoder';
import { decodeMonero } from './decoders/monero-decoder';
import { decodeEosName, decodeNearNamed } from './decoders/named-account-decoder';
import { decodeNano } from './decoders/nano-decoder';
import { decodeSolana } from './decoders/solana-decoder';
import { decodeSs58 } from './decoders/ss58-decoder';
import { decodeTonFriendly } from './decoders/ton-decoder';
import { decodeXrp } from './decoders/xrp-decoder';
import type { DecodeResult } from './wallet-types';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BECH32_LOWER = /^[02-9ac-hj-np-z]+$/;
const HEX = /^[0-9a-fA-F]+$/;
const B32_UPPER = /^[A-Z2-7]+$/;
const TON_FRIENDLY = /^[EUk0][Qf][A-Za-z0-9_-]{46}$|^[EUk0][Qf][A-Za-z0-9+/]{46}$/;
const CASHADDR_SCHEMES = new Set(['bitcoincash', 'bchtest', 'bchreg', 'kaspa', 'kaspatest', 'kaspadev', 'kaspasim']);
/** First characters of the base58check versions we know (addresses, WIF keys, BIP-32 keys). */
const B58CHECK_FIRST = new Set('13LMD9AX7TmnNt2K5xyzuvs');

function merge(into: DecodeResult, r: DecodeResult): void {
  into.matches.push(...r.matches);
  into.failures.push(...r.failures);
}

/**
 * Decodes one candidate. `scheme` is the `xxx:` prefix written right before it, when any
 * (`bitcoincash`, `kaspa`, `0` / `-1` for TON raw, ...).
 */
export function decodeCandidate(s: string, scheme?: string): DecodeResult {
  const out: DecodeResult = { matches: [], failures: [] };
  const n = s.length;
  const c0 = s[0];
  if (scheme && CASHADDR_SCHEMES.has(scheme)) {
    merge(out, decodeCashaddr(s, scheme));
    // `bitcoincash:1…` / `bitcoincash:3…`: a legacy address in a Bitcoin Cash payment URI is a Bitcoin Cash address.
    if (!out.matches.length && scheme === 'bitcoincash' && (c0 === '1' || c0 === '3') && BASE58.test(s)) {
      const legacy = decodeBase58Check(s).matches.filter((m) => m.kind === 'address' && m.networks.includes('bitcoin-cash'));
      if (legacy.length) return { matches: legacy.map((m) => ({ ...m, networks: ['bitcoin-cash'] })), failures: [] };
    }
    return out;
  }
  if (c0 === '0' && s[1] === 'x') {
    if (n === 42) merge(out, decodeEvm(s));
    else if (n === 66) merge(out, decodeHex64(s));
    return out;
  }
  if (n === 64 && HEX.test(s)) {
    merge(out, decodeHex64(s, scheme === '0' || scheme === '-1' ? scheme : undefined));
    return out;
  }
  if (s.includes('.')) {
    merge(out, decodeHedera(s));
    if (!out.matches.length) merge(out, decodeNearNamed(s));
    return out;
  }
  if (s.includes('_') || s.includes('-') || s.includes('+') || s.includes('/')) {
    if (n === 48 && TON_FRIENDLY.test(s)) merge(out, decodeTonFriendly(s));
    else if (c0 === 'n' || c0 === 'x') merge(out, decodeNano(s));
    else merge(out, decodeIcpPrincipal(s));
    return out;
  }
  if (n === 48 && TON_FRIENDLY.test(s)) {
    merge(out, decodeTonFriendly(s));
    if (out.matches.length) return out;
  }
  const hrp = s.includes('1') ? bech32Prefix(s) : undefined;
  if (hrp) {
    merge(out, decodeBech32Address(s));
    return out;
  }
  if (n === 42 && (c0 === 'q' || c0 === 'p' || c0 === 'Q' || c0 === 'P') && BECH32_LOWER.test(s.toLowerCase())) {
    merge(out, decodeCashaddr(s, undefined));
    if (out.matches.length) return out;
  }
  if (c0 === 'f' && (n === 41 || n === 44 || n === 86)) {
    merge(out, decodeFilecoin(s));
    if (out.matches.length) return out;
  }
  if ((n === 56 || n === 69 || n === 58) && B32_UPPER.test(s)) {
    merge(out, n === 58 ? decodeAlgorand(s) : decodeStellar(s));
    if (out.matches.length) return out;
  }
  if (c0 === 'S' && (n === 40 || n === 41) && (s[1] === 'P' || s[1] === 'M' || s[1] === 'T' || s[1] === 'N')) {
    merge(out, decodeStacks(s));
    if (out.matches.length) return out;
  }
  if (!BASE58.test(s)) return out;
  if (n >= 25 && n <= 36 && B58CHECK_FIRST.has(c0)) merge(out, decodeBase58Check(s));
  if ((n === 51 || n === 52 || n === 111) && B58CHECK_FIRST.has(c0)) merge(out, decodeBase58Check(s));
  if ((c0 === 'r' && n >= 25 && n <= 35) || (n === 47 && (c0 === 'X' || c0 === 'T'))) merge(out, decodeXrp(s));
  if (n >= 46 && n <= 48) merge(out, decodeSs58(s));
  if (n === 95 || n === 106) merge(out, decodeMonero(s));
  if (c0 === 'A' || c0 === 'D') merge(out, decodeCardanoByron(s));
  if (!out.matches.length && n >= 32 && n <= 44) {
    const sol = decodeSolana(s);
    if (sol.matches.length) return { matches: sol.matches, failures: [] };
  }
  return out;
}

/**
 * Splits a pasted address into scheme and body: `bitcoincash:q…`, `kaspa:q…`, `0:hex`, `-1:hex`,
 * `X-avax1…`, payment URIs such as `bitcoin:1…?amount=` or `ethereum:0x…@1`.
 */
export function splitScheme(input: string): { scheme?: string; body: string } {
  const s = input.trim();
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*|-1|0):(?:\/\/)?(.+)$/.exec(s);
  if (m) return { scheme: m[1].toLowerCase(), body: m[2].replace(/[?@/&].*$/, '') };
  const avax = /^[XPC]-(avax1.+)$/.exec(s);
  if (avax) return { body: avax[1] };
  return { body: s };
}

export function decodeAddressString(input: string): DecodeResult {
  const { scheme, body } = splitScheme(input);
  const r = decodeCandidate(body, scheme);
  if (!r.matches.length && /^[a-z1-5.]{1,12}$/.test(body)) return decodeEosName(body);
  return r;
}
