// The country an entity points to, from the value alone (no network lookups): a phone number's
// country (libphonenumber-js), an IBAN's country (ibantools), a country-code TLD of a domain, URL or
// e-mail address (tldts, public-suffix aware: `shop.co.uk` -> GB). Generic TLDs (.com) and
// non-country ccTLD-like suffixes (.eu) give no country.
import { extractIBAN, isValidIBAN } from 'ibantools';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { parse as parseDomain } from 'tldts';

export type CountryBasis = 'phone' | 'iban' | 'cctld';

export interface EntityCountry {
  country: string;
  basis: CountryBasis;
}

/** The entity types a country can be derived for. */
export const COUNTRY_ENTITY_TYPES = ['phone', 'bank_account', 'domain', 'url', 'email'] as const;

/** ccTLDs whose ISO 3166-1 code differs, and two-letter suffixes that are not one country. */
const CCTLD_TO_ISO: Readonly<Record<string, string | null>> = { uk: 'GB', eu: null, su: null, ac: null };

export function countryFromCcTld(host: string): string | null {
  const parsed = parseDomain(host);
  const suffix = parsed.publicSuffix;
  if (!suffix || parsed.isIp) return null;
  const tld = suffix.split('.').pop() ?? '';
  if (!/^[a-z]{2}$/.test(tld)) return null;
  if (Object.hasOwn(CCTLD_TO_ISO, tld)) return CCTLD_TO_ISO[tld] ?? null;
  return tld.toUpperCase();
}

export function entityCountry(type: string, value: string, attributes: Record<string, unknown> = {}): EntityCountry | null {
  const stored = typeof attributes.country === 'string' && /^[A-Z]{2}$/.test(attributes.country) ? attributes.country : null;
  switch (type) {
    case 'phone': {
      const country = stored ?? parsePhoneNumberFromString(value)?.country ?? null;
      return country ? { country, basis: 'phone' } : null;
    }
    case 'bank_account': {
      const country = stored ?? (isValidIBAN(value) ? (extractIBAN(value).countryCode ?? null) : null);
      return country ? { country, basis: 'iban' } : null;
    }
    case 'domain':
    case 'url': {
      const country = countryFromCcTld(value);
      return country ? { country, basis: 'cctld' } : null;
    }
    case 'email': {
      const country = countryFromCcTld(value.slice(value.lastIndexOf('@') + 1));
      return country ? { country, basis: 'cctld' } : null;
    }
    default:
      return null;
  }
}
