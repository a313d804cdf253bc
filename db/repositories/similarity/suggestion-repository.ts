// Linked site pairs (site_links), campaign suggestions (campaign_suggestions) and investigations as
// campaign members (campaign_investigations).
import type { Knex } from 'knex';
import type { SiteLink } from '../../../domain/similarity/site-clusters';
import type { SimilarityReason } from '../../../domain/similarity/site-similarity';

/** Rewrites the links of one scan (its pairs with every other), in one transaction. */
export async function replaceScanLinks(knex: Knex, scanId: string, links: ReadonlyArray<{ other: string; score: number; reasons: SimilarityReason[] }>): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('site_links').where({ scan_a: scanId }).orWhere({ scan_b: scanId }).delete();
    const rows = links.filter((l) => l.other !== scanId).map((l) => {
      const [a, b] = scanId < l.other ? [scanId, l.other] : [l.other, scanId];
      return { scan_a: a, scan_b: b, score: l.score, reasons: JSON.stringify(l.reasons) };
    });
    if (rows.length) await trx('site_links').insert(rows).onConflict(['scan_a', 'scan_b']).merge();
  });
}

export async function listSiteLinks(knex: Knex | Knex.Transaction, minScore: number): Promise<SiteLink[]> {
  const rows = (await knex('site_links').where('score', '>=', minScore).select('scan_a', 'scan_b', 'score', 'reasons')) as Array<{ scan_a: string; scan_b: string; score: number; reasons: SimilarityReason[] }>;
  return rows.map((r) => ({ a: r.scan_a, b: r.scan_b, score: Number(r.score), reasons: r.reasons }));
}

/** The sites one scan is linked to (stored by linkScan), best first. */
export async function linkedScansOf(knex: Knex, scanId: string, minScore: number, limit: number): Promise<Array<{ scanId: string; score: number }>> {
  const rows = (await knex('site_links')
    .where((q) => q.where({ scan_a: scanId }).orWhere({ scan_b: scanId }))
    .andWhere('score', '>=', minScore)
    .orderBy('score', 'desc')
    .limit(limit)
    .select('scan_a', 'scan_b', 'score')) as Array<{ scan_a: string; scan_b: string; score: number }>;
  return rows.map((r) => ({ scanId: r.scan_a === scanId ? r.scan_b : r.scan_a, score: Number(r.score) }));
}

export async function decidedScanSets(knex: Knex | Knex.Transaction): Promise<string[][]> {
  return ((await knex('campaign_suggestions').whereIn('status', ['accepted', 'dismissed']).select('scan_ids')) as Array<{ scan_ids: string[] }>).map((r) => r.scan_ids);
}

export type SuggestionMember = { kind: 'investigation'; scan_id: string } | { kind: 'entity'; entity_id: string } | { kind: 'case'; case_id: string };
export type SuggestionStatus = 'open' | 'accepted' | 'dismissed';

export interface SuggestionRow {
  id: string;
  cluster_key: string;
  scan_ids: string[];
  score: number;
  members: SuggestionMember[];
  reasons: Array<{ kind: string; detail: string }>;
  status: SuggestionStatus;
  campaign_id: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface OpenSuggestion {
  key: string;
  scanIds: string[];
  score: number;
  members: SuggestionMember[];
  reasons: Array<{ kind: string; detail: string }>;
}

/** Serialises recomputations (one after each investigation, one on the schedule). */
export async function lockSuggestions(trx: Knex.Transaction): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext('campaign_suggestions'))");
}

/** The open suggestions become exactly `open`: new clusters added, changed ones updated, gone ones removed. */
export async function syncOpenSuggestions(trx: Knex.Transaction, open: readonly OpenSuggestion[]): Promise<void> {
  for (const s of open) {
    await trx('campaign_suggestions')
      .insert({ cluster_key: s.key, scan_ids: s.scanIds, score: s.score, members: JSON.stringify(s.members), reasons: JSON.stringify(s.reasons) })
      .onConflict('cluster_key')
      .merge({ score: s.score, members: JSON.stringify(s.members), reasons: JSON.stringify(s.reasons), updated_at: trx.raw('clock_timestamp()') })
      .where('campaign_suggestions.status', 'open');
  }
  await trx('campaign_suggestions').where({ status: 'open' }).whereNotIn('cluster_key', open.map((s) => s.key)).delete();
}

