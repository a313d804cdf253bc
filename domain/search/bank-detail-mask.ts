// Bank details in search answers (docs/data-model.md, "Who sees what"): IBANs inside free text
// (snippets, descriptions) masked with the platform's one maskBankAccount
// (domain/intelligence/entity-masking.ts), and the highlight markers of snippets.
import { maskBankAccount } from '../intelligence/entity-masking';

export { maskBankAccount, seesBankDetails } from '../intelligence/entity-masking';

/** Highlight markers ts_headline puts around matched words (db/repositories/search/search-repository.ts). */
export const HIGHLIGHT_START = '\u0002';
export const HIGHLIGHT_END = '\u0003';

// IBANs written in running text, with or without spaces (and highlight markers \u0002 \u0003 around words).
// eslint-disable-next-line no-control-regex -- the highlight markers are control characters on purpose
const IBAN_IN_TEXT = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[\s\u0002\u0003]{0,3}[A-Z0-9]{4}){2,7}(?:[\s\u0002\u0003]{0,3}[A-Z0-9]{1,4})?(?![A-Z0-9])/g;

/** Masks every IBAN-like sequence in free text (snippets, descriptions). */
export function maskBankDetailsInText(text: string): string {
  return text.replace(IBAN_IN_TEXT, (m) => maskBankAccount(m.replaceAll(HIGHLIGHT_START, '').replaceAll(HIGHLIGHT_END, '')));
}
