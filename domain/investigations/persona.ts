// A synthetic persona of the funnel agent: the values a site may ask for, all made up, from ranges
// that reach no real person (an e-mail at the operator's persona domain, phone numbers reserved for
// fiction, no card or ID numbers). The values live sealed in the vault only.
import { getDomain } from 'tldts';
import { isIP } from 'node:net';
import type { PersonaField } from './funnel';

export type PersonaValues = Record<Exclude<PersonaField, 'verification_code'>, string>;

/** The site a persona belongs to: its registrable domain; for an address or a single label, host:port. */
export function personaSite(url: string): string {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) || !host.includes('.')) return u.host.toLowerCase();
  return getDomain(host) ?? host;
}

/** Passes the common site policies: 12 to 16 characters, upper and lower case letters and digits. */
export function passwordFitsPolicy(p: string, symbols = false): boolean {
  return p.length >= 12 && p.length <= 16 && /[A-Z]/.test(p) && /[a-z]/.test(p) && /\d/.test(p) && (!symbols || /[^A-Za-z0-9]/.test(p)) && (symbols || /^[A-Za-z0-9]+$/.test(p));
}

/** A phone number from the ranges reserved for drama: UK 07700 900000-900999, North America 555-0100-0199. */
export function isFictionPhone(p: string): boolean {
  return /^07700 900\d{3}$/.test(p) || /^\+1 \d{3}-555-01\d{2}$/.test(p);
}
