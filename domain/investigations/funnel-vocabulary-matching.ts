// How the funnel vocabulary's phrases are found in what a page shows: one normalisation for the text
// and the phrases (case, full-width forms, punctuation, Arabic letter forms, traditional Chinese), an
// accent-free copy for languages whose sites often drop accents, word boundaries where a script puts
// spaces between words, and "the longest phrase wins" where phrases overlap (تسجيل الدخول over
// تسجيل, 图形验证码 over 验证码, confirm password over password).

/** The languages the vocabulary covers; a table may leave a language out, never name another. */
export const VOCABULARY_LANGUAGES = ['en', 'zh', 'vi', 'es', 'pt', 'ru', 'th', 'id', 'tr', 'ar'] as const;
export type VocabularyLanguage = (typeof VOCABULARY_LANGUAGES)[number];

/**
 * Whether a language's phrases also match text written without their accents ("contrasena",
 * "giris yap", "codigo"). Not for Vietnamese, where the marks tell words apart, nor for Thai, whose
 * vowels and tones are combining marks; Chinese and Arabic have none to drop (Arabic's short vowels
 * are always removed by the normalisation).
 */
export const MATCHES_WITHOUT_ACCENTS: Record<VocabularyLanguage, boolean> = {
  en: true,
  zh: false,
  vi: false,
  es: true,
  pt: true,
  ru: true,
  th: false,
  id: true,
  tr: true,
  ar: false,
};

/** Phrases per language, written as a reader of that language would (accents and all). */
export type Phrases = Partial<Record<VocabularyLanguage, readonly string[]>>;

/**
 * Traditional Chinese characters of the vocabulary's words, folded to their simplified forms on both
 * sides, so one simplified entry also reads 註冊, 密碼 or 驗證碼. Add a character here when a new
 * Chinese entry needs it.
 */
const TRADITIONAL_TO_SIMPLIFIED: Readonly<Record<string, string>> = Object.fromEntries(
  [
    '註注 冊册 錄录 碼码 驗验 證证 確确 認认 郵邮 電电 號号 機机 帳账 戶户 條条 協协 議议 隱隐 關关 閉闭 繼继 續续 發发 獲获',
    '儲储 幣币 圖图 動动 態态 實实 讀读 請请 輸输 設设 舊旧 開开 員员 會会 頁页 務务 權权 話话 傳传 記记 憶忆 訂订 閱阅 銷销',
    '薦荐 區区 國国 寫写 進进 選选 擇择 歲岁 滿满 規规 則则 暱昵 稱称 優优 錢钱 們们 為为 將将 時时 間间 給给 結结 輕轻 應应',
    '戲戏 鍵键 觀观 辦办 據据',
  ]
    .join(' ')
    .split(/\s+/)
    .filter((pair) => pair.length === 2)
    .map((pair) => [pair[0]!, pair[1]!] as const),
);

const PUNCTUATION_OR_SPACE = /[\p{P}\p{Z}\s]+/gu;

/**
 * The form both a page's text and the vocabulary's phrases are compared in: NFKC (full-width letters
 * and digits become ordinary ones), lower case (a Turkish dotted İ stays a plain i), no invisible
 * joiners, Arabic without short vowels or tatweel and with one alef, simplified Chinese, and any run
 * of punctuation or spaces as one space ("e-mail" and "e mail", "登录：" and "登录" read the same).
 */
export function normaliseText(raw: string): string {
  let s = raw.slice(0, 2000).normalize('NFKC').toLowerCase().replace(/i\u0307/g, 'i');
  s = s.replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '');
  s = s.replace(/[\u064B-\u065F\u0670\u0640]/g, '').replace(/[أإآٱ]/g, 'ا').replace(/ى/g, 'ي');
  s = Array.from(s, (c) => TRADITIONAL_TO_SIMPLIFIED[c] ?? c).join('');
  return s.replace(PUNCTUATION_OR_SPACE, ' ').trim();
}

/** A name or id split into its words: reg_email → "reg email", userPwd → "user pwd", password2 → "password 2". */
export function identifierWords(raw: string): string {
  const split = raw
    .slice(0, 300)
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2');
  return normaliseText(split.replace(/[^\p{L}\p{N}\p{M}]+/gu, ' '));
}

/**
 * The text without accents, one UTF-16 unit for one (ñ → n, ş → s, ё → е, đ → d, ı → i), so a match's
 * position means the same in both copies. Thai is left alone: its vowels are marks.
 */
export function withoutAccents(s: string): string {
  return Array.from(s, (c) => {
    if (c === 'đ') return 'd';
    if (c === 'ı') return 'i';
    if (/\p{Script=Thai}/u.test(c)) return c;
    const base = c.normalize('NFD').replace(/\p{M}/gu, '');
    return base.length === c.length ? base : c;
  }).join('');
}

/** Text ready to be searched: both copies. */
export interface SearchText {
  plain: string;
  folded: string;
}