export async function listSuggestions(knex: Knex, status: SuggestionStatus, limit: number): Promise<SuggestionRow[]> {
  return (await knex('campaign_suggestions').where({ status }).orderBy([{ column: 'score', order: 'desc' }, { column: 'id' }]).limit(limit)) as SuggestionRow[];
}

export async function findSuggestion(knex: Knex | Knex.Transaction, id: string, forUpdate = false): Promise<SuggestionRow | undefined> {
  const q = knex('campaign_suggestions').where({ id }).first();
  return (await (forUpdate ? q.forUpdate() : q)) as SuggestionRow | undefined;
}

export async function decideSuggestion(trx: Knex.Transaction, id: string, status: 'accepted' | 'dismissed', by: string, campaignId: string | null): Promise<SuggestionRow> {
  const [row] = await trx('campaign_suggestions').where({ id }).update({ status, decided_by: by, decided_at: trx.raw('clock_timestamp()'), campaign_id: campaignId, updated_at: trx.raw('clock_timestamp()') }).returning('*');
  return row as SuggestionRow;
}

/** The cases these investigations belong to. */
export async function casesOfScans(knex: Knex | Knex.Transaction, scanIds: readonly string[]): Promise<string[]> {
  if (!scanIds.length) return [];
  return ((await knex('investigations').whereIn('scan_id', [...scanIds]).whereNotNull('case_id').distinct('case_id').orderBy('case_id')) as Array<{ case_id: string }>).map((r) => r.case_id);
}

/**
 * Entities seen by at least two of these investigations (a shared wallet, e-mail, phone, handle),
 * not the page's own URL, domain or server address.
 */
export async function entitiesSharedByScans(knex: Knex | Knex.Transaction, scanIds: readonly string[]): Promise<Array<{ id: string; type: string; value: string }>> {
  if (scanIds.length < 2) return [];
  return (await knex('sightings as s')
    .join('entities as e', 'e.id', 's.entity_id')
    .where('s.source_kind', 'investigation')
    .whereIn('s.source_id', [...scanIds])
    .whereNotIn('e.type', ['url', 'domain', 'ip'])
    .groupBy('e.id', 'e.type', 'e.value')
    .havingRaw('count(DISTINCT s.source_id) >= 2')
    .orderBy('e.id')
    .select('e.id', 'e.type', 'e.value')) as Array<{ id: string; type: string; value: string }>;
}

export async function addCampaignInvestigations(trx: Knex.Transaction, campaignId: string, scanIds: readonly string[], by: string): Promise<void> {
  if (!scanIds.length) return;
  await trx('campaign_investigations').insert(scanIds.map((scanId) => ({ campaign_id: campaignId, scan_id: scanId, added_by: by }))).onConflict(['campaign_id', 'scan_id']).ignore();
}

export interface CampaignInvestigationRow {
  scan_id: string;
  url: string;
  domain: string;
  state: string;
  added_by: string;
  added_at: Date;
}

export async function campaignInvestigations(knex: Knex, campaignId: string): Promise<CampaignInvestigationRow[]> {
  return (await knex('campaign_investigations as ci')
    .join('investigations as i', 'i.scan_id', 'ci.scan_id')
    .where('ci.campaign_id', campaignId)
    .orderBy([{ column: 'ci.added_at' }, { column: 'ci.scan_id' }])
    .select('ci.scan_id', 'i.url', 'i.domain', 'i.state', 'ci.added_by', 'ci.added_at')) as CampaignInvestigationRow[];
}
