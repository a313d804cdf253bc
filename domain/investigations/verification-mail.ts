// What a verification mail to a persona asks for: the codes it carries (4 to 8 digits, or letters
// and digits mixed, near a word for "code" in the funnel's languages) and the links that verify,
// activate or confirm an account. Pure: the receiver (services/investigations/persona-mail-service.ts)
// reads the parsed mail, these functions read text.
import { getDomain } from 'tldts';

/** Words a verification code stands near: English, Chinese, Vietnamese, Spanish, Portuguese, Russian, Thai, Indonesian, Turkish, Arabic. */
const CODE_WORDS = [
  'code', 'codes', 'otp', 'pin', 'passcode', 'verification', 'one-time',
  '验证码', '驗證碼', '校验码', '动态码', '代码',
  'mã', 'ma xac', 'xác minh', 'xác thực',
  'código', 'codigo', 'clave',
  'код', 'кода', 'пароль',
  'รหัส', 'otp',
  'kode', 'sandi',
  'kod', 'kodu', 'doğrulama',
  'رمز', 'الرمز', 'كود',
];

/** How far from such a word a code may stand (characters after it, before it). */
const AFTER = 80;
const BEFORE = 40;
const MAX_CODES = 5;
const MAX_LINKS = 10;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A Latin word must stand alone ("code", not "encode"); other scripts have no such boundary.
const WORD_RE = new RegExp(
  CODE_WORDS.map((w) => (/^[a-z\u00c0-\u024f -]+$/i.test(w) ? `(?<![\\p{L}\\p{N}])${escape(w)}(?![\\p{L}])` : escape(w))).join('|'),
  'giu',
);
// 4-8 characters, not inside a longer run of Latin or Cyrillic letters or digits (Chinese, Thai or
// Arabic text runs on without spaces: "验证码736401").
const CANDIDATE_RE = /(?<![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff_-])([A-Za-z0-9]{4,8})(?![A-Za-z0-9\u00c0-\u024f\u0400-\u04ff_])/gu;
const URL_RE = /\bhttps?:\/\/[^\s<>"'()]+/gi;
const EMAIL_RE = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

function isCode(token: string): boolean {
  if (/^\d{4,8}$/.test(token)) return true;
  // Mixed letters and digits ("A7K9Q2"); a plain word is never a code.
  return /\d/.test(token) && /[A-Za-z]/.test(token) && !/^\d+(?:st|nd|rd|th|px|am|pm)$/i.test(token);
}

/**
 * The verification codes in a mail's subject and text, in the order they appear, at most five:
 * digits first when both kinds occur. URLs and addresses are removed first (their digits are not codes).
 */
export function extractVerificationCodes(...texts: Array<string | null | undefined>): string[] {
  const text = texts.filter((t): t is string => !!t).join('\n').replace(URL_RE, ' ').replace(EMAIL_RE, ' ');
  const found: Array<{ code: string; at: number }> = [];
  for (const word of text.matchAll(WORD_RE)) {
    const start = Math.max(0, word.index - BEFORE);
    const end = Math.min(text.length, word.index + word[0].length + AFTER);
    const window = text.slice(start, end);
    for (const m of window.matchAll(CANDIDATE_RE)) {
      const at = start + m.index;
      // The keyword itself ("kode", "code1") is not a code.
      if (at >= word.index && at < word.index + word[0].length) continue;
      if (isCode(m[1]!)) found.push({ code: m[1]!, at });
    }
  }
  const ordered = found.sort((a, b) => a.at - b.at).map((f) => f.code);
  const unique = [...new Set(ordered)];
  const digits = unique.filter((c) => /^\d+$/.test(c));
  return [...digits, ...unique.filter((c) => !/^\d+$/.test(c))].slice(0, MAX_CODES);
}

const LINK_WORDS = /verif|activat|confirm|token|validat|xac-?minh|подтвер|激活|验证/i;

/** The site a host belongs to: its registrable domain (public suffix list), else the host itself. */
export function siteOf(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  return getDomain(h, { allowPrivateDomains: true }) ?? h;
}

/**
 * The verification links of a mail (from its HTML anchors and its text): http(s) links whose path or
 * query speaks of verifying, activating, confirming or a token, without duplicates; links on one of
 * `sites` (the investigated site, the sender's domain) first, at most ten.
 */
export function extractVerificationLinks(input: { text?: string | null; hrefs?: readonly string[]; sites?: readonly string[] }): string[] {
  const candidates = [...(input.hrefs ?? []), ...(input.text?.match(URL_RE) ?? [])];
  const links: string[] = [];
  for (const raw of candidates) {
    let url: URL;
    try {
      url = new URL(raw.trim().replace(/[.,;:!?]+$/, ''));
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const rest = decodeURIComponentSafe(`${url.pathname}${url.search}`);
    if (!LINK_WORDS.test(rest) || /unsubscribe/i.test(rest)) continue;
    if (!links.includes(url.href)) links.push(url.href);
  }
  const sites = new Set((input.sites ?? []).map(siteOf));
  const own = (l: string) => sites.has(siteOf(new URL(l).hostname));
  return [...links.filter(own), ...links.filter((l) => !own(l))].slice(0, MAX_LINKS);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The hrefs of an HTML body's anchors (a mail's HTML; no DOM needed for this). */
export function anchorHrefs(html: string | null | undefined): string[] {
  if (!html) return [];
  return [...html.matchAll(/<a\b[^>]*?\bhref\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map((m) => decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
}

function decodeEntities(s: string): string {
  return s.replace(/&amp;/g, '&').replace(/&#x2F;/gi, '/').replace(/&#47;/g, '/').replace(/&quot;/g, '"');
}

/** The mailbox of a recipient address at the persona domain, lower-cased; null for any other domain. */
export function personaMailbox(address: string, domain: string): string | null {
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf('@');
  if (at <= 0 || a.slice(at + 1) !== domain.toLowerCase()) return null;
  return a;
}
