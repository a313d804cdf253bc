// Cross-scan wallet search: one row per (network, address) over every scan's wallets, with the
// scans that found it. A wallet seen on several sites is how linked campaigns show. (Per-row search
// and per-scan streaming live in wallet-repository.ts.)
import type { Knex } from 'knex';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface WalletAggregateFilter {
  token?: string;
  network?: string;
  /** Case-insensitive substring of the address (served by the trigram index on lower(address)). */
  addressContains?: string;
  limit: number;
  after?: Keyset;
}

export interface WalletAggregateRow {
  /** Stable key of (network, address), for keyset pagination: md5(network|address) as a uuid. */
  id: string;
  network: string;
  address: string;
  /** The token of the most recent sighting. */
  token: string;
  /** Every token this address was seen with, sorted. */
  tokens: string[];
  scan_count: number;
  first_seen_at: Date;
  last_seen_at: Date;
}

export interface WalletScanSighting {
  scan_id: string;
  /** The first page of that scan where the wallet was found. */
  page_url: string | null;
  /**
   * The investigated URL of the scan. Filled from the investigations table when it exists (see
   * scanUrlsFor); null otherwise.
   */
  url: string | null;
  first_seen_at: Date;
}

/** Scans listed per wallet row (newest first); scan_count always has the full number. */
export const MAX_SCANS_PER_WALLET = 50;

function filtered(knex: Knex, f: Pick<WalletAggregateFilter, 'token' | 'network' | 'addressContains'>): Knex.QueryBuilder {
  const q = knex('wallets');
  if (f.token) q.whereRaw('upper(token) = upper(?)', [f.token]);
  if (f.network) q.whereRaw('lower(network) = lower(?)', [f.network]);
  if (f.addressContains) q.whereRaw("lower(address) LIKE '%' || lower(?) || '%' ESCAPE '\\'", [f.addressContains.replace(/[\\%_]/g, (c) => `\\${c}`)]);
  return q;
}

/**
 * One row per (network, address) matching the filters, most recently seen first, keyset-paginated
 * on (last_seen_at, id). Filters apply to the sightings: with `token`, counts and dates are those of
 * that token's sightings.
 */
export async function searchWalletAggregates(knex: Knex, f: WalletAggregateFilter): Promise<KeysetPage<WalletAggregateRow & { scans: WalletScanSighting[] }>> {
  const grouped = filtered(knex, f)
    .select(
      knex.raw("md5(network || '|' || address)::uuid AS id"),
      'network',
      'address',
      knex.raw('(array_agg(token ORDER BY found_at DESC, id DESC))[1] AS token'),
      knex.raw('array_agg(DISTINCT token ORDER BY token) AS tokens'),
      knex.raw('count(DISTINCT scan_id)::int AS scan_count'),
      knex.raw('min(found_at) AS first_seen_at'),
      knex.raw('max(found_at) AS last_seen_at'),
    )
    .groupBy('network', 'address');
  const outer = knex.from(grouped.as('w')).select('w.*');
  const page = await keysetPage<WalletAggregateRow>(knex, outer, { tsColumn: 'w.last_seen_at', idColumn: 'w.id', limit: f.limit, after: f.after });
  const sightings = await sightingsFor(knex, page.rows, f);
  return { rows: page.rows.map((r) => ({ ...r, scans: sightings.get(`${r.network}\u0000${r.address}`) ?? [] })), next: page.next };
}

async function sightingsFor(knex: Knex, rows: WalletAggregateRow[], f: WalletAggregateFilter): Promise<Map<string, WalletScanSighting[]>> {
  const out = new Map<string, WalletScanSighting[]>();
  if (!rows.length) return out;
  const pairs = rows.map((r) => [r.network, r.address]);
  const q = filtered(knex, f)
    .select(
      'network',
      'address',
      'scan_id',
      knex.raw('min(found_at) AS first_seen_at'),
      knex.raw('(array_agg(page_url ORDER BY found_at, id) FILTER (WHERE page_url IS NOT NULL))[1] AS page_url'),
    )
    .whereIn(['network', 'address'], pairs)
    .groupBy('network', 'address', 'scan_id')
    .orderBy([{ column: 'first_seen_at', order: 'desc' }, { column: 'scan_id', order: 'asc' }]);
  const found = (await q) as Array<{ network: string; address: string; scan_id: string; first_seen_at: Date; page_url: string | null }>;
  const urls = await scanUrlsFor(knex, [...new Set(found.map((s) => s.scan_id))]);
  for (const s of found) {
    const key = `${s.network}\u0000${s.address}`;
    const list = out.get(key) ?? [];
    if (list.length < MAX_SCANS_PER_WALLET) list.push({ scan_id: s.scan_id, page_url: s.page_url, url: urls.get(s.scan_id) ?? null, first_seen_at: s.first_seen_at });
    out.set(key, list);
  }
  return out;
}

/** The investigated URL of each scan (from `investigations`; scan ids that are not investigations have none). */
export async function scanUrlsFor(knex: Knex, scanIds: string[]): Promise<Map<string, string>> {
  const ids = scanIds.filter((id) => UUID_RE.test(id));
  if (!ids.length) return new Map();
  const rows = (await knex('investigations').whereIn('scan_id', ids).select('scan_id', 'url')) as Array<{ scan_id: string; url: string }>;
  return new Map(rows.map((r) => [r.scan_id, r.url]));
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Is this a known scan: an investigation, or a scan id that wallet rows carry (CLI scans)? */
export async function scanExists(knex: Knex, scanId: string): Promise<boolean> {
  if (UUID_RE.test(scanId) && (await knex('investigations').where({ scan_id: scanId }).first(knex.raw('1 AS one')))) return true;
  return scanHasWallets(knex, scanId);
}

/** Does any wallet row exist for this scan? (Decides 404 for the per-scan exports until investigations exist.) */
export async function scanHasWallets(knex: Knex, scanId: string): Promise<boolean> {
  return Boolean(await knex('wallets').where({ scan_id: scanId }).first(knex.raw('1 AS one')));
}
