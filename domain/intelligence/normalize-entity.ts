// One canonical value per real-world thing, so that the same wallet, domain or phone number seen by
// an intake and by an investigation is one entity. Pure: no I/O. Each type has its own rule; a
// value that is not a valid instance of its type answers null (the caller reports it, stores nothing).
import { domainToASCII } from 'node:url';
import net from 'node:net';
import { electronicFormatIBAN, extractIBAN, isValidIBAN } from 'ibantools';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { parse as parseDomain } from 'tldts';
import { toEip55 } from '../wallets/decoders/evm-decoder';
import type { GraphEntityType } from './entity-types';

export interface NormalizedEntity {
  /** The identity: unique per (type, value). */
  value: string;
  /** How people write it (checksummed wallet, formatted phone, IBAN in groups of four). */
  display: string;
  /** Facts that follow from the value itself (phone country, IBAN country, registrable domain). */
  attributes: Record<string, unknown>;
}

const MAX_VALUE_LENGTH = 2048;
const EVM_RE = /^0x[0-9a-fA-F]{40}$/;
const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]{1,253}$/;
const HANDLE_RE = /^[a-z0-9_.-]{1,64}$/;

function collapse(s: string): string {
  return s.normalize('NFC').replace(/\s+/g, ' ').trim();
}

function normalizeHost(raw: string): string | null {
  const host = domainToASCII(raw.trim().replace(/\.$/, '').toLowerCase());
  if (!host || host.length > 253 || !host.includes('.')) return null;
  if (!/^[a-z0-9.-]+$/.test(host) || host.split('.').some((l) => l.length === 0 || l.length > 63)) return null;
  return host;
}

function normalizeIp(raw: string): string | null {
  const s = raw.trim().replace(/^\[|\]$/g, '');
  const v = net.isIP(s);
  if (v === 4) return s.split('.').map((o) => String(Number(o))).join('.');
  if (v === 6) return new URL(`http://[${s}]/`).hostname.replace(/^\[|\]$/g, '');
  return null;
}

function normalizeUrl(raw: string): NormalizedEntity | null {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  u.hash = '';
  const host = u.hostname;
  return { value: u.href, display: u.href, attributes: { host, registrable_domain: parseDomain(u.href).domain ?? null } };
}

function normalizePhone(raw: string, attrs: Record<string, unknown>): NormalizedEntity | null {
  const defaultCountry = typeof attrs.default_country === 'string' ? (attrs.default_country.toUpperCase() as never) : undefined;
  const p = parsePhoneNumberFromString(raw.trim(), defaultCountry ? { defaultCountry } : undefined);
  if (!p || !p.isPossible()) return null;
  return { value: p.number, display: p.formatInternational(), attributes: { country: p.country ?? null, valid: p.isValid() } };
}

function normalizeBankAccount(raw: string): NormalizedEntity | null {
  const compact = electronicFormatIBAN(raw) ?? '';
  if (compact && isValidIBAN(compact)) {
    const parts = extractIBAN(compact);
    return { value: compact, display: compact.replace(/(.{4})/g, '$1 ').trim(), attributes: { kind: 'iban', country: parts.countryCode ?? null } };
  }
  const other = raw.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[A-Z0-9]{6,34}$/.test(other)) return null;
  return { value: other, display: raw.trim(), attributes: { kind: 'account' } };
}

function normalizeSocialHandle(raw: string, attrs: Record<string, unknown>): NormalizedEntity | null {
  // `telegram:@name`, or `@name` with attributes.platform.
  const m = /^(?:([a-z]+):)?@?(.+)$/i.exec(raw.trim());
  const platform = (m?.[1] ?? (typeof attrs.platform === 'string' ? attrs.platform : '')).toLowerCase();
  const handle = (m?.[2] ?? '').toLowerCase();
  if (!platform || !/^[a-z]{2,32}$/.test(platform) || !HANDLE_RE.test(handle)) return null;
  return { value: `${platform}:${handle}`, display: `${platform}:@${handle}`, attributes: { platform } };
}

export function normalizeEntity(type: GraphEntityType, raw: string, attributes: Record<string, unknown> = {}): NormalizedEntity | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_VALUE_LENGTH) return null;
  switch (type) {
    case 'wallet': {
      const s = raw.trim();
      if (!s || /\s/.test(s)) return null;
      // EVM addresses are one account on every EVM chain, whatever their letter case.
      if (EVM_RE.test(s)) return { value: s.toLowerCase(), display: toEip55(s), attributes: {} };
      // Bech32 is case-insensitive and canonically lower case; every other format is case-sensitive.
      if (/^[a-z0-9]{1,83}1[02-9ac-hj-np-z]{6,}$/i.test(s) && (s === s.toLowerCase() || s === s.toUpperCase())) {
        return { value: s.toLowerCase(), display: s.toLowerCase(), attributes: {} };
      }
      return { value: s, display: s, attributes: {} };
    }
    case 'domain': {
      const host = normalizeHost(raw);
      if (!host || net.isIP(host)) return null;
      return { value: host, display: host, attributes: { registrable_domain: parseDomain(host).domain ?? null, public_suffix: parseDomain(host).publicSuffix ?? null } };
    }
    case 'url':
      return normalizeUrl(raw);
    case 'ip': {
      const ip = normalizeIp(raw);
      return ip ? { value: ip, display: ip, attributes: { version: net.isIP(ip) } } : null;
    }
    case 'email': {
      const s = raw.trim().toLowerCase();
      if (!EMAIL_RE.test(s)) return null;
      const host = normalizeHost(s.slice(s.lastIndexOf('@') + 1));
      if (!host) return null;
      const value = `${s.slice(0, s.lastIndexOf('@'))}@${host}`;
      return { value, display: value, attributes: { domain: host } };
    }
    case 'phone':
      return normalizePhone(raw, attributes);
    case 'bank_account':
      return normalizeBankAccount(raw);
    case 'person':
    case 'organization': {
      const display = collapse(raw);
      if (!display || display.length > 300) return null;
      return { value: display.toLowerCase(), display, attributes: {} };
    }
    case 'social_handle':
      return normalizeSocialHandle(raw, attributes);
  }
}
