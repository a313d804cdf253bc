// Candidate detection: the first pass finds maximal runs of address-ish characters and splits them
// (./candidate-runs.ts); extra passes here, all linear and cheap: inline-tag / zero-width / entity
// splits, whitespace-grouped text nodes, Hedera ids, `.near` names, EOS names when EOS is in
// context; and the transport encodings (./candidate-transport-encodings.ts).
import { ALNUM, CLASS, FULLWIDTH, INVISIBLE, MAX_CANDIDATE_LENGTH, MIN_RUN, RUN, runPass, SMALL_RUN, splitRun, type RawCandidate } from './candidate-runs';
import { concatPass, percentPass, qpPass } from './candidate-transport-encodings';
import { deobfuscate } from './text-normalization';

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
