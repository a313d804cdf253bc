// The locality-sensitive hashes behind site similarity: a 64-bit simhash (near-equal feature sets
// give hashes a few bits apart), a MinHash signature (estimates the Jaccard similarity of two sets)
// and the LSH band keys that turn both into index buckets, so a query looks at the few sites that
// share a bucket instead of every site. Pure: no I/O.
import murmurhash from 'murmurhash';

/** MurmurHash3's 32-bit finaliser: every input bit reaches every output bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 64-bit hash of a feature as two unsigned 32-bit halves: murmurhash3 x86_32, and its mix. */
function hash64(feature: string): [number, number] {
  const h = murmurhash.v3(feature, 0x9747b28c);
  return [h, fmix32(h ^ 0x5bd1e995)];
}

/** Simhash (Charikar) over weighted features, as 16 hex digits. */
export function simhash(features: ReadonlyMap<string, number>): string {
  const acc = new Float64Array(64);
  for (const [feature, weight] of features) {
    const [hi, lo] = hash64(feature);
    for (let bit = 0; bit < 32; bit++) {
      acc[bit] += (hi >>> bit) & 1 ? weight : -weight;
      acc[32 + bit] += (lo >>> bit) & 1 ? weight : -weight;
    }
  }
  let hi = 0;
  let lo = 0;
  for (let bit = 0; bit < 32; bit++) {
    if (acc[bit]! > 0) hi |= 1 << bit;
    if (acc[32 + bit]! > 0) lo |= 1 << bit;
  }
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Bits that differ between two 64-bit hashes written as 16 hex digits. */
export function hammingHex(a: string, b: string): number {
  return popcount32((parseInt(a.slice(0, 8), 16) ^ parseInt(b.slice(0, 8), 16)) >>> 0) + popcount32((parseInt(a.slice(8), 16) ^ parseInt(b.slice(8), 16)) >>> 0);
}

/**
 * The 4 bands of 16 bits of a 64-bit hash: two hashes at most 3 bits apart share at least one band
 * (pigeonhole), so they meet in a bucket.
 */
export function hexBands(prefix: string, hex: string): string[] {
  return [0, 1, 2, 3].map((i) => `${prefix}${i}:${hex.slice(i * 4, i * 4 + 4)}`);
}

export const MINHASH_SIZE = 64;
/** 16 bands of 4 rows: sets with Jaccard 0.5 meet with probability 1-(1-0.5^4)^16 ≈ 0.64, 0.7 ≈ 0.98. */
const MINHASH_ROWS = 4;

/** MinHash signature of a set (MINHASH_SIZE unsigned 32-bit minima); empty set: empty signature. */
export function minhash(items: Iterable<string>): number[] {
  const sig = new Array<number>(MINHASH_SIZE).fill(0xffffffff);
  let any = false;
  for (const item of items) {
    any = true;
    const base = murmurhash.v3(item, 1);
    const step = fmix32(base ^ 0x27d4eb2f) | 1;
    for (let i = 0; i < MINHASH_SIZE; i++) {
      // Kirsch-Mitzenmacher: the i-th hash from two.
      const h = (base + Math.imul(i, step)) >>> 0;
      if (h < sig[i]!) sig[i] = h;
    }
  }
  return any ? sig : [];
}

/** The estimated Jaccard similarity of the sets behind two signatures (0 when either is empty). */
export function minhashSimilarity(a: readonly number[], b: readonly number[]): number {
  if (!a.length || a.length !== b.length) return 0;
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

export function minhashBands(prefix: string, sig: readonly number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + MINHASH_ROWS <= sig.length; i += MINHASH_ROWS) {
    out.push(`${prefix}${i / MINHASH_ROWS}:${murmurhash.v3(sig.slice(i, i + MINHASH_ROWS).join(','), 3).toString(16)}`);
  }
  return out;
}

/** Word shingles (k words) of a text, lower-cased, digits folded (prices and amounts differ per site). */
export function textShingles(text: string, k = 3): Set<string> {
  const words = text.toLowerCase().replace(/\d+/g, '0').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const out = new Set<string>();
  for (let i = 0; i + k <= words.length; i++) out.add(words.slice(i, i + k).join(' '));
  if (!out.size && words.length) out.add(words.join(' '));
  return out;
}
