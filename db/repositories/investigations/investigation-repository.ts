// Investigations (scam-site scans) and what they capture: pages with artifacts, the agent's
// append-only action log, PII, blocked requests, the state in which each wallet was first found and
// JSON responses kept for the final sweep. Writes are idempotent (retried activities add nothing).
import type { Knex } from 'knex';
import type { InvestigationStatus } from '../../../domain/investigations/investigation-request';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export type { InvestigationStatus } from '../../../domain/investigations/investigation-request';

export interface InvestigationRow {
  scan_id: string;
  url: string;
  domain: string;
  final_url: string | null;
  status: InvestigationStatus;
  state: string;
  requested_by: string;
  playbook_id: string | null;
  case_id: string | null;
  label: string | null;
  options: Record<string, unknown>;
  redirect_chain: RedirectHop[];
  error: string | null;
  wallet_count: number;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export interface RedirectHop {
  url: string;
  status: number | null;
  kind: 'http' | 'meta-refresh' | 'script' | 'final';
}

export interface NewInvestigation {
  scanId: string;
  url: string;
  domain: string;
  requestedBy: string;
  playbookId: string | null;
  caseId: string | null;
  label: string | null;
  options: Record<string, unknown>;
}

export async function insertInvestigation(knex: Knex, inv: NewInvestigation): Promise<void> {
  await knex('investigations')
    .insert({
      scan_id: inv.scanId, url: inv.url, domain: inv.domain, requested_by: inv.requestedBy, playbook_id: inv.playbookId,
      case_id: inv.caseId, label: inv.label, options: JSON.stringify(inv.options),
    })
    .onConflict('scan_id')
    .ignore();
}

export async function findInvestigation(knex: Knex, scanId: string): Promise<InvestigationRow | null> {
  return ((await knex('investigations').where({ scan_id: scanId }).first()) as InvestigationRow | undefined) ?? null;
}

const ENDED: readonly InvestigationStatus[] = ['completed', 'failed', 'cancelled'];

/** Moves a scan to a state; an ended scan keeps its outcome (a late retry cannot reopen it). */
export async function setInvestigationState(
  knex: Knex,
  scanId: string,
  change: { state: string; status: InvestigationStatus; error?: string | null; finalUrl?: string; redirectChain?: RedirectHop[]; playbookId?: string | null },
): Promise<void> {
  const ended = ENDED.includes(change.status);
  await knex('investigations')
    .where({ scan_id: scanId })
    .whereNotIn('status', ENDED)
    .update({
      state: change.state,
      status: change.status,
      ...(change.error !== undefined ? { error: change.error } : {}),
      ...(change.finalUrl !== undefined ? { final_url: change.finalUrl } : {}),
      ...(change.redirectChain !== undefined ? { redirect_chain: JSON.stringify(change.redirectChain) } : {}),
      ...(change.playbookId !== undefined ? { playbook_id: change.playbookId } : {}),
      started_at: knex.raw('COALESCE(started_at, now())'),
      ...(ended ? { completed_at: knex.fn.now(), wallet_count: knex.raw('(SELECT count(*) FROM wallets w WHERE w.scan_id = investigations.scan_id::text)') } : {}),
    });
}

export interface PageArtifact {
  key: string;
  sha256: string;
  size: number;
}

export interface PageCapture {
  scanId: string;
  url: string;
  seq: number;
  state: string;
  title: string | null;
  httpStatus: number | null;
  serverIp: string | null;
  tls: Record<string, unknown> | null;
  responseHeaders: Record<string, string>;
  screenshot: PageArtifact;
  dom: PageArtifact;
  har: PageArtifact;
  capturedAt: Date;
}

/** The page row (the first capture of a URL wins: a retry does not replace its evidence). */
export async function insertPage(knex: Knex, p: PageCapture): Promise<string> {
  const [row] = (await knex('investigation_pages')
    .insert({
      scan_id: p.scanId, url: p.url, seq: p.seq, state: p.state, title: p.title, http_status: p.httpStatus, server_ip: p.serverIp,
      tls: p.tls ? JSON.stringify(p.tls) : null, response_headers: JSON.stringify(p.responseHeaders),
      screenshot_key: p.screenshot.key, screenshot_sha256: p.screenshot.sha256, screenshot_size: p.screenshot.size,
      dom_key: p.dom.key, dom_sha256: p.dom.sha256, dom_size: p.dom.size,
      har_key: p.har.key, har_sha256: p.har.sha256, har_size: p.har.size, captured_at: p.capturedAt,
    })
    .onConflict(['scan_id', 'url'])
    .merge(['scan_id'])
    .returning('id')) as Array<{ id: string }>;
  return row!.id;
}

export interface PageRow {
  id: string;
  scan_id: string;
  url: string;
  seq: number;
  state: string;
  title: string | null;
  http_status: number | null;
  server_ip: string | null;
  tls: Record<string, unknown> | null;
  response_headers: Record<string, string>;
  screenshot_key: string;
  screenshot_sha256: string;
  screenshot_size: string;
  dom_key: string;
  dom_sha256: string;
  dom_size: string;
  har_key: string;
  har_sha256: string;
  har_size: string;
  captured_at: Date;
}

export async function listPages(knex: Knex, scanId: string): Promise<PageRow[]> {
  return (await knex('investigation_pages').where({ scan_id: scanId }).orderBy([{ column: 'seq' }, { column: 'captured_at' }])) as PageRow[];
}

export async function findPage(knex: Knex, scanId: string, pageId: string): Promise<PageRow | null> {
  return ((await knex('investigation_pages').where({ scan_id: scanId, id: pageId }).first()) as PageRow | undefined) ?? null;
}

export async function countPages(knex: Knex, scanId: string): Promise<number> {
  const row = (await knex('investigation_pages').where({ scan_id: scanId }).count<{ n: string }[]>({ n: '*' }))[0];
  return Number(row?.n ?? 0);
}

export interface AgentAction {
  /** Unique within the scan: the same key from a retried activity is the same action. */
  key: string;
  state: string;
  action: string;
  target?: string;
  outcome?: string;
  walletsFound?: number;
}

export async function appendActions(knex: Knex, scanId: string, actions: readonly AgentAction[]): Promise<void> {
  if (!actions.length) return;
  await knex('investigation_actions')
    .insert(actions.map((a) => ({
      scan_id: scanId, action_key: a.key.slice(0, 500), state: a.state, action: a.action, target: (a.target ?? '').slice(0, 2000),
      outcome: (a.outcome ?? '').slice(0, 2000), wallets_found: a.walletsFound ?? 0,
    })))
    .onConflict(['scan_id', 'action_key'])
    .ignore();
}

export interface ActionRow {
  at: Date;
  state: string;
  action: string;
  target: string;
  outcome: string;
  wallets_found: number;
}

export async function listActions(knex: Knex, scanId: string): Promise<ActionRow[]> {
  return (await knex('investigation_actions').where({ scan_id: scanId }).orderBy('id').select('at', 'state', 'action', 'target', 'outcome', 'wallets_found')) as ActionRow[];
}

export interface PiiInput {
  kind: 'email' | 'phone' | 'telegram' | 'whatsapp';
  value: string;
  pageUrl: string;
}

export async function insertPii(knex: Knex, scanId: string, pii: readonly PiiInput[]): Promise<void> {
  if (!pii.length) return;
  await knex('investigation_pii')
    .insert(pii.map((p) => ({ scan_id: scanId, kind: p.kind, value: p.value.slice(0, 500), page_url: p.pageUrl })))
    .onConflict(['scan_id', 'kind', 'value', 'page_url'])
    .ignore();
}

export async function listPii(knex: Knex, scanId: string): Promise<Array<{ kind: string; value: string; page_url: string }>> {
  return (await knex('investigation_pii').where({ scan_id: scanId }).orderBy('id').select('kind', 'value', 'page_url')) as Array<{ kind: string; value: string; page_url: string }>;
}

export interface BlockedRequestInput {
  url: string;
  resourceType: string;
  reason: string;
  category: string | null;
}

export async function insertBlockedRequests(knex: Knex, scanId: string, blocked: readonly BlockedRequestInput[]): Promise<void> {
  if (!blocked.length) return;
  await knex('investigation_blocked_requests')
    .insert(blocked.map((b) => ({ scan_id: scanId, url: b.url.slice(0, 4000), resource_type: b.resourceType, reason: b.reason.slice(0, 500), category: b.category })))
    .onConflict(['scan_id', 'url', 'resource_type'])
    .ignore();
}

export async function listBlockedRequests(knex: Knex, scanId: string): Promise<Array<{ url: string; resource_type: string; reason: string; category: string | null; at: Date }>> {
  return (await knex('investigation_blocked_requests').where({ scan_id: scanId }).orderBy('id').select('url', 'resource_type', 'reason', 'category', 'at')) as Array<{
    url: string; resource_type: string; reason: string; category: string | null; at: Date;
  }>;
}

export interface WalletStateInput {
  network: string;
  token: string;
  address: string;
  state: string;
  pageUrl: string | null;
}

/** The first state (and page) in which each wallet (address and network) was found; later sightings keep the first. */
export async function recordWalletStates(knex: Knex, scanId: string, rows: readonly WalletStateInput[]): Promise<void> {
  if (!rows.length) return;
  const unique = new Map<string, WalletStateInput>();
  for (const r of rows) if (!unique.has(`${r.network}|${r.address}`)) unique.set(`${r.network}|${r.address}`, r);
  await knex('investigation_wallet_states')
    .insert([...unique.values()].map((r) => ({ scan_id: scanId, network: r.network, token: r.token, address: r.address, state: r.state, page_url: r.pageUrl })))
    .onConflict(['scan_id', 'network', 'address'])
    .ignore();
}

export interface ScanWalletRow {
  address: string;
  token: string;
  network: string;
  confidence: string;
  source: string;
  page_url: string | null;
  found_in_state: string | null;
  first_seen_at: Date;
}

export async function listScanWallets(knex: Knex, scanId: string): Promise<ScanWalletRow[]> {
  return (await knex('wallets as w')
    .leftJoin('investigation_wallet_states as s', function joinState() {
      this.on('s.scan_id', '=', knex.raw('w.scan_id::uuid')).andOn('s.network', '=', 'w.network').andOn('s.address', '=', 'w.address');
    })
    .where('w.scan_id', scanId)
    .orderBy([{ column: 'w.found_at' }, { column: 'w.id' }])
    .select('w.address', 'w.token', 'w.network', 'w.confidence', 'w.source', knex.raw('COALESCE(w.page_url, s.page_url) AS page_url'), 's.state as found_in_state',
      knex.raw('LEAST(w.found_at, COALESCE(s.first_seen_at, w.found_at)) AS first_seen_at'))) as ScanWalletRow[];
}

export async function insertResponses(knex: Knex, scanId: string, rows: ReadonlyArray<{ url: string; contentType: string; blobKey: string; sha256: string }>): Promise<void> {
  if (!rows.length) return;
  await knex('investigation_responses')
    .insert(rows.map((r) => ({ scan_id: scanId, url: r.url.slice(0, 4000), content_type: r.contentType, blob_key: r.blobKey, sha256: r.sha256 })))
    .onConflict(['scan_id', 'url', 'sha256'])
    .ignore();
}

export async function listResponses(knex: Knex, scanId: string): Promise<Array<{ url: string; blob_key: string; content_type: string }>> {
  return (await knex('investigation_responses').where({ scan_id: scanId }).orderBy('captured_at').select('url', 'blob_key', 'content_type')) as Array<{ url: string; blob_key: string; content_type: string }>;
}

/** Marks an after-reveal record (screenshot, DOM, HAR) among a scan's stored responses: `<page url>#fip-reveal=<name>`. */
export const REVEAL_MARK = '#fip-reveal=';

/** How many after-reveal DOM snapshots a scan has (the next reveal's number is one more). */
export async function countReveals(knex: Knex, scanId: string): Promise<number> {
  const row = (await knex('investigation_responses').where({ scan_id: scanId, content_type: 'text/html' }).andWhereLike('url', `%${REVEAL_MARK}%`).count({ n: '*' }).first()) as { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}

export interface RevealRecordRow {
  url: string;
  /** The record's file name: `reveal-0001-coin-tab-btc.png`, `.html`, `.har`, or `late-0001.har`. */
  name: string;
  content_type: string;
  blob_key: string;
  sha256: string;
  captured_at: Date;
}

/** A scan's after-reveal records, in the order they were taken. */
export async function listRevealRecords(knex: Knex, scanId: string): Promise<RevealRecordRow[]> {
  const rows = (await knex('investigation_responses').where({ scan_id: scanId }).andWhereLike('url', `%${REVEAL_MARK}%`)
    .orderBy([{ column: 'captured_at' }, { column: 'url' }]).select('url', 'content_type', 'blob_key', 'sha256', 'captured_at')) as Array<Omit<RevealRecordRow, 'name'>>;
  return rows.map((r) => ({ ...r, name: r.url.slice(r.url.lastIndexOf(REVEAL_MARK) + REVEAL_MARK.length) }));
}

export interface InvestigationFilter {
  ended: boolean;
  status?: InvestigationStatus;
  domain?: string;
  requestedBy?: string;
  since?: Date;
  until?: Date;
  token?: string;
  network?: string;
  hasWallets?: boolean;
  limit: number;
  after?: Keyset;
}

export async function listInvestigations(knex: Knex, f: InvestigationFilter): Promise<KeysetPage<InvestigationRow & { id: string }>> {
  const q = knex('investigations as i').select('i.*', 'i.scan_id as id');
  q.whereIn('i.status', f.ended ? ENDED : ['queued', 'running']);
  if (f.status) q.where('i.status', f.status);
  if (f.domain) q.whereRaw('position(lower(?) in lower(i.domain)) > 0', [f.domain]);
  if (f.requestedBy) q.where('i.requested_by', f.requestedBy);
  if (f.since) q.where('i.created_at', '>=', f.since);
  if (f.until) q.where('i.created_at', '<', f.until);
  if (f.token || f.network) {
    q.whereExists(function walletMatch() {
      this.select(knex.raw('1')).from('wallets as w').whereRaw('w.scan_id = i.scan_id::text');
      if (f.token) this.whereRaw('upper(w.token) = upper(?)', [f.token]);
      if (f.network) this.whereRaw('lower(w.network) = lower(?)', [f.network]);
    });
  }
  if (f.hasWallets !== undefined) {
    const sub = knex('wallets as w').select(knex.raw('1')).whereRaw('w.scan_id = i.scan_id::text');
    if (f.hasWallets) q.whereExists(sub);
    else q.whereNotExists(sub);
  }
  return keysetPage(knex, q, { tsColumn: 'i.created_at', idColumn: 'i.scan_id', limit: f.limit, after: f.after });
}
