// The funnel agent's reading of forms and controls: what a field is for (fieldKindOf) and what a button
// or link does (controlKindOf), from their type, autocomplete, name and id, label, placeholder, text and
// URL, in every language of VOCABULARY_LANGUAGES. The words are data (funnel-vocabulary-fields.ts,
// funnel-vocabulary-controls.ts); this file holds only the order in which the signals are believed.
import { PERSONA_FIELDS, type ControlDescriptor, type ControlKind, type FieldDescriptor, type FieldKind, type PersonaField } from './funnel';
import { CONTROL_TIERS, CONTROL_VOCABULARY, IDENTITY_PROVIDERS, NOT_A_STEP, type KnownControlKind } from './funnel-vocabulary-controls';
import {
  AGREEMENT,
  CONFIRMATION_HINTS,
  FIELD_VOCABULARY,
  IMAGE_HINTS,
  NOT_FOR_THE_PERSONA,
  OPT_INS,
  SENT_CODE_HINTS,
  TERMS,
  type FieldWords,
  type TextFieldKind,
} from './funnel-vocabulary-fields';
import { compileLexicon, findMatches, identifierWords, kindsOf, normaliseText, searchText, type Lexicon, type Match, type SearchText } from './funnel-vocabulary-matching';

export { VOCABULARY_LANGUAGES, type VocabularyLanguage } from './funnel-vocabulary-matching';

// ---- fields ----

/** Input types that never take persona data (buttons, files, hidden values, radio choices). */
const NOT_TYPED_INTO = new Set(['hidden', 'submit', 'button', 'reset', 'image', 'file', 'radio', 'range', 'color', 'search']);

/** autocomplete tokens (the last token after section-/shipping/billing/home/work/mobile) → kind. */
const AUTOCOMPLETE_KINDS: Readonly<Record<string, FieldKind>> = {
  email: 'email',
  'new-password': 'password',
  'current-password': 'password',
  'given-name': 'first_name',
  'family-name': 'last_name',
  name: 'full_name',
  tel: 'phone',
  'tel-national': 'phone',
  'tel-local': 'phone',
  bday: 'birth_date',
  'street-address': 'address_line',
  'address-line1': 'address_line',
  'address-level2': 'city',
  'postal-code': 'postcode',
  country: 'country',
  'country-name': 'country',
  'one-time-code': 'verification_code',
  username: 'username',
};

/** Among different kinds in one text, the more specific first ("Email or phone" is email, "邮箱 验证码" a code). */
const FIELD_PRECEDENCE: readonly TextFieldKind[] = [
  'password_confirm', 'password', 'captcha', 'verification_code', 'email', 'phone', 'username', 'birth_date',
  'first_name', 'last_name', 'full_name', 'address_line', 'city', 'postcode', 'country', 'unknown',
];

function lexiconOf<K extends string>(tables: ReadonlyArray<readonly [K, FieldWords]>) {
  return {
    text: compileLexicon(tables.map(([kind, t]) => ({ kind, phrases: t.phrases }))),
    ident: compileLexicon(tables.map(([kind, t]) => ({ kind, phrases: { en: t.phrases.en ?? [] }, words: t.words }))),
  };
}

const FIELD_LEXICON = lexiconOf(Object.entries(FIELD_VOCABULARY) as Array<[TextFieldKind, FieldWords]>);
const HINT_LEXICON = lexiconOf([
  ['blocked', NOT_FOR_THE_PERSONA],
  ['terms', TERMS],
  ['agreement', AGREEMENT],
  ['opt_in', OPT_INS],
  ['sent', SENT_CODE_HINTS],
  ['image', IMAGE_HINTS],
  ['confirmation', CONFIRMATION_HINTS],
] as const);
type Hint = 'blocked' | 'terms' | 'agreement' | 'opt_in' | 'sent' | 'image' | 'confirmation';

interface FieldTexts {
  /** Label, placeholder, name, id: in the order they are believed. */
  sources: Array<{ text: SearchText; lexicon: 'text' | 'ident' }>;
}

function fieldTexts(f: FieldDescriptor): FieldTexts {
  return {
    sources: [
      { text: searchText(normaliseText(f.label ?? '')), lexicon: 'text' },
      { text: searchText(normaliseText(f.placeholder ?? '')), lexicon: 'text' },
      { text: searchText(identifierWords(f.name ?? '')), lexicon: 'ident' },
      { text: searchText(identifierWords(f.id ?? '')), lexicon: 'ident' },
    ],
  };
}

