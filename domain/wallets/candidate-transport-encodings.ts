// Candidate detection in transport encodings: percent-encoded link parameters, quoted-printable
// e-mail bodies and string literals joined in scripts are decoded before detection, and each
// candidate found only in the decoded text says how it was found (`via`).
import { ALNUM, CLASS, MIN_RUN, SMALL_RUN, splitRun, type RawCandidate, type Via } from './candidate-runs';
import { schemeBefore } from './html-location';

/** `text` appears in `raw` as a whole run of its own (so the ordinary passes found it already). */
function standalone(raw: string, text: string): boolean {
  for (let i = raw.indexOf(text); i >= 0; i = raw.indexOf(text, i + 1)) {
    const before = i > 0 ? raw.charCodeAt(i - 1) : 32;
    const after = raw.charCodeAt(i + text.length);
    if ((CLASS[before] & ALNUM) === 0 && (Number.isNaN(after) || (CLASS[after] & ALNUM) === 0)) return true;
  }
  return false;
}

/** Candidates of a decoded string that were not visible as such in the raw text (`raw`). */
function decodedCandidates(decoded: string, raw: string, at: number, via: Via, out: RawCandidate[], mustCross?: number[]): void {
  const found: RawCandidate[] = [];
  SMALL_RUN.lastIndex = 0;
  for (let r = SMALL_RUN.exec(decoded); r; r = SMALL_RUN.exec(decoded)) splitRun(r[0], r.index, found, decoded);
  const seen = new Set<string>();
  for (const c of found) {
    if (seen.has(c.text) || standalone(raw, c.text)) continue;
    if (mustCross && !mustCross.some((p) => c.start < p && c.end > p)) continue;
    seen.add(c.text);
    out.push({ start: at, end: at + 1, text: c.text, scheme: c.scheme ?? schemeBefore(decoded, c.start), origin: 'piece', via, decoded, decodedStart: c.start });
  }
}

