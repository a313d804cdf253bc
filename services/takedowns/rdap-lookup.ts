// RDAP look-ups for takedowns: the server from the pinned IANA bootstrap (or the one
// SVC_TAKEDOWN__RDAP_BASE_URL names), reached through the egress policy (private addresses only
// through SVC_TAKEDOWN__ALLOW_PRIVATE_TARGETS) on the checked address, answers cached in
// `rdap_cache` for SVC_TAKEDOWN__RDAP_CACHE_HOURS. RDAP follows no redirects here: registries
// answer directly, and a redirect would need a second egress check.
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { readRdapCache, writeRdapCache } from '../../db/repositories/takedowns/takedown-repository';
import { checkUrl } from '../../domain/investigations/egress-policy';
import bootstrap from '../../domain/takedowns/rdap-bootstrap.json';
import { abusePartiesOf, cacheKey, rdapQueryUrl, rdapServerFor, type AbuseParty, type RdapAnswer, type RdapBootstrap, type RdapQuery } from '../../domain/takedowns/rdap';
import { createDnsResolver } from '../../infra/crawler/dns-resolver';
import { pinnedRequest } from '../../infra/crawler/pinned-http';

export interface RdapResult {
  query: RdapQuery;
  server: string | null;
  parties: AbuseParty[];
  fetchedAt: Date | null;
  /** Why nothing was learned (no server, refused by the egress policy, an error answer). */
  problem: string | null;
}

const resolve = createDnsResolver();

export async function rdapLookup(deps: { knex: Knex; config: AppConfig }, query: RdapQuery): Promise<RdapResult> {
  const settings = deps.config.takedown;
  const key = cacheKey(query);
  const cached = await readRdapCache(deps.knex, key, settings.rdap_cache_hours);
  if (cached) return { query, server: cached.server, parties: abusePartiesOf(query, cached.answer as RdapAnswer), fetchedAt: cached.fetched_at, problem: null };
  const server = settings.rdap_base_url ?? rdapServerFor(bootstrap as RdapBootstrap, query);
  if (!server) return { query, server: null, parties: [], fetchedAt: null, problem: `the RDAP bootstrap names no server for ${key}` };
  const url = rdapQueryUrl(server, query);
  const verdict = await checkUrl(url, { allow: settings.allow_private_targets, resolve, webSockets: false });
  if (!verdict.allowed) return { query, server, parties: [], fetchedAt: null, problem: `egress policy: ${verdict.reason}` };
  try {
    const res = await pinnedRequest({
      url: verdict.url,
      method: 'GET',
      headers: { accept: 'application/rdap+json, application/json', 'user-agent': 'fip-takedowns/1' },
      address: verdict.addresses[0],
      timeoutMs: settings.rdap_timeout_seconds * 1000,
      maxBodyBytes: 2 * 1024 * 1024,
      verifyTls: true,
    });
    if (res.status !== 200) return { query, server, parties: [], fetchedAt: null, problem: `RDAP ${url} answered HTTP ${res.status}` };
    const answer = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
    await writeRdapCache(deps.knex, key, server, answer);
    return { query, server, parties: abusePartiesOf(query, answer as RdapAnswer), fetchedAt: new Date(), problem: null };
  } catch (err) {
    return { query, server, parties: [], fetchedAt: null, problem: `RDAP ${url}: ${err instanceof Error ? err.message : String(err)}` };
  }
}