function matchesPerSource<K>(texts: FieldTexts, lexicons: { text: Lexicon<K>; ident: Lexicon<K> }): Array<Array<Match<K>>> {
  return texts.sources.map((s) => findMatches(s.text, lexicons[s.lexicon]));
}

/** A hidden captcha response (cf-turnstile-response): the form has a captcha even if nothing shows it. */
const namesACaptcha = (texts: FieldTexts) => matchesPerSource(texts, FIELD_LEXICON).some((m) => m.some((x) => x.kind === 'captcha'));

const mostSpecific = (kinds: Set<TextFieldKind>): TextFieldKind | null => FIELD_PRECEDENCE.find((k) => kinds.has(k)) ?? null;

function autocompleteKind(autocomplete: string): FieldKind | null {
  const tokens = autocomplete.trim().toLowerCase().split(/\s+/).filter((t) => t && t !== 'webauthn');
  const last = tokens.at(-1);
  return last ? (AUTOCOMPLETE_KINDS[last] ?? null) : null;
}

/**
 * What a form field is for. In order: fields nobody types into (unknown, but a hidden captcha
 * response such as cf-turnstile-response is a captcha); invitation, referral and promotion
 * codes (left empty, whatever else they say); checkboxes (terms, unless they are marketing or
 * "remember me"); password fields (the confirmation when anything says confirm/repeat/again); type
 * email; one-time-code; then the first of label, placeholder, name and id that says something (the
 * most specific kind it says), except that other autocomplete tokens beat it unless it names a code.
 * A code read off an image, or named captcha, is a captcha unless something says it was sent by SMS
 * or e-mail (smsCaptcha); any other code is a verification code. Last, type tel and date.
 */
export function fieldKindOf(f: FieldDescriptor): FieldKind {
  const type = (f.type ?? '').trim().toLowerCase() || (f.tag === 'input' ? 'text' : f.tag);
  const texts = fieldTexts(f);
  if (f.tag === 'input' && NOT_TYPED_INTO.has(type)) return namesACaptcha(texts) ? 'captcha' : 'unknown';
  const hints = kindsOf(matchesPerSource(texts, HINT_LEXICON).flat()) as Set<Hint>;
  if (hints.has('blocked')) return 'unknown';
  if (type === 'checkbox') {
    if (hints.has('terms')) return 'terms';
    if (hints.has('opt_in')) return 'unknown';
    return hints.has('agreement') ? 'terms' : 'unknown';
  }
  const perSource = matchesPerSource(texts, FIELD_LEXICON).map((m) => kindsOf(m));
  const all = new Set(perSource.flatMap((s) => [...s]));
  const autocomplete = autocompleteKind(f.autocomplete ?? '');
  if (type === 'password' || autocomplete === 'password') {
    return all.has('password_confirm') || hints.has('confirmation') ? 'password_confirm' : 'password';
  }
  if (type === 'email' || autocomplete === 'email') return 'email';
  // A code read off an image is a captcha; a code said to be sent (SMS, e-mail) is not, even named smsCaptcha.
  const captchaOrCode = () => (all.has('captcha') ? (hints.has('image') || !hints.has('sent') ? 'captcha' : 'verification_code') : hints.has('image') ? 'captcha' : 'verification_code');
  if (autocomplete === 'verification_code') return captchaOrCode();
  const first = perSource.map(mostSpecific).find((k) => k !== null) ?? null;
  if (first === 'captcha' || first === 'verification_code') return captchaOrCode();
  if (autocomplete && autocomplete !== 'username') return autocomplete;
  if (first) return first;
  if (autocomplete === 'username') return 'username';
  if (type === 'tel') return 'phone';
  if (type === 'date') return 'birth_date';
  return 'unknown';
}

/**
 * The persona field a kind is filled from: the confirmation takes the password again; terms are
 * checked, captchas asked of a human and unknown fields left alone (null).
 */
export function personaFieldFor(kind: FieldKind): PersonaField | null {
  if (kind === 'password_confirm') return 'password';
  return (PERSONA_FIELDS as readonly string[]).includes(kind) ? (kind as PersonaField) : null;
}

// ---- controls ----

type ControlMatchKind = KnownControlKind | 'not_a_step';

