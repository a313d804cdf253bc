// Whether an archived record's body holds a reported finding, as the site wrote it: the rule
// behind per-finding provenance (services/evidence/finding-provenance.ts) and the one an expert
// repeats with grep on the unpacked bundle. A wallet is looked for as the address itself, in any
// letter case only where its format is case-insensitive (hex EVM addresses, whose checksum casing
// a site may drop; bech32 addresses, which may be written in capitals); base58 and every other
// format byte for byte. E-mail addresses and handles in any case; a phone number as its digits
// with the separators people write (spaces, dots, dashes, brackets), international or national.
import { parsePhoneNumberFromString } from 'libphonenumber-js';

export type FindingKind = 'wallet' | 'email' | 'phone' | 'telegram' | 'whatsapp';

/** One reported value and how to recognise it in a body. */
export interface FindingMatcher {
  kind: FindingKind;
  value: string;
  /** Answers whether `body` (a record's payload, read as latin1 so every byte maps to one char) holds the value. */
  test(body: string): boolean;
}

const HEX_EVM = /^0x[0-9a-fA-F]{40}$/;
const BECH32 = /^[a-z]{1,83}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/i;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Digits with any run of written separators between them. */
function digitsPattern(digits: string): string {
  return digits.split('').join('[\\s().\\-\\u00a0]*');
}

/** `needle` as a whole token: not glued to letters or digits on either side. */
function token(needle: string, flags: string): RegExp {
  return new RegExp(`(?<![0-9A-Za-z])${needle}(?![0-9A-Za-z])`, flags);
}

/** How a wallet address is found in a body. */
export function walletMatcher(address: string): FindingMatcher {
  const caseless = HEX_EVM.test(address) || BECH32.test(address);
  const re = token(escapeRegExp(address), caseless ? 'i' : '');
  return { kind: 'wallet', value: address, test: (body) => body.includes(address) || re.test(body) };
}

/** How a PII finding (as stored: e-mail lower-cased, `@handle`, E.164 phone, `+digits` WhatsApp) is found in a body. */
export function piiMatcher(kind: Exclude<FindingKind, 'wallet'>, value: string): FindingMatcher {
  if (kind === 'phone' || kind === 'whatsapp') {
    const digits = value.replace(/\D/g, '');
    const parsed = parsePhoneNumberFromString(value.startsWith('+') ? value : `+${digits}`);
    const national = parsed?.nationalNumber ? String(parsed.nationalNumber) : null;
    const forms = [`(?:\\+|00)?[\\s]*${digitsPattern(digits)}`];
    // The national form (a trunk 0 or none) only when it is long enough to mean this number.
    if (national && national.length >= 7 && national !== digits) forms.push(`0?${digitsPattern(national)}`);
    const re = new RegExp(`(?<![0-9])(?:${forms.join('|')})(?![0-9])`);
    return { kind, value, test: (body) => re.test(body) };
  }
  const needle = kind === 'telegram' ? value.replace(/^@/, '') : value;
  const re = token(escapeRegExp(needle), 'i');
  return { kind, value, test: (body) => re.test(body) };
}
