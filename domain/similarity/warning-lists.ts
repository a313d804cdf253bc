// Shared infrastructure is not a link: two sites behind one CDN edge, one hosting range, one URL
// shortener, one parking name server, one public mail provider or loopback share nothing of their
// operators'. The pinned subset of the MISP warninglists (warninglists/misp-subset.json, refreshed by
// scripts/refresh-warninglists.ts) and a short list of public mail providers kept here recognise
// them; a match turns a shared value into a reason with no weight.
import { isIP } from 'node:net';
import subset from './warninglists/misp-subset.json';

export type WarningCategory = 'cdn' | 'hosting' | 'parking' | 'url_shortener' | 'loopback_or_reserved' | 'private_range' | 'public_mail';

export interface WarningMatch {
  list: string;
  category: WarningCategory;
  /** Where the list comes from, for the reason's text. */
  source: string;
}

/** Webmail providers anyone can open a mailbox at (the MISP lists have disposable mail only). */
const PUBLIC_MAIL = [
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com', 'ymail.com', 'aol.com', 'icloud.com', 'me.com',
  'proton.me', 'protonmail.com', 'pm.me', 'gmx.com', 'gmx.net', 'gmx.de', 'web.de', 'mail.com', 'mail.ru', 'yandex.ru', 'yandex.com', 'zoho.com',
  'qq.com', '163.com', '126.com', 'tutanota.com', 'tuta.io',
];

function ipToBigInt(ip: string): { v6: boolean; value: bigint } | null {
  const kind = isIP(ip);
  if (kind === 4) return { v6: false, value: ip.split('.').reduce((n, o) => (n << 8n) + BigInt(Number(o)), 0n) };
  if (kind !== 6) return null;
  const [head = '', tail] = ip.split('::');
  const parse = (s: string) => (s ? s.split(':') : []).flatMap((g) => (g.includes('.') ? (() => { const v = ipToBigInt(g)!.value; return [Number(v >> 16n).toString(16), Number(v & 0xffffn).toString(16)]; })() : [g]));
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return { v6: true, value: groups.reduce((n, g) => (n << 16n) + BigInt(parseInt(g || '0', 16)), 0n) };
}

interface CompiledList extends WarningMatch { hosts: Set<string> }

/**
 * The CIDR entries by address family and prefix length: `network -> list`, so an address is looked
 * up once per prefix length in use (a few dozen lookups, not one test per range).
 */
interface CidrIndex { v4: Map<number, Map<string, WarningMatch>>; v6: Map<number, Map<string, WarningMatch>> }

let compiled: { lists: CompiledList[]; cidrs: CidrIndex } | null = null;

const maskOf = (bits: number, prefix: number) => (prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix));

function compile(): { lists: CompiledList[]; cidrs: CidrIndex } {
  if (compiled) return compiled;
  const source = (subset as { source: string }).source;
  const cidrs: CidrIndex = { v4: new Map(), v6: new Map() };
  const lists: CompiledList[] = [];
  for (const l of (subset as { lists: Array<{ id: string; category: string; type: string; entries: string[] }> }).lists) {
    const match: WarningMatch = { list: l.id, category: l.category as WarningCategory, source };
    if (l.type === 'cidr') {
      for (const entry of l.entries) {
        const [ip = '', len] = entry.split('/');
        const parsed = ipToBigInt(ip);
        if (!parsed) continue;
        const bits = parsed.v6 ? 128 : 32;
        const prefix = len === undefined ? bits : Number(len);
        const byLen = parsed.v6 ? cidrs.v6 : cidrs.v4;
        const nets = byLen.get(prefix) ?? byLen.set(prefix, new Map()).get(prefix)!;
        const key = (parsed.value & maskOf(bits, prefix)).toString(16);
        if (!nets.has(key)) nets.set(key, match);
      }
    }
    lists.push({
      ...match,
      // The substring lists kept (disposable mail) hold domains: matched as the domain or a parent.
      hosts: l.type === 'cidr' ? new Set() : new Set(l.entries.map((e) => e.replace(/^\.|\.$/g, ''))),
    });
  }
  lists.push({ list: 'public-mail', category: 'public_mail', source: 'the platform’s list of public mail providers', hosts: new Set(PUBLIC_MAIL) });
  // The longest prefixes first: the most specific list names the address.
  for (const family of [cidrs.v4, cidrs.v6]) {
    const sorted = [...family.entries()].sort((a, b) => b[0] - a[0]);
    family.clear();
    for (const [k, v] of sorted) family.set(k, v);
  }
  compiled = { lists, cidrs };
  return compiled;
}

/** The warning list an IP address is on (CDN, hosting, loopback, private), or null. */
export function warnIp(ip: string): WarningMatch | null {
  const parsed = ipToBigInt(ip.replace(/^\[|\]$/g, ''));
  if (!parsed) return null;
  const bits = parsed.v6 ? 128 : 32;
  for (const [prefix, nets] of parsed.v6 ? compile().cidrs.v6 : compile().cidrs.v4) {
    const hit = nets.get((parsed.value & maskOf(bits, prefix)).toString(16));
    if (hit) return hit;
  }
  return null;
}

/** The warning list a host name (or a mail address's domain) is on, matching parent domains too. */
export function warnHost(host: string): WarningMatch | null {
  const name = host.toLowerCase().replace(/\.$/, '').split('@').at(-1)!;
  if (isIP(name)) return warnIp(name);
  const labels = name.split('.');
  for (const l of compile().lists) {
    for (let i = 0; i < labels.length - 1; i++) {
      const suffix = labels.slice(i).join('.');
      if (l.hosts.has(suffix)) return { list: l.list, category: l.category, source: l.source };
    }
  }
  return null;
}
