// UUIDs as four big-endian 32-bit words and back: the in-memory graph (adjacency.ts) keeps ids in
// typed arrays as words, never as strings.

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const HEX8 = /^[0-9a-fA-F]{8}$/;

/** 8 hex digits as a 32-bit word; NaN when they are not hex. */
function hexWord(digits: string): number {
  return HEX8.test(digits) ? parseInt(digits, 16) >>> 0 : NaN;
}

/** The four big-endian 32-bit words of a canonical UUID string; null when it is not one. */
export function uuidWords(s: string): [number, number, number, number] | null {
  if (s.length !== 36 || s[8] !== '-' || s[13] !== '-' || s[18] !== '-' || s[23] !== '-') return null;
  const w0 = hexWord(s.slice(0, 8));
  const w1 = hexWord(s.slice(9, 13) + s.slice(14, 18));
  const w2 = hexWord(s.slice(19, 23) + s.slice(24, 28));
  const w3 = hexWord(s.slice(28));
  return Number.isNaN(w0 + w1 + w2 + w3) ? null : [w0, w1, w2, w3];
}

export function uuidString(words: Uint32Array, at: number): string {
  const a = words[at]!;
  const b = words[at + 1]!;
  const c = words[at + 2]!;
  const d = words[at + 3]!;
  return (
    HEX[a >>> 24]! + HEX[(a >>> 16) & 255]! + HEX[(a >>> 8) & 255]! + HEX[a & 255]! + '-' +
    HEX[b >>> 24]! + HEX[(b >>> 16) & 255]! + '-' + HEX[(b >>> 8) & 255]! + HEX[b & 255]! + '-' +
    HEX[c >>> 24]! + HEX[(c >>> 16) & 255]! + '-' + HEX[(c >>> 8) & 255]! + HEX[c & 255]! +
    HEX[d >>> 24]! + HEX[(d >>> 16) & 255]! + HEX[(d >>> 8) & 255]! + HEX[d & 255]!
  );
}
