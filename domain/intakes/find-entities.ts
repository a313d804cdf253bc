// Evidence entities in an intake's text: wallets (the wallet engine), e-mail addresses, phone
// numbers (libphonenumber-js), IBANs (ibantools), URLs and their domains (tldts), social handles.
// Pure: the caller writes the result to the graph with recordSourceEntities.
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { findPhoneNumbersInText } from 'libphonenumber-js/max';
import { parse as parseDomain } from 'tldts';
import type { GraphEntityType } from '../intelligence/entity-types';
import { extractWallets } from '../wallets/extract-wallets';

export interface FoundEntity {
  type: GraphEntityType;
  value: string;
  attributes?: Record<string, unknown>;
  context: Record<string, unknown>;
}

export interface FoundLink {
  src: { type: GraphEntityType; value: string };
  dst: { type: GraphEntityType; value: string };
  kind: 'hosts';
}

const EMAIL_RE = /[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,63}/g;
const URL_RE = /\bhttps?:\/\/[^\s<>"'`)\]]+/gi;
const BARE_DOMAIN_RE = /(?<![@\w.-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}(?![\w@-])/gi;
const IBAN_RE = /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}\b/g;
const SOCIAL_URL_RE = /\b(?:https?:\/\/)?(?:www\.)?(t\.me|telegram\.me|instagram\.com|x\.com|twitter\.com|facebook\.com|tiktok\.com\/@?)\/@?([A-Za-z0-9_.]{3,64})/gi;
const HANDLE_RE = /(?<![\w@.])@([A-Za-z0-9_]{3,32})\b(?!\.[A-Za-z]{2,})/g;
const PLATFORM_BY_HOST: Record<string, string> = {
  't.me': 'telegram',
  'telegram.me': 'telegram',
  'instagram.com': 'instagram',
  'x.com': 'x',
  'twitter.com': 'x',
  'facebook.com': 'facebook',
  'tiktok.com': 'tiktok',
};
const PLATFORM_WORDS: Array<[RegExp, string]> = [
  [/telegram/i, 'telegram'],
  [/instagram|\binsta\b/i, 'instagram'],
  [/twitter|\bx\.com\b/i, 'x'],
  [/whats\s?app/i, 'whatsapp'],
  [/tiktok/i, 'tiktok'],
  [/facebook/i, 'facebook'],
  [/signal/i, 'signal'],
];

function snippet(text: string, index: number, length: number): string {
  return text.slice(Math.max(0, index - 40), Math.min(text.length, index + length + 40)).replace(/\s+/g, ' ').trim();
}

/** Entities in one piece of text; `where` names it on each sighting (`details`, `file:<name>`). */
export function findEntities(text: string, where: string, options: { html?: string; defaultCountry?: string } = {}): { entities: FoundEntity[]; links: FoundLink[] } {
  const entities: FoundEntity[] = [];
  const links: FoundLink[] = [];
  const seen = new Set<string>();
  const add = (e: FoundEntity) => {
    const k = `${e.type}\u0000${e.value}`;
    if (seen.has(k)) return;
    seen.add(k);
    entities.push(e);
  };

  const wallets = extractWallets(options.html !== undefined ? { html: options.html } : { text });
  for (const w of wallets.findings) {
    add({ type: 'wallet', value: w.address, attributes: { network: w.network, token: w.token }, context: { where, snippet: w.context.slice(0, 200) } });
  }

  const emailSpans: Array<[number, number]> = [];
  for (const m of text.matchAll(EMAIL_RE)) {
    emailSpans.push([m.index, m.index + m[0].length]);
    add({ type: 'email', value: m[0], context: { where, snippet: snippet(text, m.index, m[0].length) } });
  }
  const inEmail = (i: number) => emailSpans.some(([a, b]) => i >= a && i < b);

  const urlHosts = new Set<string>();
  for (const m of text.matchAll(URL_RE)) {
    const raw = m[0].replace(/[.,;:!?]+$/, '');
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    add({ type: 'url', value: url.href, context: { where, snippet: snippet(text, m.index, raw.length) } });
    const host = url.hostname.toLowerCase();
    const parsed = parseDomain(host);
    if (parsed.isIp) {
      add({ type: 'ip', value: host.replace(/^\[|\]$/g, ''), context: { where } });
      continue;
    }
    if (parsed.domain && parsed.isIcann) {
      urlHosts.add(host);
      add({ type: 'domain', value: host, context: { where } });
      links.push({ src: { type: 'domain', value: host }, dst: { type: 'url', value: url.href }, kind: 'hosts' });
    }
  }
  for (const m of text.matchAll(BARE_DOMAIN_RE)) {
    const host = m[0].toLowerCase();
    if (urlHosts.has(host) || inEmail(m.index)) continue;
    const parsed = parseDomain(host);
    // Only names under a real public suffix (so "file.txt" or "e.g" are not domains).
    if (!parsed.domain || !parsed.isIcann || /\.(txt|pdf|eml|html?|png|jpe?g|docx?|zip)$/i.test(host)) continue;
    add({ type: 'domain', value: host, context: { where, snippet: snippet(text, m.index, m[0].length) } });
  }

  for (const p of findPhoneNumbersInText(text, options.defaultCountry ? { defaultCountry: options.defaultCountry as never } : undefined)) {
    if (inEmail(p.startsAt)) continue;
    add({ type: 'phone', value: p.number.number, context: { where, snippet: snippet(text, p.startsAt, p.endsAt - p.startsAt) } });
  }

  for (const m of text.matchAll(IBAN_RE)) {
    const compact = electronicFormatIBAN(m[0]);
    if (compact && isValidIBAN(compact)) add({ type: 'bank_account', value: compact, context: { where, snippet: snippet(text, m.index, m[0].length) } });
  }

  for (const m of text.matchAll(SOCIAL_URL_RE)) {
    const host = m[1].toLowerCase().replace(/\/@?$/, '');
    const platform = PLATFORM_BY_HOST[host];
    if (platform) add({ type: 'social_handle', value: `${platform}:${m[2]}`, context: { where, snippet: snippet(text, m.index, m[0].length) } });
  }
  for (const m of text.matchAll(HANDLE_RE)) {
    if (inEmail(m.index)) continue;
    // The platform is named near the handle ("on Telegram @name"); without one it is not recorded.
    const around = text.slice(Math.max(0, m.index - 60), m.index + m[0].length + 30);
    const platform = PLATFORM_WORDS.find(([re]) => re.test(around))?.[1];
    if (platform) add({ type: 'social_handle', value: `${platform}:${m[1]}`, context: { where, snippet: snippet(text, m.index, m[0].length) } });
  }
  return { entities, links };
}
