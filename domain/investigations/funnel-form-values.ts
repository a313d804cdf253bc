// What the funnel types into a form beyond a field's kind: whether the site wants symbols in its
// password (a hint near the field, its `pattern`, or an error shown after a submit, in the funnel's
// languages as far as simple), which part of a birth date a day/month/year field takes, and which
// option of a select (country, birth date parts) is the persona's. Pure: unit-tested alone; no value
// chosen here is ever logged by its caller.
import type { FieldDescriptor } from './funnel';
import { identifierWords } from './funnel-vocabulary-matching';

export interface SelectOption {
  value: string;
  text: string;
}

// ---- password symbols ----

/** "Special character" and "symbol" in the vocabulary's languages (lower case; Latin words are matched whole). */
const SYMBOL_WORDS: readonly RegExp[] = [
  /\bspecial\s+(?:char(?:acter)?s?|symbols?|signs?)\b/, /\bsymbols?\b/, /\bnon[-\s]?alpha[-\s]?numeric\b/, /\bpunctuation\b/,
  /特殊字符|特殊符号|特殊字元|符号/,
  /\bký tự đặc biệt\b/,
  /\bcar[áa]cter(?:es)? especial(?:es)?\b/, /\bs[íi]mbolos?\b/,
  /\bcaracteres? especia(?:l|is)\b/,
  /спецсимвол|специальн\S*\s+(?:символ|знак)/,
  /อักขระพิเศษ|สัญลักษณ์/,
  /\bkarakter (?:khusus|spesial)\b/, /\bsimbol\b/,
  /(?:^|[^\p{L}])özel karakter/u, /\bsembol/,
  /(?:رمز|رموز|حرف|أحرف|حروف)\s*(?:خاص|خاصة)/,
];

