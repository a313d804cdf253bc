// Crawler egress policy (pure): which addresses and URLs the investigation browser may reach.
//
// The browser never reaches loopback, private, link-local, CGNAT, multicast, unique-local IPv6,
// IPv4-mapped/compatible IPv6 or other non-public addresses, unless SVC_SSI__ALLOW_PRIVATE_TARGETS
// allows exactly that host, host:port or CIDR (tests allow their 127.0.0.1 fixture server only).
//
// Addresses are parsed to bytes (IPv4: 4, IPv6: 16) and classified by prefix. IPv6 forms that embed
// an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, IPv4-translated
// ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are checked through the embedded address.
//
// DNS rebinding: checkUrl resolves the host ONCE and answers the addresses it checked. The caller
// must connect to one of those addresses, not resolve the name again. Two ways to do that with
// Playwright (infra/crawler/dns-resolver.ts `pinnedLookup` helps with the first):
//  1. context.route('**/*'): run checkUrl for every request, abort the blocked ones (record them),
//     and fetch the allowed ones from Node with a `lookup` pinned to the checked addresses, then
//     route.fulfill(...) with the answer. Chromium then never resolves or connects by itself.
//  2. Launch (or start a per-scan browser) with `--host-resolver-rules="MAP host addr, ..."` built
//     from checkUrl's answer so Chromium's own resolver returns the checked address; each new host
//     (redirect, subrequest) must be checked before it is mapped, which needs a browser restart or a
//     proxy, so (1) is the recommended approach.
// Either way: block service workers (`serviceWorkers: 'block'` on the context) so requests cannot
// bypass context.route, and route WebSockets through context.routeWebSocket with the same check.
import net from 'node:net';

export type EgressCategory =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'unique-local'
  | 'ipv4-mapped'
  | 'unspecified'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'public';

export interface AddressClassification {
  blocked: boolean;
  category: EgressCategory;
  /** Canonical spelling of the address (lower-case, compressed IPv6; dotted-quad IPv4). */
  address: string;
  version: 4 | 6;
  /** For IPv6 forms that embed an IPv4 address: that address, how it is embedded, and its category. */
  embedded?: { address: string; via: 'ipv4-mapped' | 'ipv4-compatible' | 'ipv4-translated' | 'nat64' | '6to4'; category: EgressCategory };
  /** Short human explanation (e.g. "127.0.0.0/8 loopback"). */
  detail: string;
}

export class InvalidAddressError extends Error {
  override name = 'InvalidAddressError';
}

interface ParsedIp {
  version: 4 | 6;
  bytes: Uint8Array;
}

/** Parses an IP literal (IPv4 in any WHATWG spelling, IPv6 with or without brackets / zone id). */
export function parseIp(input: string): ParsedIp | null {
  let s = input.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0 && s.includes(':')) s = s.slice(0, zone);
  if (net.isIPv4(s)) return { version: 4, bytes: Uint8Array.from(s.split('.').map(Number)) };
  if (net.isIPv6(s)) return { version: 6, bytes: parseIpv6(s) };
  // Odd IPv4 spellings (127.1, 0x7f.0.0.1, 2130706433, 0177.0.0.1): let the WHATWG URL host parser
  // normalize them exactly as the browser will, then accept only if the result is an IPv4 literal.
  if (/^[0-9a-fA-FxX.]+$/.test(s)) {
    try {
      const host = new URL(`http://${s}/`).hostname;
      if (net.isIPv4(host)) return { version: 4, bytes: Uint8Array.from(host.split('.').map(Number)) };
    } catch {
      return null;
    }
  }
  return null;
}

function parseIpv6(s: string): Uint8Array {
  let text = s;
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) becomes two 16-bit hex groups.
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = last.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const groupsOf = (t: string) => (t === '' ? [] : t.split(':').map((g) => parseInt(g, 16)));
  let groups: number[];
  if (text.includes('::')) {
    const [head, tail] = text.split('::');
    const h = groupsOf(head);
    const t = groupsOf(tail);
    groups = [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  } else {
    groups = groupsOf(text);
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}

export function formatIp(ip: ParsedIp): string {
  if (ip.version === 4) return Array.from(ip.bytes).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i] << 8) | ip.bytes[i + 1]).toString(16));
  // Compress the longest run of two or more zero groups.
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j += 1;
    if (j - i > bestLen && j - i >= 2) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

