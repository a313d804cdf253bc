// RDAP (RFC 9082/9083) for takedowns, pure: which server answers for a domain or an address (the
// IANA bootstrap registries, RFC 9224), the query URL, and who to tell from an answer: the
// registrar (a domain's entity with role `registrar`) or the network holder (an IP network's
// `registrant`), and their abuse contacts (entities with role `abuse`, nested or not, and the
// e-mail of their vCard).
import net from 'node:net';
import { parseIp } from '../investigations/egress-policy';

/** One IANA bootstrap file: `services` pairs entries (TLDs or CIDRs) with RDAP base URLs. */
export interface IanaBootstrapFile {
  version: string;
  publication: string;
  description?: string;
  services: Array<[string[], string[]]>;
}

export interface RdapBootstrap {
  note?: string;
  fetched_from: string;
  fetched_at: string;
  dns: IanaBootstrapFile;
  ipv4: IanaBootstrapFile;
  ipv6: IanaBootstrapFile;
}

export type RdapQuery = { kind: 'domain'; name: string } | { kind: 'ip'; address: string };

/** A site's host as an RDAP query: an IP literal is an `ip` query, a name its registrable part's `domain` query. */
export function rdapQueryOfHost(host: string): RdapQuery {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  if (net.isIP(h)) return { kind: 'ip', address: h };
  return { kind: 'domain', name: registrableDomain(h) };
}

/**
 * The name a registry knows: the last two labels (three under a two-letter second-level label such
 * as `co.uk`). Without the public suffix list this is a heuristic; registries answer for the
 * registered name, and a sub-domain is refused by most.
 */
export function registrableDomain(host: string): string {
  const labels = host.split('.').filter(Boolean);
  if (labels.length <= 2) return labels.join('.');
  const second = labels[labels.length - 2];
  const take = /^(co|com|net|org|gov|edu|ac)$/.test(second) && labels[labels.length - 1].length === 2 ? 3 : 2;
  return labels.slice(-take).join('.');
}

export function cacheKey(q: RdapQuery): string {
  return q.kind === 'domain' ? `domain:${q.name}` : `ip:${q.address}`;
}

function prefixBits(bytes: Uint8Array, bits: number): string {
  let out = '';
  for (let i = 0; i < bits; i++) out += (bytes[i >> 3] >> (7 - (i & 7))) & 1;
  return out;
}

/** The RDAP base URL for the query from the bootstrap (the longest matching TLD or prefix), or null. */
export function rdapServerFor(bootstrap: RdapBootstrap, q: RdapQuery): string | null {
  if (q.kind === 'domain') {
    const labels = q.name.toLowerCase().split('.');
    for (let i = 0; i < labels.length; i++) {
      const suffix = labels.slice(i).join('.');
      const hit = bootstrap.dns.services.find(([entries]) => entries.includes(suffix));
      if (hit) return hit[1].find((u) => u.startsWith('https:')) ?? hit[1][0] ?? null;
    }
    return null;
  }
  const ip = parseIp(q.address);
  if (!ip) return null;
  const file = ip.version === 4 ? bootstrap.ipv4 : bootstrap.ipv6;
  let best: { len: number; url: string } | null = null;
  for (const [cidrs, urls] of file.services) {
    for (const cidr of cidrs) {
      const [base, lenText] = cidr.split('/');
      const parsed = parseIp(base);
      const len = Number(lenText);
      if (!parsed || parsed.version !== ip.version || !Number.isInteger(len)) continue;
      if (prefixBits(parsed.bytes, len) === prefixBits(ip.bytes, len) && (!best || len > best.len)) best = { len, url: urls.find((u) => u.startsWith('https:')) ?? urls[0] };
    }
  }
  return best?.url ?? null;
}

/** The query URL under a base URL (which ends in `/` or gets one). */
export function rdapQueryUrl(base: string, q: RdapQuery): string {
  const b = base.endsWith('/') ? base : `${base}/`;
  return q.kind === 'domain' ? `${b}domain/${encodeURIComponent(q.name)}` : `${b}ip/${encodeURIComponent(q.address)}`;
}

interface RdapEntity {
  roles?: string[];
  vcardArray?: [string, Array<[string, Record<string, unknown>, string, unknown]>];
  entities?: RdapEntity[];
  handle?: string;
}

export interface RdapAnswer {
  objectClassName?: string;
  name?: string;
  handle?: string;
  entities?: RdapEntity[];
}

function vcard(e: RdapEntity, field: string): string[] {
  const props = Array.isArray(e.vcardArray?.[1]) ? e.vcardArray[1] : [];
  return props.filter((p) => Array.isArray(p) && p[0] === field && typeof p[3] === 'string').map((p) => String(p[3]).trim()).filter(Boolean);
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

function abuseEmails(entities: readonly RdapEntity[] | undefined): string[] {
  const out: string[] = [];
  for (const e of entities ?? []) {
    if (e.roles?.includes('abuse')) out.push(...vcard(e, 'email').map((m) => m.replace(/^mailto:/i, '').toLowerCase()).filter((m) => EMAIL.test(m)));
    out.push(...abuseEmails(e.entities));
  }
  return [...new Set(out)];
}

export interface AbuseParty {
  /** `registrar` for a domain's registrar; `hosting` for the network holder of an address. */
  role: 'registrar' | 'hosting';
  organization: string | null;
  emails: string[];
}

/** Who answers for abuse in an RDAP answer: the registrar of a domain, the holder of an IP network. */
export function abusePartiesOf(q: RdapQuery, answer: RdapAnswer): AbuseParty[] {
  if (q.kind === 'domain') {
    const registrars = (answer.entities ?? []).filter((e) => e.roles?.includes('registrar'));
    const parties: AbuseParty[] = registrars.map((r) => ({ role: 'registrar', organization: vcard(r, 'fn')[0] ?? r.handle ?? null, emails: abuseEmails(r.entities) }));
    // Some registries put the registrar's abuse entity beside it, not inside it.
    const loose = abuseEmails((answer.entities ?? []).filter((e) => !e.roles?.includes('registrar') && e.roles?.includes('abuse')));
    if (parties.length === 0 && loose.length) parties.push({ role: 'registrar', organization: null, emails: loose });
    else if (parties.length && loose.length) parties[0].emails = [...new Set([...parties[0].emails, ...loose])];
    return parties;
  }
  const holder = (answer.entities ?? []).find((e) => e.roles?.includes('registrant'));
  const organization = (holder && vcard(holder, 'fn')[0]) ?? answer.name ?? null;
  return [{ role: 'hosting', organization, emails: abuseEmails(answer.entities) }];
}
