// Candidate detection: one linear pass (a character-class table loop, faster than any regex here)
// that finds maximal runs of address-ish characters (alphanumerics plus the separators some formats
// need), then cheap splitting of each run into the pieces that can be addresses. A piece inside a longer run of its own alphabet (base64
// blob, longer base58/hex string) is never a candidate: runs are maximal, and base64-looking runs
// are dropped whole. Extra passes, all linear and cheap: inline-tag / zero-width / entity splits,
// whitespace-grouped text nodes, `.near` names, EOS names when EOS is in context.
import { deobfuscate } from './text-normalization';
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
function splitRun(run: string, base: number, out: RawCandidate[], buf: string): void {
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

const DEOB_RADIUS = 140;

/** Joins the text around a split point at `h` (inline tag, zero-width char, entity) and keeps the runs crossing it. */
function deobfuscateAt(buf: string, h: number, out: RawCandidate[], seen: Set<string>): void {
  const left = deobfuscate(buf.slice(Math.max(0, h - DEOB_RADIUS), h + 1));
  const right = deobfuscate(buf.slice(h + 1, Math.min(buf.length, h + 1 + DEOB_RADIUS + 60)));
  const joined = left + right;
  const split = left.length;
  const found: RawCandidate[] = [];
  SMALL_RUN.lastIndex = 0;
  for (let r = SMALL_RUN.exec(joined); r; r = SMALL_RUN.exec(joined)) {
    if (r.index < split && r.index + r[0].length > split) splitRun(r[0], r.index, found, joined);
  }
  for (const c of found) {
    if (c.start > split || c.end < split || seen.has(c.text)) continue;
    seen.add(c.text);
    out.push({ start: h, end: h + 1, text: c.text, scheme: c.scheme, origin: 'deobfuscated' });
  }
}

const SMALL_RUN = /(?<![0-9A-Za-z_+/=-])[0-9A-Za-z_+/=-]{25,}|(?<![\w.])0\.0\.\d{1,15}(?:-[a-z]{5})?(?![\w.-])/g;
const DIGIT = /\d/;
const GROUPED = /^[0-9A-Za-z]+(?:\s+[0-9A-Za-z]+)+$/;
const WRAPPED = /[0-9A-Za-z]{16,}[ \t]*\r?\n[ \t]*[0-9A-Za-z]{4,}(?![0-9A-Za-z])/g;

/** A text node (or line) made of whitespace-separated alphanumeric groups, joined. */
function checkNode(buf: string, start: number, end: number, out: RawCandidate[]): void {
  const raw = buf.slice(start, end);
  if (!DIGIT.test(raw)) return;
  const t = raw.trim();
  if (!GROUPED.test(t)) return;
  const text = t.replace(/\s+/g, '');
  if (text.length < MIN_RUN || text.length > MAX_CANDIDATE_LENGTH) return;
  const at = start + raw.indexOf(t);
  out.push({ start: at, end: at + 1, text, origin: 'joined' });
}

const INLINE_TAGS = new Set(['span', 'b', 'i', 'em', 'strong', 'wbr', 'font', 'small', 'u', 'mark', 'code', 'sup', 'sub', 's', 'bdi', 'bdo', 'ins', 'del', 'abbr', 'kbd', 'samp', 'var', 'tt']);

/** At a `<` right after an alphanumeric: is it an inline tag (or comment) followed by more text? */
function inlineSplitAt(buf: string, lt: number, depth: number): boolean {
  if (buf.startsWith('<!--', lt)) {
    const end = buf.indexOf('-->', lt + 4);
    return end >= 0 && end - lt < 200 && (CLASS[buf.charCodeAt(end + 3)] & ALNUM) !== 0;
  }
  let j = lt + 1;
  if (buf.charCodeAt(j) === 47) j++;
  let k = j;
  while (k < buf.length && k - j < 6 && ((buf.charCodeAt(k) | 32) >= 97 && (buf.charCodeAt(k) | 32) <= 122)) k++;
  if (!INLINE_TAGS.has(buf.slice(j, k).toLowerCase())) return false;
  const gt = buf.indexOf('>', k);
  if (gt < 0 || gt - lt > 200) return false;
  const next = buf.charCodeAt(gt + 1);
  if (next === 60) return depth < 3 && inlineSplitAt(buf, gt + 1, depth + 1);
  return (CLASS[next] & ALNUM) !== 0;
}

// Character classes for the scanning loop.
const RUN = 1;
const ALNUM = 2;
const SPACE = 4;
const INVISIBLE = 8;
const FULLWIDTH = 16;
const CLASS = new Uint8Array(65536);
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
function runPass(buf: string, from: number, to: number, out: RawCandidate[]): void {
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

/** Split points: an alphanumeric followed by an inline tag or comment, invisible characters, entities, full-width text. */
// Split points, found per kind (a regex whose first character can be one of several is scanned
// character by character; one literal first character is found with indexOf, many times faster):
// an inline tag or comment at a `<`, an entity at a `&`, a soft hyphen, and the invisible and
// full-width characters above U+00FF (only searched when the text holds any such character).
const SPLIT_TAG_AT = /<(?:\/?(?:span|b|i|em|strong|wbr|font|small|u|mark|code|sup|sub|s|bdi|bdo|ins|del|abbr|kbd|samp|var|tt)\b|!--)/y;
const ENTITY_AT = /&#?[0-9A-Za-z]{2,8};/y;
const WIDE_SPLIT = /[\u200B-\u200D\u2060\uFEFF\u180E\uFF10-\uFF5A]/g;
/** Any character above U+00FF (no scan at all on a one-byte string). */
const WIDE_CHAR = /[^\0-\xff]/;

/**
 * Positions in [from, to) of buf where `lead` starts a match of the sticky regex `at`, leaving out
 * those splitPass skips for the character before them (a `<` not after an alphanumeric; a `&` not
 * after one and not starting `&#`), so the regex runs only where it can matter.
 */
function leadMatches(buf: string, lead: string, at: RegExp, from: number, to: number, out: number[]): void {
  for (let i = buf.indexOf(lead, from); i >= 0 && i < to; i = buf.indexOf(lead, i + 1)) {
    if ((i === 0 || (CLASS[buf.charCodeAt(i - 1)] & ALNUM) === 0) && (lead === '<' || buf.charCodeAt(i + 1) !== 35)) continue;
    at.lastIndex = i;
    if (at.test(buf)) out.push(i);
  }
}

/**
 * Where `/<(?:\/?(?:span|…|tt)\b|!--)|[\u200B-\u200D\u2060\uFEFF\u00AD\u180E]|&#?[0-9A-Za-z]{2,8};|[\uFF10-\uFF5A]/g`
 * (without its `<` and `&` parts for plain text) matches in [from, to), ascending, less the `<` and
 * `&` splitPass would skip anyway (leadMatches). No match can hold another split character, so
 * these are the positions the global regex stops at.
 */
function splitPoints(buf: string, from: number, to: number, html: boolean): number[] {
  const points: number[] = [];
  if (html) {
    leadMatches(buf, '<', SPLIT_TAG_AT, from, to, points);
    leadMatches(buf, '&', ENTITY_AT, from, to, points);
  }
  for (let i = buf.indexOf('\u00ad', from); i >= 0 && i < to; i = buf.indexOf('\u00ad', i + 1)) points.push(i);
  if (WIDE_CHAR.test(buf)) {
    WIDE_SPLIT.lastIndex = from;
    for (let m = WIDE_SPLIT.exec(buf); m && m.index < to; m = WIDE_SPLIT.exec(buf)) points.push(m.index);
  }
  return points.sort((a, b) => a - b);
}

function splitPass(buf: string, from: number, to: number, html: boolean, out: RawCandidate[]): void {
  const seen = new Set<string>();
  let last = -100;
  for (const i of splitPoints(buf, from, to, html)) {
    if (i - last < 24) continue;
    const c = buf.charCodeAt(i);
    const prevAlnum = i > 0 && (CLASS[buf.charCodeAt(i - 1)] & ALNUM) !== 0;
    if (c === 60 && !(prevAlnum && inlineSplitAt(buf, i, 0))) continue; // `<tag` not between two alphanumerics
    if (c === 38 && !prevAlnum && buf.charCodeAt(i + 1) !== 35) continue; // named entity not inside a word
    if ((CLASS[c] & INVISIBLE) !== 0 && !prevAlnum) continue;
    last = i;
    deobfuscateAt(buf, (CLASS[c] & FULLWIDTH) !== 0 ? i : i - 1, out, seen);
  }
}

/** Text nodes (HTML) or lines (text) made only of short alphanumeric groups: `bc1q w508 d6qe …`. */
/** Sticky: tried at each `>` (found with indexOf), which is where every match of the global form starts. */
const NODE_HTML = />[ \t\r\n]*(?=[A-Za-z]{0,11}\d)([0-9A-Za-z]{2,12}(?:[ \t\r\n\u00a0]+[0-9A-Za-z]{2,12}){2,})[ \t\r\n]*</y;
const NODE_TEXT = /^[ \t\u00a0]*(?=[A-Za-z]{0,11}\d)([0-9A-Za-z]{2,12}(?:[ \t\u00a0]+[0-9A-Za-z]{2,12}){2,})[ \t\u00a0]*$/gm;

/**
 * What NODE_HTML's lookahead needs at the `>` at i, checked without the regex: after optional
 * [ \t\r\n], at most 11 letters and then a digit. Most `>` of a page fail here.
 */
function nodeMayStartAt(buf: string, i: number): boolean {
  let j = i + 1;
  for (let c = buf.charCodeAt(j); c === 32 || c === 9 || c === 13 || c === 10; c = buf.charCodeAt(++j));
  let k = j;
  while (k - j < 12 && (buf.charCodeAt(k) | 32) >= 97 && (buf.charCodeAt(k) | 32) <= 122) k++;
  const d = buf.charCodeAt(k);
  return k - j <= 11 && d >= 48 && d <= 57;
}

function nodePass(buf: string, from: number, to: number, html: boolean, out: RawCandidate[]): void {
  if (html) {
    for (let i = buf.indexOf('>', from); i >= 0 && i < to;) {
      if (!nodeMayStartAt(buf, i)) {
        i = buf.indexOf('>', i + 1);
        continue;
      }
      NODE_HTML.lastIndex = i;
      const m = NODE_HTML.exec(buf);
      if (!m) {
        i = buf.indexOf('>', i + 1);
        continue;
      }
      const start = m.index + m[0].indexOf(m[1]);
      checkNode(buf, start, start + m[1].length, out);
      i = buf.indexOf('>', i + m[0].length);
    }
  } else {
    NODE_TEXT.lastIndex = from;
    for (let m = NODE_TEXT.exec(buf); m && m.index < to; m = NODE_TEXT.exec(buf)) {
      const start = m.index + m[0].indexOf(m[1]);
      checkNode(buf, start, start + m[1].length, out);
    }
  }
  if (!html) {
    WRAPPED.lastIndex = from;
    for (let m = WRAPPED.exec(buf); m && m.index < to; m = WRAPPED.exec(buf)) {
      const text = m[0].replace(/\s+/g, '');
      if (text.length <= MAX_CANDIDATE_LENGTH) out.push({ start: m.index, end: m.index + 1, text, origin: 'joined' });
      WRAPPED.lastIndex = m.index + 1;
    }
  }
}

const HBAR = /0\.0\.\d{1,15}(?:-[a-z]{5})?(?![\w.-])/y;

/** buf.indexOf('0.0.', from), searched as `.0.` (a rarer first character than `0` in hex and base64) with its `0` checked. */
function indexOfHbarPrefix(buf: string, from: number): number {
  for (let j = buf.indexOf('.0.', from + 1); j >= 0; j = buf.indexOf('.0.', j + 1)) if (buf.charCodeAt(j - 1) === 48) return j - 1;
  return -1;
}

function hederaIds(buf: string, from: number, to: number, out: RawCandidate[]): void {
  for (let i = indexOfHbarPrefix(buf, from); i >= 0 && i < to; i = indexOfHbarPrefix(buf, i + 4)) {
    const p = i > 0 ? buf.charCodeAt(i - 1) : 32;
    if ((CLASS[p] & RUN) !== 0 || p === 46) continue;
    HBAR.lastIndex = i;
    const m = HBAR.exec(buf);
    if (m) out.push({ start: i, end: i + m[0].length, text: m[0], origin: 'run' });
  }
}

const NEAR_CHAR = /[a-z0-9_.-]/;

function nearNames(buf: string, from: number, to: number, out: RawCandidate[]): void {
  for (let i = buf.indexOf('.near', from); i >= 0 && i < to; i = buf.indexOf('.near', i + 5)) {
    const after = buf[i + 5];
    if (after !== undefined && /[A-Za-z0-9_-]/.test(after)) continue;
    if (after === '.' && /[a-z]/.test(buf[i + 6] ?? '')) continue; // `.near.org` is a domain
    let s = i;
    while (s > 0 && i - s < 64 && NEAR_CHAR.test(buf[s - 1])) s--;
    while (s < i && !/[a-z0-9]/.test(buf[s])) s++;
    if (buf[s - 1] === '/' || buf[s - 1] === '@') continue; // inside a URL or e-mail
    if (i + 5 - s >= 7) out.push({ start: s, end: i + 5, text: buf.slice(s, i + 5), origin: 'named' });
  }
}

const EOS_NAME = /(?<![\w.@/-])[a-z1-5][a-z1-5.]{10}[a-z1-5](?![\w.@/-])/g;
/** `EOS` as a word of text (not inside base64, where `+` and `/` and digits surround it). */
const EOS_WORD = /(?<![A-Za-z0-9+/])EOS(?![A-Za-z0-9+/])/y;
const EOS_RADIUS = 2000;

function eosNames(buf: string, from: number, to: number, forced: boolean, out: RawCandidate[]): void {
  const scan = (s: number, e: number): void => {
    // On a slice: a global regex asked for matches before `e` would otherwise search to the end of the buffer.
    const part = buf.slice(Math.max(0, s - 1), Math.min(buf.length, e + 13));
    const shift = Math.max(0, s - 1);
    EOS_NAME.lastIndex = s - shift;
    for (let m = EOS_NAME.exec(part); m && m.index + shift < e; m = EOS_NAME.exec(part)) {
      if (/[1-5.]/.test(m[0])) out.push({ start: m.index + shift, end: m.index + shift + 12, text: m[0], origin: 'named' });
    }
  };
  if (forced) {
    scan(from, to);
    return;
  }
  // Only around the word EOS: account names are everyday lowercase words otherwise.
  let done = from;
  for (let i = buf.indexOf('EOS', Math.max(0, from - EOS_RADIUS)); i >= 0 && i < to + EOS_RADIUS; i = buf.indexOf('EOS', i + 3)) {
    EOS_WORD.lastIndex = i;
    const w = EOS_WORD.exec(buf);
    if (!w || w.index !== i) continue;
    const s = Math.max(done, i - EOS_RADIUS);
    const e = Math.min(to, i + EOS_RADIUS);
    if (e > s) scan(s, e);
    done = Math.max(done, e);
  }
}

// ---------------------------------------------------------------------------------------------
// Transport encodings: decoded before detection, each candidate says how it was found.

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
function percentPass(buf: string, from: number, to: number, out: RawCandidate[]): void {
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
function qpPass(buf: string, from: number, to: number, out: RawCandidate[]): void {
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
function concatPass(buf: string, from: number, to: number, out: RawCandidate[]): void {
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

export interface ScanOptions {
  html: boolean;
  /** Coin tab or caller says EOS: 12-char account names become candidates. */
  eos: boolean;
}

/** All candidates whose start lies in [from, to) of `buf`. */
export function scanCandidates(buf: string, from: number, to: number, opts: ScanOptions): RawCandidate[] {
  const out: RawCandidate[] = [];
  runPass(buf, from, to, out);
  splitPass(buf, from, to, opts.html, out);
  nodePass(buf, from, to, opts.html, out);
  hederaIds(buf, from, to, out);
  nearNames(buf, from, to, out);
  eosNames(buf, from, to, opts.eos, out);
  percentPass(buf, from, to, out);
  qpPass(buf, from, to, out);
  concatPass(buf, from, to, out);
  return out;
}