function inPrefix(bytes: Uint8Array, prefix: ArrayLike<number>, bits: number): boolean {
  const full = Math.floor(bits / 8);
  for (let i = 0; i < full; i += 1) if (bytes[i] !== prefix[i]) return false;
  const rem = bits % 8;
  if (rem === 0) return true;
  const mask = (0xff << (8 - rem)) & 0xff;
  return (bytes[full] & mask) === ((prefix[full] ?? 0) & mask);
}

type V4Rule = [prefix: number[], bits: number, category: EgressCategory, detail: string];
const V4_RULES: V4Rule[] = [
  [[255, 255, 255, 255], 32, 'broadcast', '255.255.255.255 limited broadcast'],
  [[0, 0, 0, 0], 32, 'unspecified', '0.0.0.0 unspecified'],
  [[0], 8, 'unspecified', '0.0.0.0/8 "this network"'],
  [[10], 8, 'private', '10.0.0.0/8 private'],
  [[100, 64], 10, 'cgnat', '100.64.0.0/10 carrier-grade NAT'],
  [[127], 8, 'loopback', '127.0.0.0/8 loopback'],
  [[169, 254], 16, 'link-local', '169.254.0.0/16 link-local (includes cloud metadata 169.254.169.254)'],
  [[172, 16], 12, 'private', '172.16.0.0/12 private'],
  [[192, 0, 0], 24, 'reserved', '192.0.0.0/24 IETF protocol assignments'],
  [[192, 0, 2], 24, 'documentation', '192.0.2.0/24 documentation (TEST-NET-1)'],
  [[192, 88, 99], 24, 'reserved', '192.88.99.0/24 6to4 relay anycast'],
  [[192, 168], 16, 'private', '192.168.0.0/16 private'],
  [[198, 18], 15, 'reserved', '198.18.0.0/15 benchmarking'],
  [[198, 51, 100], 24, 'documentation', '198.51.100.0/24 documentation (TEST-NET-2)'],
  [[203, 0, 113], 24, 'documentation', '203.0.113.0/24 documentation (TEST-NET-3)'],
  [[224], 4, 'multicast', '224.0.0.0/4 multicast'],
  [[240], 4, 'reserved', '240.0.0.0/4 reserved'],
];

function classifyV4(bytes: Uint8Array): { category: EgressCategory; detail: string } {
  for (const [prefix, bits, category, detail] of V4_RULES) {
    if (inPrefix(bytes, prefix, bits)) return { category, detail };
  }
  return { category: 'public', detail: 'public IPv4' };
}

const hex = (s: string): number[] => {
  // '20010db8' -> [0x20, 0x01, 0x0d, 0xb8]
  const out: number[] = [];
  for (let i = 0; i < s.length; i += 2) out.push(parseInt(s.slice(i, i + 2), 16));
  return out;
};

type V6Rule = [prefix: number[], bits: number, category: EgressCategory, detail: string];
const V6_RULES: V6Rule[] = [
  [hex('0064ff9b0001'), 48, 'reserved', '64:ff9b:1::/48 local-use NAT64'],
  [hex('0100000000000000'), 64, 'reserved', '100::/64 discard-only'],
  [hex('20010db8'), 32, 'documentation', '2001:db8::/32 documentation'],
  [hex('3fff'), 20, 'documentation', '3fff::/20 documentation'],
  [hex('20010000'), 32, 'reserved', '2001::/32 Teredo (embedded client address is obfuscated)'],
  [hex('20010002'), 48, 'reserved', '2001:2::/48 benchmarking'],
  [hex('20010010'), 28, 'reserved', '2001:10::/28 ORCHID'],
  [hex('20010020'), 28, 'reserved', '2001:20::/28 ORCHIDv2'],
  [hex('5f00'), 16, 'reserved', '5f00::/16 SRv6 SIDs'],
  [hex('fc'), 7, 'unique-local', 'fc00::/7 unique local'],
  [hex('fe80'), 10, 'link-local', 'fe80::/10 link-local'],
  [hex('fec0'), 10, 'private', 'fec0::/10 site-local (deprecated)'],
  [hex('ff'), 8, 'multicast', 'ff00::/8 multicast'],
];