/** The sentence says symbols are refused or optional ("no special characters", "symbols are optional"). */
const SYMBOLS_REFUSED = /\b(?:no|without|not allowed|optional|may not|must not|cannot|can't)\b[^.;,]{0,30}\b(?:special|symbols?)\b|\b(?:special characters?|symbols?)\b[^.;,]{0,30}\b(?:not allowed|optional|are not|is not)\b|不能|不允许|可选|không được|no se permiten|não são permitidos|не допускаются|запрещены/;

/** Whether `text` (a hint near the password field, an error after a submit) says a symbol is required. */
export function textAsksForSymbols(text: string): boolean {
  const lower = text.normalize('NFC').toLowerCase();
  return lower.split(/[.!\n。！;；]+/).some((sentence) => SYMBOL_WORDS.some((w) => w.test(sentence)) && !SYMBOLS_REFUSED.test(sentence));
}

const ALNUM_SAMPLES = ['Abcdefgh2345jk', 'Qwerty7Uiop9as'];
const SYMBOL_SAMPLES = ['!', '#', '$', '%', '*', '+', '-', '=', '?', '@', '_'].map((s) => `Abcdef${s}2345jk`);

/** Whether an HTML `pattern` turns down passwords of letters and digits but takes one with a symbol. */
export function patternAsksForSymbols(pattern: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`, 'v');
  } catch {
    try {
      re = new RegExp(`^(?:${pattern})$`, 'u');
    } catch {
      return false;
    }
  }
  return ALNUM_SAMPLES.every((s) => !re.test(s)) && SYMBOL_SAMPLES.some((s) => re.test(s));
}

/** The sign-up form asks for symbols: a password field's pattern or hint, or a message on the page. */
export function symbolsRequired(input: { patterns: readonly string[]; texts: readonly string[] }): boolean {
  return input.patterns.some((p) => p && patternAsksForSymbols(p)) || input.texts.some((t) => t && textAsksForSymbols(t));
}

export const hasSymbol = (password: string) => /[^A-Za-z0-9]/.test(password);

// ---- birth date parts ----

export type DatePart = 'day' | 'month' | 'year';

const PART_WORDS: ReadonlyArray<readonly [DatePart, RegExp]> = [
  ['year', /\b(?:y|yy|yyyy|year|years|yr|ano|año|anio|năm|nam|год|yil|yıl|tahun|ปี)\b|年|سنة/],
  ['month', /\b(?:m|mm|mon|month|months|mes|mês|mes|tháng|thang|месяц|ay|bulan|เดือน)\b|月|شهر/],
  ['day', /\b(?:d|dd|day|days|dia|día|ngày|ngay|день|gün|gun|hari|วัน)\b|日|يوم/],
];

const MONTHS_EN = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function numbers(options: readonly SelectOption[]): number[] {
  return options.map((o) => (/^\s*\d{1,4}\s*$/.test(o.value) ? Number(o.value) : /^\s*\d{1,4}\s*$/.test(o.text) ? Number(o.text) : NaN)).filter((n) => !Number.isNaN(n));
}

/** Which part of a birth date a select's options are: years (4 digits), twelve months, or days to 28..31. */
export function datePartOfOptions(options: readonly SelectOption[]): DatePart | null {
  const n = numbers(options);
  if (n.length >= 20 && n.every((x) => x >= 1900 && x <= 2100)) return 'year';
  const monthNames = options.filter((o) => MONTHS_EN.some((m) => o.text.trim().toLowerCase().startsWith(m))).length;
  if (monthNames >= 12) return 'month';
  const small = n.filter((x) => x >= 1 && x <= 31);
  if (small.length >= 28 && Math.max(...small) >= 28) return 'day';
  if (small.length === 12 && Math.max(...small) === 12) return 'month';
  return null;
}

/**
 * The part of a birth date a field takes when the date is asked in three fields (day, month,
 * year): from a select's options first, then its name, id, placeholder and label (dob_day, "MM",
 * "Year"). Null for a field that takes the whole date.
 */
export function birthDatePart(field: FieldDescriptor, options?: readonly SelectOption[]): DatePart | null {
  if (field.type === 'date') return null;
  if (options?.length) {
    const byOptions = datePartOfOptions(options);
    if (byOptions) return byOptions;
  }
  for (const source of [identifierWords(field.name ?? ''), identifierWords(field.id ?? ''), (field.placeholder ?? '').toLowerCase(), (field.label ?? '').toLowerCase()]) {
    const words = source.replace(/[^\p{L}\p{N}\s]/gu, ' ');
    const parts = PART_WORDS.filter(([, re]) => re.test(words)).map(([p]) => p);
    if (parts.length === 1) return parts[0]!;
  }
  return null;
}

/** The value typed into a field that takes one part of an ISO birth date (2-digit day and month). */
export function birthDatePartValue(isoDate: string, part: DatePart): string {
  const [y, m, d] = isoDate.split('-');
  return part === 'year' ? y! : part === 'month' ? m! : d!;
}

// ---- select options ----

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

const REGION_LANGUAGES = ['en', 'zh', 'vi', 'es', 'pt', 'ru', 'th', 'id', 'tr', 'ar', 'fr', 'de'];
/** Other names a select may give a country, by ISO 3166 alpha-2 code (its alpha-3 code, common short names). */
const COUNTRY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  GB: ['GBR', 'UK', 'Great Britain', 'Britain', 'England'],
  US: ['USA', 'United States of America', 'America'],
};

let regionCodes: string[] | null = null;
function allRegionCodes(): string[] {
  if (!regionCodes) {
    const en = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    regionCodes = [];
    for (let a = 65; a <= 90; a++) for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (en.of(code)) regionCodes.push(code);
    }
  }
  return regionCodes;
}

/** The ISO alpha-2 code of a country named in English (the persona's), or the code itself. */
export function countryCode(country: string): string | null {
  const wanted = fold(country);
  if (/^[a-z]{2}$/.test(wanted) && allRegionCodes().includes(wanted.toUpperCase())) return wanted.toUpperCase();
  const en = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  return allRegionCodes().find((c) => fold(en.of(c) ?? '') === wanted || (COUNTRY_ALIASES[c] ?? []).some((a) => fold(a) === wanted)) ?? null;
}

/** Every way an option may name the country: its names in the vocabulary's languages, ISO codes, aliases. */
function countryNames(country: string): Set<string> {
  const names = new Set([fold(country)]);
  const code = countryCode(country);
  if (code) {
    names.add(fold(code));
    for (const a of COUNTRY_ALIASES[code] ?? []) names.add(fold(a));
    for (const lang of REGION_LANGUAGES) {
      const name = new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' }).of(code);
      if (name) names.add(fold(name));
    }
  }
  return names;
}

const MONTH_NAMES: readonly string[][] = Array.from({ length: 12 }, (_, i) =>
  REGION_LANGUAGES.flatMap((lang) => ['long', 'short'].map((month) => fold(new Intl.DateTimeFormat(lang, { month: month as 'long' | 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, i, 15)))))),
);

/**
 * The option of a select that holds the persona's value: a country by name (in the vocabulary's
 * languages) or ISO code; a birth date part by number or month name; anything else by its text or
 * value. Answers the option's value, or null when none fits.
 */
export function pickOption(options: readonly SelectOption[], want: { kind: 'country' | 'date_part' | 'text'; value: string; part?: DatePart }): string | null {
  const real = options.filter((o) => o.value !== '' || o.text.trim() !== '');
  let match: SelectOption | undefined;
  if (want.kind === 'country') {
    const names = countryNames(want.value);
    match = real.find((o) => names.has(fold(o.value)) || names.has(fold(o.text)));
  } else if (want.kind === 'date_part') {
    const n = Number(want.value);
    match = real.find((o) => Number(o.value) === n && /^\s*\d+\s*$/.test(o.value)) ?? real.find((o) => /^\s*\d+\s*$/.test(o.text) && Number(o.text) === n);
    if (!match && want.part === 'month') {
      const names = new Set(MONTH_NAMES[n - 1] ?? []);
      match = real.find((o) => names.has(fold(o.text)) || names.has(fold(o.value)));
    }
  } else {
    const wanted = fold(want.value);
    match = real.find((o) => fold(o.text) === wanted || fold(o.value) === wanted);
  }
  return match ? match.value : null;
}
