// Wallets found by investigations: idempotent upserts (retried activities), ordered streaming per
// scan for exports, and keyset-paginated cross-scan search by token, network and address substring.
import type { Knex } from 'knex';
import type { WalletRecord } from '../../../domain/wallets/wallet-export-rows';
import type { Confidence } from '../../../domain/wallets/wallet-types';
import { CONFIDENCE_RANK } from '../../../domain/wallets/confidence-rules';
import { NETWORK_RANK, TOKEN_RANK } from '../../../domain/wallets/wallet-scanner';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface WalletRow extends WalletRecord {
  id: string;
  confidence: Confidence;
  found_at: Date;
}

/** What an investigation writes: a finding of the extraction engine (extra fields are ignored). */
export interface WalletFindingInput {
  address: string;
  token: string;
  network: string;
  confidence: Confidence;
  source: string;
  context?: string;
  pageUrl?: string | null;
  /** Memo, destination tag or comment shown with the address (XRP, Stellar, TON, EOS, ...). */
  memo?: string | null;
  /** How the network was chosen (WalletFinding.networkBasis); `default` = nothing named it. */
  networkBasis?: string | null;
  /** How the token was chosen (WalletFinding.tokenBasis). */
  tokenBasis?: string | null;
}

/** A rank table as SQL (0 for NULL or an unknown value), so the database ranks as the engine does. */
const rankSql = (col: string, ranks: Record<string, number>): string =>
  `CASE ${col} ${Object.entries(ranks).map(([basis, rank]) => `WHEN '${basis}' THEN ${rank}`).join(' ')} ELSE 0 END`;
/** Evidence strength of a reading, as the engine ranks readings: confidence, then the network's basis, then the token's. */
const STRENGTH_SQL = (t: string): string =>
  `(${rankSql(`${t}.confidence`, CONFIDENCE_RANK)} * 10000 + ${rankSql(`${t}.network_basis`, NETWORK_RANK)} * 100 + ${rankSql(`${t}.token_basis`, TOKEN_RANK)})`;
/** Whether the incoming row (`excluded`) is the stronger reading of the stored one. */
const STRONGER = `${STRENGTH_SQL('excluded')} > ${STRENGTH_SQL('wallets')}`;
const strength = (f: WalletFindingInput): number =>
  CONFIDENCE_RANK[f.confidence] * 10000 +
  ((NETWORK_RANK as Record<string, number>)[f.networkBasis ?? ''] ?? 0) * 100 +
  ((TOKEN_RANK as Record<string, number>)[f.tokenBasis ?? ''] ?? 0);

/**
 * Inserts findings of one scan: one row per address and network (the engine's answer). A row already there is replaced by a stronger reading (confidence, then how the network
 * and the token were chosen) — token, bases, source, context and page with it — and otherwise
 * kept; a memo once recorded is kept.
 */
export async function upsertWallets(knex: Knex, scanId: string, findings: readonly WalletFindingInput[]): Promise<number> {
  if (!findings.length) return 0;
  const unique = new Map<string, WalletFindingInput>();
  for (const f of findings) {
    const key = `${f.network}|${f.address}`;
    const prev = unique.get(key);
    if (!prev || strength(f) > strength(prev)) unique.set(key, prev && !f.memo ? { ...f, memo: prev.memo } : f);
    else if (!prev.memo && f.memo) unique.set(key, { ...prev, memo: f.memo });
  }
  const rows = [...unique.values()].map((f) => ({
    scan_id: scanId, address: f.address, token: f.token, network: f.network, confidence: f.confidence,
    source: f.source, context: (f.context ?? '').slice(0, 2000), page_url: f.pageUrl ?? null,
    memo: f.memo ? f.memo.slice(0, 200) : null, network_basis: f.networkBasis ?? null, token_basis: f.tokenBasis ?? null,
  }));
  const pick = (col: string) => knex.raw(`CASE WHEN ${STRONGER} THEN excluded.${col} ELSE wallets.${col} END`);
  await knex('wallets')
    .insert(rows)
    .onConflict(['scan_id', 'network', 'address'])
    .merge({
      token: pick('token'),
      confidence: pick('confidence'),
      source: pick('source'),
      context: pick('context'),
      page_url: knex.raw(`CASE WHEN ${STRONGER} THEN excluded.page_url ELSE COALESCE(wallets.page_url, excluded.page_url) END`),
      // A memo seen once stays (a later page without it must not erase it); a stronger finding's memo wins.
      memo: knex.raw(`CASE WHEN ${STRONGER} THEN COALESCE(excluded.memo, wallets.memo) ELSE COALESCE(wallets.memo, excluded.memo) END`),
      network_basis: knex.raw(`CASE WHEN ${STRONGER} THEN COALESCE(excluded.network_basis, wallets.network_basis) ELSE COALESCE(wallets.network_basis, excluded.network_basis) END`),
      token_basis: knex.raw(`CASE WHEN ${STRONGER} THEN excluded.token_basis ELSE wallets.token_basis END`),
    });
  return rows.length;
}

function scanQuery(knex: Knex, scanId: string): Knex.QueryBuilder {
  return knex('wallets').where({ scan_id: scanId }).orderBy([{ column: 'found_at', order: 'asc' }, { column: 'id', order: 'asc' }]);
}

/** Every wallet of a scan, oldest first (small scans; use streamWalletsForScan for exports). */
export async function listWalletsForScan(knex: Knex, scanId: string): Promise<WalletRow[]> {
  return (await scanQuery(knex, scanId).select('*')) as WalletRow[];
}

/**
 * The wallets of a scan as an async stream of rows, oldest first, read in keyset batches (bounded
 * memory for any scan size, no cursor dependency). The key keeps PostgreSQL's microseconds.
 */
export async function* streamWalletsForScan(knex: Knex, scanId: string, batchSize = 1000): AsyncGenerator<WalletRow> {
  let after: { ts: string; id: string } | undefined;
  for (;;) {
    const q = knex('wallets')
      .select('wallets.*', knex.raw(`to_char(found_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS _k_ts`))
      .where({ scan_id: scanId })
      .orderBy([{ column: 'found_at', order: 'asc' }, { column: 'id', order: 'asc' }])
      .limit(batchSize);
    if (after) q.whereRaw('(found_at, id) > (?::timestamptz, ?::uuid)', [after.ts, after.id]);
    const rows = (await q) as Array<WalletRow & { _k_ts: string }>;
    for (const { _k_ts: _ts, ...row } of rows) yield row as WalletRow;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1];
    after = { ts: last._k_ts, id: last.id };
  }
}

export interface WalletSearch {
  token?: string;
  network?: string;
  addressContains?: string;
  limit: number;
  cursor?: Keyset;
}

/** Cross-investigation search, newest first, keyset-paginated on (found_at, id). */
export async function searchWallets(knex: Knex, s: WalletSearch): Promise<KeysetPage<WalletRow>> {
  const q = knex('wallets').select('wallets.*');
  if (s.token) q.whereRaw('upper(token) = upper(?)', [s.token]);
  if (s.network) q.whereRaw('lower(network) = lower(?)', [s.network]);
  if (s.addressContains) q.whereRaw("lower(address) LIKE '%' || lower(?) || '%' ESCAPE '\\'", [s.addressContains.replace(/[\\%_]/g, (c) => `\\${c}`)]);
  return keysetPage<WalletRow>(knex, q, { tsColumn: 'wallets.found_at', idColumn: 'wallets.id', limit: s.limit, after: s.cursor });
}