function embeddedV4(bytes: Uint8Array, offset: number): Uint8Array {
  return bytes.slice(offset, offset + 4);
}

/**
 * Classifies an IP address. Accepts any IPv4 spelling the WHATWG URL parser accepts (127.1,
 * 0x7f.0.0.1, 2130706433), IPv6 with or without brackets and zone id. Throws InvalidAddressError for
 * anything that is not an IP address (a host name must be resolved first).
 */
export function classifyAddress(ip: string): AddressClassification {
  const parsed = parseIp(ip);
  if (!parsed) throw new InvalidAddressError(`not an IP address: ${JSON.stringify(ip)}`);
  const address = formatIp(parsed);
  const { bytes } = parsed;
  if (parsed.version === 4) {
    const { category, detail } = classifyV4(bytes);
    return { blocked: category !== 'public', category, address, version: 4, detail };
  }
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const v6 = (category: EgressCategory, detail: string, embedded?: AddressClassification['embedded']): AddressClassification => ({
    blocked: category !== 'public',
    category,
    address,
    version: 6,
    detail,
    ...(embedded ? { embedded } : {}),
  });
  if (zero(0, 16)) return v6('unspecified', ':: unspecified');
  if (zero(0, 15) && bytes[15] === 1) return v6('loopback', '::1 loopback');
  const embed = (via: NonNullable<AddressClassification['embedded']>['via'], offset: number) => {
    const inner = embeddedV4(bytes, offset);
    return { address: formatIp({ version: 4, bytes: inner }), via, category: classifyV4(inner).category };
  };
  // IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96, deprecated) and IPv4-translated
  // (::ffff:0:0:0/96): always blocked. Chromium and the OS route these to the IPv4 address, and
  // there is no reason for a public site to hand them out.
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    const e = embed('ipv4-mapped', 12);
    return v6('ipv4-mapped', `::ffff:0:0/96 IPv4-mapped (${e.address}, ${e.category})`, e);
  }
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) {
    const e = embed('ipv4-translated', 12);
    return v6('ipv4-mapped', `::ffff:0:0:0/96 IPv4-translated (${e.address}, ${e.category})`, e);
  }
  if (zero(0, 12)) {
    const e = embed('ipv4-compatible', 12);
    return v6('ipv4-mapped', `::/96 IPv4-compatible (${e.address}, ${e.category})`, e);
  }
  // NAT64 well-known prefix (64:ff9b::/96) and 6to4 (2002::/16): the IPv4 address they lead to decides.
  if (inPrefix(bytes, hex('0064ff9b0000000000000000'), 96)) {
    const e = embed('nat64', 12);
    return e.category === 'public'
      ? v6('public', `64:ff9b::/96 NAT64 of public ${e.address}`, e)
      : v6(e.category, `64:ff9b::/96 NAT64 of ${e.address} (${e.category})`, e);
  }
  if (inPrefix(bytes, hex('2002'), 16)) {
    const e = embed('6to4', 2);
    return e.category === 'public'
      ? v6('public', `2002::/16 6to4 of public ${e.address}`, e)
      : v6(e.category, `2002::/16 6to4 of ${e.address} (${e.category})`, e);
  }
  for (const [prefix, bits, category, detail] of V6_RULES) {
    if (inPrefix(bytes, prefix, bits)) return v6(category, detail);
  }
  // Only 2000::/3 is allocated global unicast; everything else is reserved.
  if ((bytes[0] & 0xe0) !== 0x20) return v6('reserved', 'outside 2000::/3 global unicast');
  return v6('public', 'public IPv6');
}

