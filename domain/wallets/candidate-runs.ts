// Candidate detection, first pass: maximal runs of address characters (alphanumerics plus the
// separators some formats need), found by a character-class table loop (faster than any regex
// here), and the cheap splitting of each run into the pieces that can be addresses. A piece inside a
// longer run of its own alphabet (base64 blob, longer base58/hex string) is never a candidate: runs
// are maximal, and base64-looking runs are dropped whole. The character classes and the run
// splitting are shared with the other passes (./candidate-scanner.ts, ./candidate-transport-encodings.ts).
import { schemeBefore } from './html-location';

export type CandidateOrigin =
  | 'run' // a whole maximal run
  | 'piece' // part of a run split at `/`, `+` or `=` (URL paths, query strings)
  | 'segment' // part of a run split at `-` or `_` (inside a longer identifier / base64url run)
  | 'deobfuscated' // joined across inline tags, zero-width characters or entities
  | 'joined' // joined across whitespace inside one element or line
  | 'named'; // NEAR / EOS account names found by their suffix or context

export interface RawCandidate {
  start: number;
  end: number;
  text: string;
  scheme?: string;
  origin: CandidateOrigin;
  /** Found only after undoing a transport encoding (percent-encoded link parameter, quoted-printable, script string concatenation, QR image). */
  via?: Via;
  /** For `via` candidates: the decoded text they were found in and their offset there (payment URI parsing). */
  decoded?: string;
  decodedStart?: number;
}

export type Via = 'url-param' | 'eml-qp' | 'script-concat' | 'qr';

/** Longest candidate we consider (Zcash unified addresses are the longest real ones). */
export const MAX_CANDIDATE_LENGTH = 256;
export const MIN_RUN = 25;

const TON_STD = /^[EUk0][Qf][A-Za-z0-9+/]{46}$/;
const TON_URL = /^[EUk0][Qf][A-Za-z0-9_-]{46}$/;
const ICP_PRINCIPAL = /^(?:[a-z2-7]{5}-){4,}[a-z2-7]{1,5}$/;
const NANO = /^(?:nano|xrb)_[13][13-9a-km-uw-z]{59}$/;
const AVAX_CHAIN = /^[XPC]-avax1/;
const KEY_VALUE = /^[A-Za-z][A-Za-z_-]{0,30}=[0-9A-Za-z_-]{25,}$/;

/** Splits one maximal run into candidates; `base` is the run's offset. */
export function splitRun(run: string, base: number, out: RawCandidate[], buf: string): void {
  if (run.startsWith('0.0.')) {
    out.push({ start: base, end: base + run.length, text: run, origin: 'run' });
    return;
  }
  const n = run.length;
  if (n === 48 && (TON_URL.test(run) || TON_STD.test(run))) {
    out.push({ start: base, end: base + n, text: run, origin: 'run' });
    return;
  }
  const plusOrEq = run.includes('+') || run.includes('=');
  // A base64 blob: nothing inside it is a candidate. `name=value` (a query parameter such as
  // `destination=G…`) is not base64: there `=` only pads the end.
  if (plusOrEq && n >= 60 && !KEY_VALUE.test(run)) return;
  const hasSep = plusOrEq || run.includes('/') || run.includes('-') || run.includes('_');
  if (!hasSep) {
    if (n <= MAX_CANDIDATE_LENGTH) out.push({ start: base, end: base + n, text: run, origin: 'run', scheme: schemeBefore(buf, base) });
    return;
  }
  if (n > 1024) return; // a very long run of base64url/identifier characters: a blob
  let i = 0;
  while (i < n) {
    let j = i;
    while (j < n && run[j] !== '/' && run[j] !== '+' && run[j] !== '=') j++;
    if (j - i >= MIN_RUN) splitPiece(run.slice(i, j), base + i, i === 0 && j === n ? 'run' : 'piece', out, buf);
    i = j + 1;
  }
}

