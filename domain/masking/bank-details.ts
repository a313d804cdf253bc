// How a bank detail looks once masked, as a value and inside free text. The rules of who sees what
// are in masking-policy.ts; this file only knows what a bank detail is and how to hide its middle.
//
// A value (a bank_account entity): an IBAN keeps its country code, check digits and last four
// (`DE89 **** **** **** 3000`); any other account number keeps its last four (`**** 6789`).
//
// Free text is scanned for three shapes, in this order:
// 1. At the cut edges of a snippet (its start, its end and both sides of a fragment delimiter), a
//    run of digit-bearing words touching the edge may be the tail or head of a bank detail whose
//    other half was cut away: nothing tells which characters of the whole value it holds, so it is
//    replaced whole by `****` (a complete, valid IBAN at the edge is left to rule 2). Letters alone
//    (a bank code cut off from the digits, `WEST`) are not recognisable as a bank detail there.
// 2. IBANs in any spacing (spaces, tabs, newlines, dots, dashes or none between any two
//    characters, either case): a valid one gets the value mask; an IBAN-like run that does not
//    validate (a typo, a partial) keeps only its country code and check digits.
// 3. Runs of eight or more digits (spaces or dashes between them allowed) are account numbers and
//    keep their last four; ISO and European dates are left alone.
// Highlight markers of search snippets may sit anywhere in the text: inside a masked run they are
// dropped, and the markers that remain are balanced again, so no highlight points into a mask.
import { getCountrySpecifications, isValidIBAN } from 'ibantools';

/** Highlight markers the search puts around matched words (the API turns them into <mark>). */
export const HIGHLIGHT_START = '\u0002';
export const HIGHLIGHT_END = '\u0003';
/** What separates the fragments of a search snippet. */
export const FRAGMENT_DELIMITER = ' … ';

const MASK = '****';
const SPECS = getCountrySpecifications();
const ALNUM = /[A-Za-z0-9]/;
// eslint-disable-next-line no-control-regex -- the highlight markers are control characters on purpose
const MARKERS = /[\u0002\u0003]/g;

/** The value mask: `DE89 **** **** **** 3000`, or `**** 6789` for a number that is not an IBAN. */
export function maskBankAccount(value: string): string {
  const compact = value.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  if (/^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(compact)) {
    const groups = Math.max(1, Math.floor((compact.length - 8) / 4));
    return [compact.slice(0, 4), ...Array.from({ length: groups }, () => MASK), compact.slice(-4)].join(' ');
  }
  return compact.length <= 4 ? MASK : `${MASK} ${compact.slice(-4)}`;
}

// Between two characters of an IBAN: up to three spaces, dots or dashes, and any highlight markers.
// The search index's masking (fip_mask_bank_details) takes the same separators, so whatever is
// masked here is also out of the index.
const SEP = '(?:[\\u0002\\u0003]*[\\s.\\-]){0,3}[\\u0002\\u0003]*';
const IBAN_START = new RegExp(`(?<![A-Za-z0-9])[A-Za-z]${SEP}[A-Za-z]${SEP}\\d${SEP}\\d(?:${SEP}[A-Za-z0-9]){4,34}`, 'g');
// eslint-disable-next-line no-control-regex -- the highlight markers are control characters on purpose
const DIGIT_RUN = /(?<![A-Za-z0-9])\d(?:(?:[\u0002\u0003]*[ \t-]){0,2}[\u0002\u0003]*\d){7,}(?![A-Za-z0-9])/g;
const DATE_LIKE = /^(?:\d{4}-\d{2}-\d{2}|\d{2}[.\-/]\d{2}[.\-/]\d{4})$/;

/** Index just past the n-th alphanumeric character of `s` (n ≥ 1), or -1. */
function pastNthAlnum(s: string, n: number): number {
  let seen = 0;
  for (let i = 0; i < s.length; i++) {
    if (ALNUM.test(s[i]) && ++seen === n) return i + 1;
  }
  return -1;
}

/**
 * How a partial or mistyped IBAN is masked: `head` keeps its country code and check digits (in
 * complete text); `whole` hides it whole (in cut text, where a run may start inside a longer value,
 * so its "country code" may be hidden characters); `skip` leaves it (only valid IBANs are masked).
 */
type PartialIban = 'head' | 'whole' | 'skip';

/** The IBAN starting a candidate run: [length of the original it covers, its mask], or null. */
function ibanAt(run: string, partial: PartialIban = 'head'): [number, string] | null {
  const compact = run.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  const spec = SPECS[compact.slice(0, 2)];
  const chars = spec?.chars;
  if (!chars) return null;
  if (compact.length >= chars && isValidIBAN(compact.slice(0, chars))) return [pastNthAlnum(run, chars), maskBankAccount(compact.slice(0, chars))];
  // Not a valid IBAN: a partial or mistyped one when at least four digits follow the check digits.
  // It keeps its country code and check digits; everything up to its last digit is hidden.
  const limit = Math.min(compact.length, chars);
  let lastDigit = -1;
  let digits = 0;
  for (let i = 4; i < limit; i++) {
    if (/\d/.test(compact[i])) {
      lastDigit = i;
      digits++;
    }
  }
  if (digits < 4 || partial === 'skip') return null;
  return [pastNthAlnum(run, lastDigit + 1), partial === 'head' ? `${compact.slice(0, 4)} ${MASK}` : MASK];
}

