// Host-name resolution for the crawler's egress check (domain/investigations/egress-policy.ts):
// every address of a host (A and AAAA, via the OS resolver like Chromium would), with a small TTL
// cache so a page with hundreds of subrequests to one host does not resolve it hundreds of times.
// `pinnedLookup` lets Node connect to exactly the addresses that were checked (DNS rebinding).
import dns from 'node:dns/promises';
import type { LookupFunction } from 'node:net';

export interface DnsResolverOptions {
  /** How long an answer is reused; default 30 s. Failures are not cached. */
  ttlMs?: number;
  /** Most host names kept; the oldest is dropped first. Default 1000. */
  maxEntries?: number;
  /** The lookup to use (tests pass a fake); default dns.lookup with all: true. */
  lookup?: (host: string) => Promise<string[]>;
  now?: () => number;
}

export type ResolveHost = (host: string) => Promise<string[]>;

const systemLookup = async (host: string): Promise<string[]> => {
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  return [...new Set(answers.map((a) => a.address))];
};

/** A resolver with a TTL cache; concurrent lookups of one host share one query. */
export function createDnsResolver(options: DnsResolverOptions = {}): ResolveHost {
  const ttl = options.ttlMs ?? 30_000;
  const max = options.maxEntries ?? 1000;
  const lookup = options.lookup ?? systemLookup;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { at: number; answer: Promise<string[]> }>();
  return (rawHost: string) => {
    const host = rawHost.toLowerCase().replace(/\.$/, '');
    const hit = cache.get(host);
    if (hit && now() - hit.at < ttl) return hit.answer;
    const answer = lookup(host);
    cache.delete(host);
    cache.set(host, { at: now(), answer });
    while (cache.size > max) cache.delete(cache.keys().next().value as string);
    answer.catch(() => {
      if (cache.get(host)?.answer === answer) cache.delete(host);
    });
    return answer;
  };
}

/**
 * A `lookup` for net/tls/http(s) agents that answers only the addresses checkUrl approved, so a
 * request made from Node connects to the checked address and never re-resolves the name.
 */
export function pinnedLookup(addresses: string[]): LookupFunction {
  if (addresses.length === 0) throw new Error('pinnedLookup needs at least one address');
  const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return ((_host: string, opts: unknown, callback: (...args: unknown[]) => void) => {
    const cb = typeof opts === 'function' ? (opts as typeof callback) : callback;
    const o = (typeof opts === 'object' && opts !== null ? opts : {}) as { all?: boolean; family?: number | string };
    const family = o.family === 'IPv4' ? 4 : o.family === 'IPv6' ? 6 : Number(o.family ?? 0);
    const usable = family === 4 || family === 6 ? entries.filter((e) => e.family === family) : entries;
    if (usable.length === 0) {
      const err = Object.assign(new Error(`no checked address of family ${family}`), { code: 'ENOTFOUND' });
      cb(err);
      return;
    }
    if (o.all) cb(null, usable);
    else cb(null, usable[0].address, usable[0].family);
  }) as LookupFunction;
}