const URL_CHAR = /[A-Za-z0-9%._~+\-=&?/:#@;,]/;

function safePercentDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** Percent-encoded link parameters: `?data=bitcoincash%3Aq…`, `?text=ethereum%3A0x…%4056`. */
export function percentPass(buf: string, from: number, to: number, out: RawCandidate[]): void {
  let done = -1;
  for (let i = indexOfCi3A(buf, from); i >= 0 && i < to; i = indexOfCi3A(buf, i + 3)) {
    if (i < done) continue;
    let s = i;
    while (s > 0 && i - s < 400 && URL_CHAR.test(buf[s - 1])) s--;
    let e = i + 3;
    while (e < buf.length && e - i < 600 && URL_CHAR.test(buf[e])) e++;
    done = e;
    const raw = buf.slice(s, e);
    let decoded = safePercentDecode(raw);
    if (decoded.includes('%3A') || decoded.includes('%3a')) decoded = safePercentDecode(decoded); // encoded twice
    decodedCandidates(decoded, raw, s, 'url-param', out);
  }
}

/** Next `%3A` / `%3a` (an encoded `:`), also encoded twice (`%253A`): the first `%` from `from` that starts one. */
function indexOfCi3A(buf: string, from: number): number {
  for (let i = buf.indexOf('%', from); i >= 0; i = buf.indexOf('%', i + 1)) {
    const j = buf.startsWith('25', i + 1) ? i + 3 : i + 1;
    if (buf.charCodeAt(j) === 51 && (buf.charCodeAt(j + 1) | 32) === 97) return i;
  }
  return -1;
}

const QP_SOFT = /=\r?\n|=3D/g;

function qpDecode(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Whether `=\n` or `=\r\n` occurs at or after `from`: one walk over the (rarer) line feeds instead of two searches for `=`. */
function hasSoftBreak(buf: string, from: number): boolean {
  for (let j = buf.indexOf('\n', from + 1); j >= 0; j = buf.indexOf('\n', j + 1)) {
    const p = buf.charCodeAt(j - 1);
    if (p === 61 || (p === 13 && j - 2 >= from && buf.charCodeAt(j - 2) === 61)) return true;
  }
  return false;
}

/** Quoted-printable e-mail bodies: soft line breaks (`=` at line end) and `=3D` inside an address or URI. */
export function qpPass(buf: string, from: number, to: number, out: RawCandidate[]): void {
  if (!hasSoftBreak(buf, from) && buf.indexOf('=3D', from) < 0) return;
  QP_SOFT.lastIndex = from;
  let done = -1;
  for (let m = QP_SOFT.exec(buf); m && m.index < to; m = QP_SOFT.exec(buf)) {
    const i = m.index;
    if (i < done) continue;
    const prev = buf.charCodeAt(i - 1);
    const next = buf.charCodeAt(i + m[0].length);
    if ((CLASS[prev] & ALNUM) === 0 && prev !== 58 && prev !== 61) continue; // not inside a word or after `scheme:` / `param=`
    if ((CLASS[next] & ALNUM) === 0 && next !== 34) continue;
    const s = Math.max(0, i - 300);
    const e = Math.min(buf.length, i + 300);
    done = e - 100;
    const raw = buf.slice(s, e);
    decodedCandidates(qpDecode(raw), raw, i, 'eml-qp', out);
  }
}

/** A character of the regex class `\s`. */
function isRegexSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The next match of `/["']\s*\+\s*["']/g` from `last` (its lastIndex), as [start, end): found
 * from the `+` (indexOf), not by scanning every quote of the page. The quote before a `+` and the
 * one after it are unique, and matches are in the order of their `+`.
 */
function nextConcat(buf: string, last: number): [number, number] | undefined {
  for (let q = buf.indexOf('+', last); q >= 0; q = buf.indexOf('+', q + 1)) {
    let p = q - 1;
    while (p >= last && isRegexSpace(buf.charCodeAt(p))) p--;
    if (p < last || !isQuote(buf.charCodeAt(p))) continue;
    let r = q + 1;
    while (r < buf.length && isRegexSpace(buf.charCodeAt(r))) r++;
    if (r < buf.length && isQuote(buf.charCodeAt(r))) return [p, r + 1];
  }
  return undefined;
}
const LIT_CHAR = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:_.-/?=&') LIT_CHAR[ch.charCodeAt(0)] = 1;
const isQuote = (c: number): boolean => c === 34 || c === 39;
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** The literal whose closing quote is at `q` (scanning left), or undefined. */
function literalEndingAt(buf: string, q: number): { start: number; text: string } | undefined {
  let i = q - 1;
  while (i >= 0 && q - i <= 141 && buf.charCodeAt(i) < 128 && LIT_CHAR[buf.charCodeAt(i)]) i--;
  return i >= 0 && buf.charCodeAt(i) === buf.charCodeAt(q) ? { start: i, text: buf.slice(i + 1, q) } : undefined;
}

/** The literal whose opening quote is at `q` (scanning right), or undefined. */
function literalStartingAt(buf: string, q: number): { end: number; text: string } | undefined {
  let i = q + 1;
  while (i < buf.length && i - q <= 141 && buf.charCodeAt(i) < 128 && LIT_CHAR[buf.charCodeAt(i)]) i++;
  return i < buf.length && buf.charCodeAt(i) === buf.charCodeAt(q) ? { end: i + 1, text: buf.slice(q + 1, i) } : undefined;
}

/** Skips `\s*+\s*` backwards from before `i`; returns the position of the quote before it, or -1. */
function plusBefore(buf: string, i: number): number {
  let j = i - 1;
  while (j >= 0 && isSpace(buf.charCodeAt(j))) j--;
  if (buf.charCodeAt(j) !== 43) return -1;
  j--;
  while (j >= 0 && isSpace(buf.charCodeAt(j))) j--;
  return j >= 0 && isQuote(buf.charCodeAt(j)) ? j : -1;
}

/** Skips `\s*+\s*` forwards from `i`; returns the position of the quote after it, or -1. */
function plusAfter(buf: string, i: number): number {
  let j = i;
  while (j < buf.length && isSpace(buf.charCodeAt(j))) j++;
  if (buf.charCodeAt(j) !== 43) return -1;
  j++;
  while (j < buf.length && isSpace(buf.charCodeAt(j))) j++;
  return j < buf.length && isQuote(buf.charCodeAt(j)) ? j : -1;
}

/** String literals joined in scripts: `"bc1q" + "w508…"`, `'T' + 'XyZ…' + '…'`. */
export function concatPass(buf: string, from: number, to: number, out: RawCandidate[]): void {
  let done = -1;
  for (let m = nextConcat(buf, from); m && m[0] < to; m = nextConcat(buf, m[1])) {
    const index = m[0];
    if (index < done) continue;
    const parts: string[] = [];
    // Left: the literal closed at the match's start, then any `"…" +` before it.
    let q = index;
    let s = q;
    for (let guard = 0; guard < 12 && q >= 0; guard++) {
      const lit = literalEndingAt(buf, q);
      if (!lit) break;
      parts.unshift(lit.text);
      s = lit.start;
      q = plusBefore(buf, lit.start);
    }
    // Right: the literal opened at the end of the match, then any `+ "…"` after it.
    let o = m[1] - 1;
    let e = o;
    for (let guard = 0; guard < 12 && o >= 0; guard++) {
      const lit = literalStartingAt(buf, o);
      if (!lit) break;
      parts.push(lit.text);
      e = lit.end;
      o = plusAfter(buf, lit.end);
    }
    done = e;
    if (parts.length < 2) continue;
    const total = parts.reduce((n, p) => n + p.length, 0);
    if (total < MIN_RUN) continue;
    const joints: number[] = [];
    let n = 0;
    for (const p of parts.slice(0, -1)) joints.push((n += p.length));
    decodedCandidates(parts.join(''), buf.slice(s, e), index, 'script-concat', out, joints);
  }
}
