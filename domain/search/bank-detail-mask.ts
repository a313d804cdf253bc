// Bank details are masked for every role but analyst (shared/DATA-MODEL.md, "Who sees what"):
// an IBAN keeps its country code, check digits and last four characters, in groups of four
// (DE89370400440532013000 -> DE89 **** **** **** 3000); other account numbers keep their last four.
import type { Role } from '../auth/roles';

/** Highlight markers ts_headline puts around matched words (db/repositories/search-repository.ts). */
export const HIGHLIGHT_START = '\u0002';
export const HIGHLIGHT_END = '\u0003';

/** Roles that see bank details in clear. */
export const BANK_DETAIL_ROLES: readonly Role[] = ['analyst'];

export function seesBankDetails(roles: readonly Role[]): boolean {
  return roles.some((r) => BANK_DETAIL_ROLES.includes(r));
}

export function maskBankAccount(value: string): string {
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  if (/^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(compact)) {
    const middle = compact.length - 8;
    const groups = Math.max(1, Math.floor(middle / 4));
    return [compact.slice(0, 4), ...Array.from({ length: groups }, () => '****'), compact.slice(-4)].join(' ');
  }
  return compact.length <= 4 ? '****' : `**** ${compact.slice(-4)}`;
}

// IBANs written in running text, with or without spaces (and highlight markers \u0002 \u0003 around words).
// eslint-disable-next-line no-control-regex -- the highlight markers are control characters on purpose
const IBAN_IN_TEXT = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[\s\u0002\u0003]{0,3}[A-Z0-9]{4}){2,7}(?:[\s\u0002\u0003]{0,3}[A-Z0-9]{1,4})?(?![A-Z0-9])/g;

/** Masks every IBAN-like sequence in free text (snippets, descriptions). */
export function maskBankDetailsInText(text: string): string {
  return text.replace(IBAN_IN_TEXT, (m) => maskBankAccount(m.replaceAll(HIGHLIGHT_START, '').replaceAll(HIGHLIGHT_END, '')));
}
