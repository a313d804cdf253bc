// PII seen on a page (e-mail addresses, phone numbers, Telegram and WhatsApp handles), recorded with
// the page it came from. Phones go through libphonenumber-js (E.164), so digit runs that are not
// phone numbers (amounts, wallet fragments) are not reported.
import { findPhoneNumbersInText } from 'libphonenumber-js';

export interface PagePii {
  kind: 'email' | 'phone' | 'telegram' | 'whatsapp';
  value: string;
}

const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}/g;
const TELEGRAM = /(?:https?:\/\/)?(?:t\.me|telegram\.me)\/([A-Za-z0-9_]{5,32})/gi;
const WHATSAPP = /(?:https?:\/\/)?(?:wa\.me|api\.whatsapp\.com\/send\?phone=)\/?\+?(\d{7,15})/gi;

/** From the page's visible text plus its link targets (mailto:, tel:, t.me, wa.me). */
export function extractPagePii(text: string, hrefs: readonly string[]): PagePii[] {
  const found = new Map<string, PagePii>();
  const add = (kind: PagePii['kind'], value: string) => found.set(`${kind}|${value}`, { kind, value });
  const all = `${text}\n${hrefs.join('\n')}`.slice(0, 2_000_000);
  for (const m of all.matchAll(EMAIL)) add('email', m[0].toLowerCase());
  for (const m of all.matchAll(TELEGRAM)) add('telegram', `@${m[1]!.toLowerCase()}`);
  for (const m of all.matchAll(WHATSAPP)) add('whatsapp', `+${m[1]}`);
  for (const href of hrefs) {
    if (href.startsWith('tel:')) {
      for (const p of findPhoneNumbersInText(decodeURIComponent(href.slice(4)))) add('phone', p.number.number);
    }
  }
  for (const p of findPhoneNumbersInText(text.slice(0, 500_000))) add('phone', p.number.number);
  return [...found.values()];
}