export const searchText = (normalised: string): SearchText => ({ plain: normalised, folded: withoutAccents(normalised) });

interface Entry<K> {
  kind: K;
  phrase: string;
  /** Looked for in the accent-free copy. */
  folded: boolean;
}

/** A vocabulary compiled for searching: phrases (found anywhere, on word boundaries) and whole texts. */
export interface Lexicon<K> {
  entries: Array<Entry<K>>;
  /** Texts that mean something only on their own ("x" as a close button, "ok"). */
  whole: Map<string, K>;
}

export interface LexiconSource<K> {
  kind: K;
  phrases?: Phrases;
  /** Phrases matched in every language's way (accents folded): identifiers, URL words, brand names. */
  words?: readonly string[];
  whole?: readonly string[];
}

export function compileLexicon<K>(sources: ReadonlyArray<LexiconSource<K>>): Lexicon<K> {
  const entries: Array<Entry<K>> = [];
  const whole = new Map<string, K>();
  const add = (kind: K, raw: string, folded: boolean) => {
    const n = normaliseText(raw);
    const phrase = folded ? withoutAccents(n) : n;
    if (phrase && !entries.some((e) => e.kind === kind && e.phrase === phrase && e.folded === folded)) entries.push({ kind, phrase, folded });
  };
  for (const source of sources) {
    for (const lang of VOCABULARY_LANGUAGES) for (const p of source.phrases?.[lang] ?? []) add(source.kind, p, MATCHES_WITHOUT_ACCENTS[lang]);
    for (const w of source.words ?? []) add(source.kind, w, true);
    for (const w of source.whole ?? []) whole.set(normaliseText(w), source.kind);
  }
  return { entries, whole };
}

export interface Match<K> {
  kind: K;
  start: number;
  end: number;
}

/** Scripts written without spaces between words (or, for Arabic, with words' prefixes attached): no boundary asked. */
const UNSPACED = /[\p{Script=Han}\p{Script=Thai}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Arabic}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
/** Thai vowels written before their consonant (เ แ โ ใ ไ): a word never starts right after one (ปิด is not in เปิด). */
const THAI_LEADING_VOWEL = /[\u0E40-\u0E44]/;
/** Thai vowels written after their consonant (ะ า ำ ๅ): a word never ends right before one. */
const THAI_FOLLOWING_VOWEL = /[\u0E30\u0E32\u0E33\u0E45]/;

function bounded(text: string, start: number, end: number, phrase: string): boolean {
  const before = start > 0 ? String.fromCodePoint(text.codePointAt(start - 1)!) : '';
  const after = end < text.length ? String.fromCodePoint(text.codePointAt(end)!) : '';
  const first = String.fromCodePoint(phrase.codePointAt(0)!);
  const last = Array.from(phrase).at(-1)!;
  if (after && (/\p{M}/u.test(after) || THAI_FOLLOWING_VOWEL.test(after))) return false;
  if (before && THAI_LEADING_VOWEL.test(before)) return false;
  // A spaced word ends where a letter of a spaced script stops ("18" in 年满18岁, "otp" in รหัสotp).
  const spacedWordChar = (c: string) => WORD_CHAR.test(c) && !UNSPACED.test(c);
  if (spacedWordChar(first) && before && spacedWordChar(before)) return false;
  if (spacedWordChar(last) && after && spacedWordChar(after)) return false;
  return true;
}

/**
 * Every phrase of the lexicon found in the text, less those inside a longer match (of any kind):
 * "تسجيل" inside "تسجيل الدخول", "验证码" inside "图形验证码", "cerrar" inside "cerrar sesión".
 */
export function findMatches<K>(text: SearchText, lexicon: Lexicon<K>): Array<Match<K>> {
  if (!text.plain) return [];
  const whole = lexicon.whole.get(text.plain);
  const found: Array<Match<K>> = whole === undefined ? [] : [{ kind: whole, start: 0, end: text.plain.length }];
  for (const e of lexicon.entries) {
    const haystack = e.folded ? text.folded : text.plain;
    for (let at = haystack.indexOf(e.phrase); at >= 0; at = haystack.indexOf(e.phrase, at + 1)) {
      if (bounded(haystack, at, at + e.phrase.length, e.phrase)) found.push({ kind: e.kind, start: at, end: at + e.phrase.length });
    }
  }
  const inside = (m: Match<K>, n: Match<K>) => n.start <= m.start && n.end >= m.end && n.end - n.start > m.end - m.start;
  const kept = found.filter((m) => !found.some((n) => inside(m, n)));
  return kept.filter((m, i) => kept.findIndex((n) => n.kind === m.kind && n.start === m.start && n.end === m.end) === i);
}

/** The matches' kinds, or an empty set. */
export const kindsOf = <K>(matches: ReadonlyArray<Match<K>>): Set<K> => new Set(matches.map((m) => m.kind));
