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

interface Cidr { v6: boolean; base: bigint; mask: bigint }

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

function parseCidr(entry: string): Cidr | null {
  const [ip = '', len] = entry.split('/');
  const parsed = ipToBigInt(ip);
  if (!parsed) return null;
  const bits = parsed.v6 ? 128 : 32;
  const prefix = len === undefined ? bits : Number(len);
  const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
  return { v6: parsed.v6, base: parsed.value & mask, mask };
}

interface CompiledList extends WarningMatch { cidrs: Cidr[]; hosts: Set<string>; substrings: string[] }

let compiled: CompiledList[] | null = null;

function lists(): CompiledList[] {
  if (compiled) return compiled;
  const source = (subset as { source: string }).source;
  compiled = (subset as { lists: Array<{ id: string; category: string; type: string; entries: string[] }> }).lists.map((l) => ({
    list: l.id,
    category: l.category as WarningCategory,
    source,
    cidrs: l.type === 'cidr' ? l.entries.map(parseCidr).filter((c): c is Cidr => c !== null) : [],
    hosts: l.type === 'hostname' || l.type === 'string' ? new Set(l.entries.map((e) => e.replace(/^\.|\.$/g, ''))) : new Set(),
    substrings: l.type === 'substring' ? l.entries : [],
  }));
  compiled.push({ list: 'public-mail', category: 'public_mail', source: 'the platform’s list of public mail providers', cidrs: [], hosts: new Set(PUBLIC_MAIL), substrings: [] });
  return compiled;
}

/** The warning list an IP address is on (CDN, hosting, loopback, private), or null. */
export function warnIp(ip: string): WarningMatch | null {
  const parsed = ipToBigInt(ip.replace(/^\[|\]$/g, ''));
  if (!parsed) return null;
  for (const l of lists()) {
    for (const c of l.cidrs) if (c.v6 === parsed.v6 && (parsed.value & c.mask) === c.base) return { list: l.list, category: l.category, source: l.source };
  }
  return null;
}

/** The warning list a host name (or a mail address's domain) is on, matching parent domains too. */
export function warnHost(host: string): WarningMatch | null {
  const name = host.toLowerCase().replace(/\.$/, '').split('@').at(-1)!;
  if (isIP(name)) return warnIp(name);
  const labels = name.split('.');
  for (const l of lists()) {
    for (let i = 0; i < labels.length - 1; i++) {
      const suffix = labels.slice(i).join('.');
      if (l.hosts.has(suffix) || l.substrings.includes(suffix)) return { list: l.list, category: l.category, source: l.source };
    }
  }
  return null;
}
