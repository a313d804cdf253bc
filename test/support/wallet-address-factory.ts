// Deterministic generator of valid addresses for tests and the benchmark (encoders from the same
// audited libraries the decoders use). Not test vectors: those are literal strings in the tests.
import { blake2b } from '@noble/hashes/blake2.js';
import { sha256, sha512_256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base32nopad, base58, base58xmr, base58xrp, base64urlnopad, bech32, bech32m, createBase58check } from '@scure/base';
import { crc16Xmodem } from '../../domain/wallets/codecs/crc16-xmodem';
import { BECH32_CHARSET, cashaddrChecksumWords } from '../../domain/wallets/codecs/cashaddr-polymod';
import { toEip55 } from '../../domain/wallets/decoders/evm-decoder';

const b58check = createBase58check(sha256);

/** Small seeded PRNG (mulberry32). */
export function seededBytes(seed: number): (n: number) => Uint8Array {
  let a = seed >>> 0;
  return (n: number) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
    }
    return out;
  };
}

const cat = (...parts: Array<Uint8Array | number[]>): Uint8Array => Uint8Array.from(parts.flatMap((p) => Array.from(p)));

export function makeAddresses(seed: number) {
  const rnd = seededBytes(seed);
  const h20 = rnd(20);
  const k32 = rnd(32);
  const xrpPayload = cat([0], rnd(20));
  const xrpCheck = sha256(sha256(xrpPayload)).subarray(0, 4);
  const tonBody = cat([0x51, 0x00], rnd(32));
  const tonCrc = crc16Xmodem(tonBody);
  const xlmBody = cat([6 << 3], rnd(32));
  const xlmCrc = crc16Xmodem(xlmBody);
  const algoKey = rnd(32);
  const xmrBody = cat([18], rnd(64));
  const ss58 = (prefix: number): string => {
    const body = cat([prefix], rnd(32));
    const h = blake2b(cat(new TextEncoder().encode('SS58PRE'), body), { dkLen: 64 });
    return base58.encode(cat(body, h.subarray(0, 2)));
  };
  const bchWords = bech32.toWords(cat([0], rnd(20)));
  const bch = bchWords.concat(cashaddrChecksumWords('bitcoincash', bchWords)).map((w) => BECH32_CHARSET[w]).join('');
  return {
    btcP2pkh: b58check.encode(cat([0x00], h20)),
    btcP2sh: b58check.encode(cat([0x05], rnd(20))),
    btcSegwit: bech32.encode('bc', [0, ...bech32.toWords(rnd(20))]),
    btcTaproot: bech32m.encode('bc', [1, ...bech32.toWords(rnd(32))]),
    evm: toEip55(`0x${Buffer.from(rnd(20)).toString('hex')}`),
    evmLower: `0x${Buffer.from(rnd(20)).toString('hex')}`,
    tron: b58check.encode(cat([0x41], rnd(20))),
    sol: base58.encode(k32),
    xrp: base58xrp.encode(cat(xrpPayload, xrpCheck)),
    ltc: b58check.encode(cat([0x30], rnd(20))),
    doge: b58check.encode(cat([0x1e], rnd(20))),
    dash: b58check.encode(cat([0x4c], rnd(20))),
    zec: b58check.encode(cat([0x1c, 0xb8], rnd(20))),
    xtz: b58check.encode(cat([0x06, 0xa1, 0x9f], rnd(20))),
    bch: `bitcoincash:${bch}`,
    ton: base64urlnopad.encode(cat(tonBody, [tonCrc >> 8, tonCrc & 0xff])),
    xlm: base32nopad.encode(cat(xlmBody, [xlmCrc & 0xff, xlmCrc >> 8])),
    algo: base32nopad.encode(cat(algoKey, sha512_256(algoKey).subarray(28))),
    xmr: base58xmr.encode(cat(xmrBody, keccak_256(xmrBody).subarray(0, 4))),
    dot: ss58(0),
    ksm: ss58(2),
    atom: bech32.encode('cosmos', bech32.toWords(rnd(20))),
    bnb: bech32.encode('bnb', bech32.toWords(rnd(20))),
    apt: `0x${Buffer.from(rnd(32)).toString('hex')}`,
  };
}

export type AddressSet = ReturnType<typeof makeAddresses>;