function splitPiece(piece: string, base: number, origin: CandidateOrigin, out: RawCandidate[], buf: string): void {
  if (!piece.includes('-') && !piece.includes('_')) {
    if (piece.length >= MIN_RUN && piece.length <= MAX_CANDIDATE_LENGTH) out.push({ start: base, end: base + piece.length, text: piece, origin, scheme: schemeBefore(buf, base) });
    return;
  }
  if (piece.length === 48 && TON_URL.test(piece)) {
    out.push({ start: base, end: base + 48, text: piece, origin });
    return;
  }
  if (NANO.test(piece) || ICP_PRINCIPAL.test(piece)) {
    out.push({ start: base, end: base + piece.length, text: piece, origin });
    return;
  }
  let i = 0;
  const n = piece.length;
  while (i < n) {
    let j = i;
    while (j < n && piece[j] !== '-' && piece[j] !== '_') j++;
    if (j - i >= MIN_RUN && j - i <= MAX_CANDIDATE_LENGTH) {
      const seg = piece.slice(i, j);
      // `X-avax1…` / `P-avax1…` is a whole address whose chain prefix happens to use a dash.
      const avax = i >= 2 && AVAX_CHAIN.test(piece.slice(i - 2, j));
      out.push({ start: base + i, end: base + j, text: seg, origin: avax ? origin : 'segment', scheme: i === 0 ? schemeBefore(buf, base) : undefined });
    }
    i = j + 1;
  }
}

export const SMALL_RUN = /(?<![0-9A-Za-z_+/=-])[0-9A-Za-z_+/=-]{25,}|(?<![\w.])0\.0\.\d{1,15}(?:-[a-z]{5})?(?![\w.-])/g;

// Character classes for the scanning loop.
export const RUN = 1;
export const ALNUM = 2;
const SPACE = 4;
export const INVISIBLE = 8;
export const FULLWIDTH = 16;
export const CLASS = new Uint8Array(65536);
for (let c = 48; c <= 57; c++) CLASS[c] = RUN | ALNUM;
for (let c = 65; c <= 90; c++) CLASS[c] = RUN | ALNUM;
for (let c = 97; c <= 122; c++) CLASS[c] = RUN | ALNUM;
for (const ch of '_+/=-') CLASS[ch.charCodeAt(0)] = RUN;
for (const ch of ' \t\r\n\u00a0') CLASS[ch.charCodeAt(0)] = SPACE;
for (const c of [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x180e]) CLASS[c] = INVISIBLE;
for (let c = 0xff10; c <= 0xff5a; c++) CLASS[c] = FULLWIDTH;

/** The rest of a run of address characters (the RUN class: alphanumerics and `_+/=-`), from lastIndex. */
const RUN_REST = /[0-9A-Za-z_+/=-]*/y;

/**
 * Runs of address characters of at least MIN_RUN chars, found with a stride: if the character
 * MIN_RUN-1 places ahead is not an address character, no long run can start before it, so most
 * text is skipped 25 characters at a time; only real long runs are walked character by character.
 */
export function runPass(buf: string, from: number, to: number, out: RawCandidate[]): void {
  const len = buf.length;
  let i = from;
  // A window that starts inside a run: that run began before `from` and was handled before.
  if (i > 0) while (i < len && (CLASS[buf.charCodeAt(i - 1)] & RUN) !== 0) i++;
  const stride = MIN_RUN - 1;
  while (i < to) {
    const probe = i + stride;
    if (probe >= len) return;
    if ((CLASS[buf.charCodeAt(probe)] & RUN) === 0) {
      i = probe + 1;
      continue;
    }
    let s = probe;
    while (s > i && (CLASS[buf.charCodeAt(s - 1)] & RUN) !== 0) s--;
    // A long run starting at s covers s + MIN_RUN - 1, and so does any starting after s up to there:
    // when that character ends the run, no long run starts before the next one (identifiers of
    // minified script end here, without walking them to their end).
    const last = s + stride;
    if (last >= len) return;
    if ((CLASS[buf.charCodeAt(last)] & RUN) === 0) {
      i = last + 1;
      continue;
    }
    let e = probe + 1;
    const walk = Math.min(len, e + 16);
    while (e < walk && (CLASS[buf.charCodeAt(e)] & RUN) !== 0) e++;
    if (e === walk && e < len) {
      // A long run (base64 blob, data URI): its end is found by the regex engine, several times faster than this loop.
      RUN_REST.lastIndex = e;
      RUN_REST.test(buf);
      e = RUN_REST.lastIndex;
    }
    // Runs longer than 1024 characters (base64 blobs, data URIs) hold no candidate: not even sliced.
    if (e - s >= MIN_RUN && s < to && (e - s <= 1024 || buf.startsWith('0.0.', s))) splitRun(buf.slice(s, e), s, out, buf);
    i = e + 1;
  }
}
