// The 40-bit BCH code of CashAddr (Bitcoin Cash) and Kaspa addresses.
// Spec: github.com/bitcoincashorg/bitcoincash.org/blob/master/spec/cashaddr.md
const GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];
export const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const CHAR_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < BECH32_CHARSET.length; i++) CHAR_VALUE[BECH32_CHARSET.charCodeAt(i)] = i;

function polymod(values: number[]): bigint {
  let c = 1n;
  for (const d of values) {
    const c0 = c >> 35n;
    c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(d);
    for (let i = 0; i < 5; i++) if ((c0 >> BigInt(i)) & 1n) c ^= GENERATORS[i];
  }
  return c ^ 1n;
}

/** Decodes the 5-bit payload of a lower-case cashaddr string (without prefix); undefined on a bad char. */
export function cashaddrWords(payload: string): number[] | undefined {
  const out: number[] = [];
  for (let i = 0; i < payload.length; i++) {
    const code = payload.charCodeAt(i);
    const v = code < 128 ? CHAR_VALUE[code] : -1;
    if (v < 0) return undefined;
    out.push(v);
  }
  return out;
}

/** True when `prefix:payload` (both lower case) carries a valid 40-bit checksum. */
export function verifyCashaddrChecksum(prefix: string, words: number[]): boolean {
  const values: number[] = [];
  for (let i = 0; i < prefix.length; i++) values.push(prefix.charCodeAt(i) & 0x1f);
  values.push(0);
  for (const w of words) values.push(w);
  return polymod(values) === 0n;
}

/** Regroups 5-bit words (without the 8 checksum words) into bytes; undefined when padding is not zero. */
export function wordsToBytes(words: number[]): Uint8Array | undefined {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  for (const w of words) {
    acc = ((acc << 5) | w) & 0xfff;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  if (bits >= 5 || (acc & ((1 << bits) - 1)) !== 0) return undefined;
  return Uint8Array.from(out);
}

/** The 8 checksum words for `prefix` + payload words (used to encode, e.g. in test fixtures). */
export function cashaddrChecksumWords(prefix: string, words: number[]): number[] {
  const values: number[] = [];
  for (let i = 0; i < prefix.length; i++) values.push(prefix.charCodeAt(i) & 0x1f);
  values.push(0, ...words, 0, 0, 0, 0, 0, 0, 0, 0);
  const mod = polymod(values);
  const out: number[] = [];
  for (let i = 0; i < 8; i++) out.push(Number((mod >> BigInt(5 * (7 - i))) & 0x1fn));
  return out;
}