function maskIbans(text: string, partial: PartialIban = 'head'): string {
  let out = '';
  let from = 0;
  IBAN_START.lastIndex = 0;
  for (let m = IBAN_START.exec(text); m; m = IBAN_START.exec(text)) {
    const found = ibanAt(m[0], partial);
    if (!found) {
      IBAN_START.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(from, m.index) + found[1];
    from = m.index + found[0];
    IBAN_START.lastIndex = from;
  }
  return out + text.slice(from);
}

function maskDigitRuns(text: string): string {
  return text.replace(DIGIT_RUN, (run) => (DATE_LIKE.test(run) ? run : maskBankAccount(run.replace(MARKERS, ''))));
}

// A word of an edge run: letters and digits only; it joins the run when it holds a digit or is a
// short group of letters (a bank code, `WEST`, in either case, or what a cut left of one).
const EDGE_WORD = /^(?:[A-Za-z0-9]*\d[A-Za-z0-9]*|[A-Za-z]{1,4})$/;
/** Letters a cut may leave of a letter group before the first digit (`EST`, `A A A`). */
const EDGE_LETTERS = 4;

/** Masks the run of bank-detail words touching the start (or, with `atEnd`, the end) of a fragment. */
function maskEdge(fragment: string, atEnd: boolean): string {
  // eslint-disable-next-line no-control-regex -- the highlight markers are control characters on purpose
  const parts = fragment.split(/([\s.\-\u0002\u0003]+)/); // words at even indexes, separators between
  const wordIdx = parts.map((_, i) => i).filter((i) => i % 2 === 0 && parts[i] !== '');
  const order = atEnd ? [...wordIdx].reverse() : wordIdx;
  const run: number[] = [];
  let digitSeen = false;
  let letters = 0;
  let next: string | undefined;
  for (const i of order) {
    next = parts[i];
    if (!EDGE_WORD.test(parts[i])) break;
    const hasDigit = /\d/.test(parts[i]);
    if (!hasDigit && !digitSeen && (letters += parts[i].length) > EDGE_LETTERS) break;
    digitSeen ||= hasDigit;
    run.push(i);
    next = undefined;
  }
  // A whole valid IBAN in the run (maybe beside ordinary words) is not a cut one: the IBAN rule masks it as a value.
  const words = run.map((i) => parts[i].toUpperCase());
  if (atEnd) words.reverse();
  for (let a = 0; a < words.length; a++) {
    for (let b = words.length; b > a; b--) if (isValidIBAN(words.slice(a, b).join(''))) return fragment;
  }
  // The run ends, inside, on its last digit-bearing word or on letters that may still be part of an
  // account (single characters, upper-case groups); other words beyond it are ordinary words.
  while (run.length > 0 && !/\d/.test(parts[run[run.length - 1]]) && !/^(?:[A-Za-z]|[A-Z]{2,4})$/.test(parts[run[run.length - 1]])) {
    next = parts[run[run.length - 1]];
    run.pop();
  }
  // Beside a mask, the run is what that mask shows (`DE89 ****`, `**** 3000`).
  if (run.length === 0 || !run.some((i) => /\d/.test(parts[i])) || next === MASK) return fragment;
  const [lo, hi] = atEnd ? [run[run.length - 1], run[0]] : [run[0], run[run.length - 1]];
  return [...parts.slice(0, lo), MASK, ...parts.slice(hi + 1)].join('');
}

/**
 * Drops highlight markers that no longer pair up (an end without a start, a start never ended), and
 * those around a mask: a highlight there would tell that the hidden characters matched the query.
 */
export function balanceMarkers(text: string): string {
  // eslint-disable-next-line no-control-regex -- the highlight markers are control characters on purpose
  return pairMarkers(text).replace(/\u0002([^\u0002\u0003]*\*[^\u0002\u0003]*)\u0003/g, '$1');
}

function pairMarkers(text: string): string {
  let out = '';
  let open = -1;
  for (const ch of text) {
    if (ch === HIGHLIGHT_START) {
      if (open !== -1) continue;
      open = out.length;
      out += ch;
    } else if (ch === HIGHLIGHT_END) {
      if (open === -1) continue;
      open = -1;
      out += ch;
    } else out += ch;
  }
  return open === -1 ? out : out.slice(0, open) + out.slice(open + 1);
}

// Identifiers that are no bank detail however they look: UUIDs, long hexadecimal digests and e-mail
// addresses (a user `reviewer-69312533@example.org` keeps its digits; contact data has its own masks).
const IDENTIFIER = /\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,})\b|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/gi;

/** Masks every bank detail in complete free text (a description, a note, an intake's details). */
export function maskBankDetailsInText(text: string): string {
  return maskText(text, 'head');
}

function maskText(text: string, partial: PartialIban): string {
  if (!/\d/.test(text)) return text.includes('*') ? balanceMarkers(text) : text;
  let out = '';
  let from = 0;
  for (const m of text.matchAll(IDENTIFIER)) {
    out += maskRuns(text.slice(from, m.index), partial) + m[0];
    from = m.index + m[0].length;
  }
  return balanceMarkers(out + maskRuns(text.slice(from), partial));
}

function maskRuns(text: string, partial: PartialIban): string {
  return maskDigitRuns(maskIbans(text, partial));
}

/**
 * Masks every bank detail in text that may have been cut (a search snippet, a truncated preview):
 * as maskBankDetailsInText, and digit-bearing runs at the cut edges are hidden whole.
 */
export function maskBankDetailsInSnippet(text: string): string {
  if (!/\d/.test(text)) return balanceMarkers(text);
  // Whole IBANs first (their masks then bound the edge runs), then the cut edges, then the rest.
  const fragments = maskIbans(text, 'skip').split(FRAGMENT_DELIMITER).map((f) => maskEdge(maskEdge(f, false), true));
  return balanceMarkers(maskText(fragments.join(FRAGMENT_DELIMITER), 'whole'));
}