const CONTROL_LEXICON: Lexicon<ControlMatchKind> = compileLexicon<ControlMatchKind>([
  ...(Object.entries(CONTROL_VOCABULARY) as Array<[KnownControlKind, (typeof CONTROL_VOCABULARY)[KnownControlKind]]>).map(([kind, t]) => ({ kind, phrases: t.phrases, whole: t.whole })),
  { kind: 'not_a_step', phrases: NOT_A_STEP.phrases },
]);
/** URLs are read with the English phrases and the URL words of each kind (pinyin and slugs too). */
const HREF_LEXICON: Lexicon<ControlMatchKind> = compileLexicon<ControlMatchKind>([
  ...(Object.entries(CONTROL_VOCABULARY) as Array<[KnownControlKind, (typeof CONTROL_VOCABULARY)[KnownControlKind]]>).map(([kind, t]) => ({ kind, phrases: { en: t.phrases.en ?? [] }, words: t.words })),
  { kind: 'not_a_step', phrases: { en: NOT_A_STEP.phrases.en ?? [] }, words: NOT_A_STEP.words },
]);
/** Kinds that, naming an identity provider, start a social sign-in ("Continue with Google"). */
const VIA_PROVIDER_KINDS: ReadonlySet<KnownControlKind> = new Set(['register', 'login', 'next', 'submit']);
const PROVIDER_LEXICON = compileLexicon([{ kind: 'provider' as const, words: IDENTITY_PROVIDERS }]);

interface ControlReading {
  kind: KnownControlKind | null;
  notAStep: boolean;
  viaProvider: boolean;
}

function readControlText(text: SearchText, lexicon: Lexicon<ControlMatchKind>): ControlReading {
  const matches = findMatches(text, lexicon);
  if (matches.some((m) => m.kind === 'not_a_step')) return { kind: null, notAStep: true, viaProvider: false };
  const steps = matches.filter((m): m is Match<KnownControlKind> => m.kind !== 'not_a_step');
  steps.sort((a, b) => CONTROL_TIERS[a.kind] - CONTROL_TIERS[b.kind] || a.start - b.start || b.end - b.start - (a.end - a.start));
  const viaProvider = findMatches(text, PROVIDER_LEXICON).length > 0;
  return { kind: steps[0]?.kind ?? null, notAStep: false, viaProvider };
}

/** The path, query and fragment of a link as words (/user/sign-up?ref=x → "user sign up ref x"); no host, no scheme. */
function hrefWords(href: string | null): string {
  if (!href) return '';
  const trimmed = href.trim();
  if (/^(?:javascript|mailto|tel|data):/i.test(trimmed)) return '';
  let url: URL;
  try {
    url = new URL(trimmed, 'http://relative.invalid/');
  } catch {
    return '';
  }
  let tail = `${url.pathname} ${url.search} ${url.hash}`;
  try {
    tail = decodeURIComponent(tail);
  } catch {
    // a malformed escape: read the words as they are
  }
  return identifierWords(tail.replace(/\.(?:html?|php|aspx?|jsp)\b/gi, ' '));
}

/**
 * What a button or link does. The text is read first, then the accessible name, then the URL; the
 * best reading wins by tier (CONTROL_TIERS), the text before the name before the URL among equals.
 * Leaving (log out, forgot password) anywhere makes it unknown, and so does a register, log-in,
 * next or submit control naming an identity provider ("Sign in with Google", "Continue with
 * Facebook", /auth/google). Checkbox-like roles are
 * fields, not controls: ask fieldKindOf.
 */
export function controlKindOf(c: ControlDescriptor): ControlKind {
  const role = (c.role ?? '').trim().toLowerCase();
  if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'textbox') return 'unknown';
  const readings = [
    readControlText(searchText(normaliseText(c.text ?? '').slice(0, 300)), CONTROL_LEXICON),
    readControlText(searchText(normaliseText(c.ariaLabel ?? '').slice(0, 300)), CONTROL_LEXICON),
    readControlText(searchText(hrefWords(c.href)), HREF_LEXICON),
  ];
  if (readings.some((r) => r.notAStep)) return 'unknown';
  let best: KnownControlKind | null = null;
  for (const r of readings) if (r.kind && (!best || CONTROL_TIERS[r.kind] < CONTROL_TIERS[best])) best = r.kind;
  if (!best) return 'unknown';
  if (VIA_PROVIDER_KINDS.has(best) && readings.some((r) => r.viaProvider)) return 'unknown';
  return best;
}