// ---------------------------------------------------------------------------------------------
// Allow-list: SVC_SSI__ALLOW_PRIVATE_TARGETS

export type AllowEntry =
  | { kind: 'host'; host: string; port?: number; text: string }
  | { kind: 'cidr'; version: 4 | 6; network: number[]; bits: number; text: string };

export interface AllowList {
  entries: AllowEntry[];
}

export const EMPTY_ALLOW_LIST: AllowList = Object.freeze({ entries: [] }) as AllowList;

export class AllowListError extends Error {
  override name = 'AllowListError';
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;

function normalizeHost(host: string): string | null {
  const ip = parseIp(host);
  if (ip) return formatIp(ip);
  const lower = host.toLowerCase().replace(/\.$/, '');
  return HOSTNAME.test(lower) ? lower : null;
}

/**
 * Parses SVC_SSI__ALLOW_PRIVATE_TARGETS: comma-separated entries, each one of
 *  - `host`       a host name or IP address: URLs with that host (any port) are allowed, and if it is
 *                 an IP address, a host name resolving to it is allowed too;
 *  - `host:port`  the same, for that port only (IPv6 as `[::1]:8080`);
 *  - CIDR         `127.0.0.1/32`, `fd00::/8`: any resolved address inside is allowed (any port).
 * Throws AllowListError naming the bad entry.
 */
export function parseAllowList(value: string | undefined): AllowList {
  const entries: AllowEntry[] = [];
  const parts = (value ?? '').split(',').map((p) => p.trim());
  parts.forEach((text, index) => {
    if (text === '') return;
    const bad = (why: string): never => {
      throw new AllowListError(`entry ${index + 1} ${JSON.stringify(text)}: ${why}`);
    };
    if (text.includes('://')) bad('write the host (and port), not a URL');
    if (text.includes('/')) {
      const [addr, bitsText, ...extra] = text.split('/');
      if (extra.length || !/^\d{1,3}$/.test(bitsText)) bad('a CIDR needs one prefix length, e.g. 10.0.0.0/8 or fd00::/8');
      const ip = net.isIP(addr) ? parseIp(addr) : null;
      if (!ip) bad('a CIDR must start with a plain IPv4 or IPv6 address');
      const max = ip!.version === 4 ? 32 : 128;
      const bits = Number(bitsText);
      if (bits > max) bad(`prefix length must be 0-${max}`);
      entries.push({ kind: 'cidr', version: ip!.version, network: Array.from(ip!.bytes), bits, text });
      return;
    }
    let host = text;
    let port: number | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
    if (bracketed) {
      host = bracketed[1];
      if (!net.isIPv6(host)) bad('brackets are only for IPv6 addresses');
      if (bracketed[2] !== undefined) port = Number(bracketed[2]);
    } else if (net.isIPv6(text)) {
      host = text;
    } else if (text.includes(':')) {
      const i = text.lastIndexOf(':');
      host = text.slice(0, i);
      const p = text.slice(i + 1);
      if (!/^\d{1,5}$/.test(p)) bad('the port after ":" must be a number (write IPv6 with a port as [::1]:8080)');
      port = Number(p);
    }
    if (port !== undefined && (port < 1 || port > 65535)) bad('port must be 1-65535');
    const normalized = normalizeHost(host);
    if (!normalized) bad('not a host name, IP address, host:port or CIDR');
    entries.push({ kind: 'host', host: normalized!, ...(port !== undefined ? { port } : {}), text });
  });
  return { entries };
}

function hostEntryAllows(allow: AllowList, hostOrAddress: string, port: number): AllowEntry | undefined {
  return allow.entries.find((e) => e.kind === 'host' && e.host === hostOrAddress && (e.port === undefined || e.port === port));
}

/** Is this address (already canonical) allowed on this port by an IP `host`, `host:port` or CIDR entry? */
export function addressAllowed(allow: AllowList, address: string, port: number): boolean {
  const ip = parseIp(address);
  if (!ip) return false;
  const canonical = formatIp(ip);
  if (hostEntryAllows(allow, canonical, port)) return true;
  return allow.entries.some((e) => e.kind === 'cidr' && e.version === ip.version && inPrefix(ip.bytes, e.network, e.bits));
}

// ---------------------------------------------------------------------------------------------
// URL check

export type UrlRejectCategory = EgressCategory | 'scheme' | 'credentials' | 'invalid-url' | 'unresolved';

export type UrlCheck =
  | { allowed: true; url: string; host: string; port: number; addresses: string[]; allowedBy?: string }
  | { allowed: false; reason: string; category: UrlRejectCategory; address?: string };

export interface CheckUrlOptions {
  allow: AllowList;
  /** Resolves a host name to every address (A and AAAA). infra/crawler/dns-resolver.ts provides one. */
  resolve: (host: string) => Promise<string[]>;
  /** Also accept ws: and wss: (for WebSocket routing). Default true. */
  webSockets?: boolean;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

/**
 * Decides whether the crawler may request `url`. Only http(s) (and ws(s) for WebSockets); URLs
 * carrying credentials (user:pass@) are refused: the crawler never sends credentials, and they are a
 * classic way to disguise the real host. The host is resolved once and the request is refused if
 * ANY resolved address is blocked and not allowed; the caller must connect to one of the returned
 * `addresses` (see the DNS-rebinding note at the top of this file).
 */
export async function checkUrl(url: string, opts: CheckUrlOptions): Promise<UrlCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { allowed: false, reason: 'not a valid absolute URL', category: 'invalid-url' };
  }
  const schemes = opts.webSockets === false ? ['http:', 'https:'] : ['http:', 'https:', 'ws:', 'wss:'];
  if (!schemes.includes(parsed.protocol)) {
    return { allowed: false, reason: `scheme ${parsed.protocol} is not crawled (only ${schemes.join(', ')})`, category: 'scheme' };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { allowed: false, reason: 'URLs with credentials (user:password@) are not crawled', category: 'credentials' };
  }
  const rawHost = parsed.hostname;
  const host = rawHost.startsWith('[') ? rawHost.slice(1, -1) : rawHost;
  if (host === '') return { allowed: false, reason: 'the URL has no host', category: 'invalid-url' };
  const port = parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol];
  const literal = net.isIP(host) ? parseIp(host) : null;
  const hostKey = literal ? formatIp(literal) : host.toLowerCase().replace(/\.$/, '');

  let addresses: string[];
  if (literal) {
    addresses = [hostKey];
  } else {
    try {
      addresses = await opts.resolve(host);
    } catch (err) {
      const code = (err as { code?: string }).code;
      return { allowed: false, reason: `could not resolve ${host}${code ? ` (${code})` : ''}`, category: 'unresolved' };
    }
    if (addresses.length === 0) return { allowed: false, reason: `${host} has no addresses`, category: 'unresolved' };
  }

  const byHost = !literal ? hostEntryAllows(opts.allow, hostKey, port) : undefined;
  if (byHost) return { allowed: true, url: parsed.href, host: hostKey, port, addresses, allowedBy: byHost.text };

  let allowedBy: string | undefined;
  const canonical: string[] = [];
  for (const a of addresses) {
    let c: AddressClassification;
    try {
      c = classifyAddress(a);
    } catch {
      return { allowed: false, reason: `${host} resolved to something that is not an IP address`, category: 'unresolved' };
    }
    canonical.push(c.address);
    if (!c.blocked) continue;
    if (addressAllowed(opts.allow, c.address, port)) {
      allowedBy = 'SVC_SSI__ALLOW_PRIVATE_TARGETS';
      continue;
    }
    const via = literal ? '' : `${host} resolves to `;
    return {
      allowed: false,
      reason: `${via}${c.address}: ${c.detail}; not reachable by the crawler`,
      category: c.category,
      address: c.address,
    };
  }
  return { allowed: true, url: parsed.href, host: hostKey, port, addresses: canonical, ...(allowedBy ? { allowedBy } : {}) };
}
