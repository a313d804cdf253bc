// fast-check generators of bank details as people write them: valid IBANs (ibantools computes the
// check digits) of several countries, in any spacing, in running text; and what a reader may see
// of one (its country code, check digits and last four).
import fc from 'fast-check';
import { composeIBAN, getCountrySpecifications } from 'ibantools';

const SPECS = getCountrySpecifications();
// Countries whose IBANs carry no national check digits beyond mod 97, so composeIBAN makes valid ones.
const COUNTRIES = ['DE', 'GB', 'NL', 'IT', 'AT', 'CH', 'SE', 'IE'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** One BBAN of the country's format: [A-Z]{n}, [0-9]{n}, [A-Z0-9]{n} pieces of its regexp. */
function bbanArbitrary(country: string): fc.Arbitrary<string> {
  const pattern = SPECS[country]!.bban_regexp!.replace(/^\^|\$$/g, '');
  const pieces = [...pattern.matchAll(/\[([^\]]+)\]\{(\d+)\}/g)].map(([, cls, n]) => {
    const alphabet = cls === 'A-Z' ? LETTERS : cls === '0-9' ? '0123456789' : `${LETTERS}0123456789`;
    return fc.array(fc.constantFrom(...alphabet), { minLength: Number(n), maxLength: Number(n) }).map((a) => a.join(''));
  });
  return fc.tuple(...pieces).map((p) => p.join(''));
}

/** A valid IBAN, compact and upper case (of `countries`, by default all of them). */
export const ibanOf = (countries: readonly string[] = COUNTRIES): fc.Arbitrary<string> =>
  fc
    .constantFrom(...countries)
    .chain((country) => bbanArbitrary(country).map((bban) => composeIBAN({ countryCode: country, bban })))
    .filter((iban): iban is string => typeof iban === 'string' && iban.length > 8);

/** Countries whose account part is digits after at most a four-letter bank code. */
export const DIGIT_ACCOUNT_COUNTRIES = ['DE', 'GB', 'NL', 'AT', 'SE', 'IE'];

/** A valid IBAN, compact and upper case. */
export const ibanArbitrary: fc.Arbitrary<string> = fc
  .constantFrom(...COUNTRIES)
  .chain((country) => bbanArbitrary(country).map((bban) => composeIBAN({ countryCode: country, bban })))
  .filter((iban): iban is string => typeof iban === 'string' && iban.length > 8);

/** How someone may write it: groups of 1 to 6 characters, any of these separators between them, either case. */
export const writtenIbanOf = (ibans: fc.Arbitrary<string>): fc.Arbitrary<{ iban: string; written: string }> => fc
  .tuple(ibans, fc.integer({ min: 1, max: 6 }), fc.constantFrom(' ', '', '-', '  ', '\n', '.', '\t'), fc.boolean())
  .map(([iban, size, sep, lower]) => {
    const groups = iban.match(new RegExp(`.{1,${size}}`, 'g'))!;
    const written = groups.join(sep);
    return { iban, written: lower ? written.toLowerCase() : written };
  });

export const writtenIbanArbitrary = writtenIbanOf(ibanArbitrary);

/** Running text around it: lower-case words without digits. */
export const wordsArbitrary: fc.Arbitrary<string> = fc
  .array(fc.stringMatching(/^[a-z]{1,9}$/), { minLength: 0, maxLength: 6 })
  .map((w) => w.join(' '));

/** The characters of an IBAN a masked reader may see: country code, check digits, last four. */
export function visibleParts(iban: string): { head: string; tail: string; hidden: string } {
  return { head: iban.slice(0, 4), tail: iban.slice(-4), hidden: iban.slice(4, -4) };
}

/** Letters and digits only, upper case: how a value is compared whatever its spacing. */
export const compact = (s: string) => s.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

/**
 * Whether `text` holds more of `iban` than its mask shows: any run of `window` consecutive
 * characters of its hidden middle (compared compact, so spacing does not hide it). For answers
 * full of other characters, keep `window` long enough that a chance match is negligible.
 */
export function revealsHidden(text: string, iban: string, window = 8): boolean {
  const { hidden } = visibleParts(iban);
  const flat = compact(text);
  for (let i = 0; i + window <= hidden.length; i++) if (flat.includes(hidden.slice(i, i + window))) return true;
  return false;
}

/**
 * The words of `output` that are neither the running text around the IBAN (`context`) nor a part
 * of what the mask shows (within its country code and check digits, or its last four): each is
 * a piece of the IBAN that should have been hidden.
 */
export function leakedPieces(output: string, iban: string, context: string): string[] {
  const { head, tail } = visibleParts(iban);
  const known = compactWords(context);
  return compactWords(output).filter((w) => !known.some((k) => k.includes(w)) && !head.includes(w) && !tail.includes(w));
}

const compactWords = (s: string) => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w.toUpperCase());
