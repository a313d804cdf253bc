// Campaigns (docs/data-model.md): named groups of cases and entities run by the same actors.
// A case joins through cases.campaign_id (at most one campaign), an entity through campaign_entities.
// A campaign's entities are its own (campaign_entities) plus its member cases' entities (linked,
// sighted in the case, sighted in the case's linked intakes and investigations), as for a case.
// Writes run in the caller's transaction: the use cases (services/campaigns/campaign-service.ts)
// record the audit event in the same one.
import type { Knex } from 'knex';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';
import type { CampaignStatus } from '../../../domain/campaigns/campaign-status';

export interface CampaignRow {
  id: string;
  name: string;
  description: string;
  status: CampaignStatus;
  taxonomy: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

export async function campaignExists(knex: Knex | Knex.Transaction, id: string): Promise<boolean> {
  return Boolean(await knex('campaigns').where({ id }).first('id'));
}

export async function findCampaign(knex: Knex | Knex.Transaction, id: string): Promise<CampaignRow | undefined> {
  return knex<CampaignRow>('campaigns').where({ id }).first();
}

export interface CampaignFilters {
  status?: CampaignStatus;
  /** A taxonomy path: campaigns tagged with it or any node below it. */
  taxonomy?: string;
  /** Case-insensitive substring of name or description. */
  q?: string;
  /** `q` matches the text with bank details masked (fip_mask_bank_details), for callers who see them only masked. */
  maskedText?: boolean;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listCampaigns(knex: Knex, f: CampaignFilters, page: { limit: number; after?: Keyset }): Promise<KeysetPage<CampaignRow>> {
  const q = knex('campaigns').select('campaigns.*');
  if (f.status) q.where('status', f.status);
  if (f.taxonomy) q.where((w) => w.where('taxonomy', f.taxonomy!).orWhereLike('taxonomy', `${likeEscape(f.taxonomy!)}/%`));
  if (f.q) {
    const like = `%${likeEscape(f.q)}%`;
    if (f.maskedText) q.where((w) => w.whereRaw('fip_mask_bank_details(name) ILIKE ?', [like]).orWhereRaw('fip_mask_bank_details(description) ILIKE ?', [like]));
    else q.where((w) => w.whereILike('name', like).orWhereILike('description', like));
  }
  return keysetPage<CampaignRow>(knex, q, { tsColumn: 'campaigns.created_at', idColumn: 'campaigns.id', limit: page.limit, after: page.after });
}

/** True for the error of a write that would give two campaigns the same name (case-insensitive). */
export function isCampaignNameClash(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'campaigns_name_unique';
}

export interface NewCampaign {
  name: string;
  description?: string;
  status?: CampaignStatus;
  taxonomy?: string | null;
}

/** Inserts a campaign; a taken name (case-insensitive) fails the statement (isCampaignNameClash). */
export async function insertCampaign(trx: Knex.Transaction, input: NewCampaign, by: string): Promise<CampaignRow> {
  const [created] = await trx('campaigns')
    .insert({
      name: input.name,
      description: input.description ?? '',
      status: input.status ?? 'active',
      taxonomy: input.taxonomy ?? null,
      created_by: by,
      created_at: trx.raw('clock_timestamp()'),
      updated_at: trx.raw('clock_timestamp()'),
    })
    .returning('*');
  return created as CampaignRow;
}

export interface MemberRef {
  type: 'case' | 'entity';
  id: string;
}

export interface CampaignPatch {
  name?: string;
  description?: string;
  status?: CampaignStatus;
  taxonomy?: string | null;
  add?: MemberRef[];
  remove?: MemberRef[];
}

export type CampaignUpdateResult =
  | { ok: true; row: CampaignRow; changes: Record<string, unknown> }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'unknown_member'; index: number; list: 'add' | 'remove'; ref: MemberRef }
  | { ok: false; reason: 'case_in_other_campaign'; index: number; ref: MemberRef; campaign_id: string };

/**
 * Changes a campaign and its members, in the caller's transaction (`changes` is what its audit
 * event records); a new name that is taken fails the statement (isCampaignNameClash). Adding a
 * member that is already in is a no-op; removing one that is not in is a no-op; a case in another
 * campaign is refused (a case is in at most one: remove it there first), as is an unknown member:
 * the first refused ref in list order is named, and nothing is written.
 */
export async function applyCampaignPatch(trx: Knex.Transaction, id: string, patch: CampaignPatch, by: string): Promise<CampaignUpdateResult> {
  const current = await trx<CampaignRow>('campaigns').where({ id }).forUpdate().first();
  if (!current) return { ok: false, reason: 'not_found' };
  const changes: Record<string, unknown> = {};
  for (const key of ['name', 'description', 'status', 'taxonomy'] as const) {
    if (patch[key] !== undefined && patch[key] !== current[key]) changes[key] = { from: current[key], to: patch[key] };
  }
  // Members are checked and written set by set (a few queries for up to 500 + 500 refs, not
  // one or two per ref), and every ref is checked before anything is written: a refused patch
  // changes nothing.
  const key = (ref: MemberRef) => `${ref.type}:${ref.id.toLowerCase()}`;
  const firstOf = (refs: MemberRef[]) => {
    const seen = new Set<string>();
    return refs.filter((r) => !seen.has(key(r)) && seen.add(key(r)));
  };
  const adds = patch.add ?? [];
  const addCaseIds = [...new Set(adds.filter((r) => r.type === 'case').map((r) => r.id.toLowerCase()))];
  const addEntityIds = [...new Set(adds.filter((r) => r.type === 'entity').map((r) => r.id.toLowerCase()))];
  const caseCampaign = new Map(
    (addCaseIds.length ? ((await trx('cases').whereIn('id', addCaseIds).forUpdate().select('id', 'campaign_id')) as Array<{ id: string; campaign_id: string | null }>) : []).map((c) => [c.id, c.campaign_id] as const),
  );
  const knownEntities = new Set(addEntityIds.length ? ((await trx('entities').whereIn('id', addEntityIds).select('id')) as Array<{ id: string }>).map((e) => e.id) : []);
  for (const [index, ref] of adds.entries()) {
    const refId = ref.id.toLowerCase();
    if (ref.type === 'case') {
      if (!caseCampaign.has(refId)) return { ok: false, reason: 'unknown_member', index, list: 'add', ref };
      const other = caseCampaign.get(refId);
      if (other && other !== id) return { ok: false, reason: 'case_in_other_campaign', index, ref, campaign_id: other };
    } else if (!knownEntities.has(refId)) {
      return { ok: false, reason: 'unknown_member', index, list: 'add', ref };
    }
  }
  const joiningCases = addCaseIds.filter((c) => caseCampaign.get(c) !== id);
  if (joiningCases.length) await trx('cases').whereIn('id', joiningCases).update({ campaign_id: id, updated_at: trx.raw('clock_timestamp()') });
  const joinedEntities = addEntityIds.length
    ? ((await trx('campaign_entities')
        .insert(addEntityIds.map((entityId) => ({ campaign_id: id, entity_id: entityId, added_by: by })))
        .onConflict(['campaign_id', 'entity_id'])
        .ignore()
        .returning('entity_id')) as Array<{ entity_id: string }>).map((r) => r.entity_id)
    : [];
  const joined = new Set([...joiningCases.map((c) => `case:${c}`), ...joinedEntities.map((e) => `entity:${e}`)]);
  const added = firstOf(adds).filter((r) => joined.has(key(r)));

  const removes = patch.remove ?? [];
  const removeCaseIds = [...new Set(removes.filter((r) => r.type === 'case').map((r) => r.id.toLowerCase()))];
  const removeEntityIds = [...new Set(removes.filter((r) => r.type === 'entity').map((r) => r.id.toLowerCase()))];
  const leftCases = removeCaseIds.length
    ? ((await trx('cases').whereIn('id', removeCaseIds).where({ campaign_id: id }).update({ campaign_id: null, updated_at: trx.raw('clock_timestamp()') }).returning('id')) as Array<{ id: string }>)
    : [];
  const leftEntities = removeEntityIds.length
    ? ((await trx('campaign_entities').where({ campaign_id: id }).whereIn('entity_id', removeEntityIds).delete().returning('entity_id')) as Array<{ entity_id: string }>)
    : [];
  const left = new Set([...leftCases.map((c) => `case:${c.id}`), ...leftEntities.map((e) => `entity:${e.entity_id}`)]);
  const removed = firstOf(removes).filter((r) => left.has(key(r)));
  if (added.length) changes.added = added;
  if (removed.length) changes.removed = removed;
  const [row] = await trx('campaigns')
    .where({ id })
    .update({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.taxonomy !== undefined ? { taxonomy: patch.taxonomy } : {}),
      updated_at: trx.raw('clock_timestamp()'),
    })
    .returning('*');
  return { ok: true, row: row as CampaignRow, changes };
}

/** Campaigns per stored taxonomy path (null: none), over every campaign. */
export async function campaignTaxonomyCounts(knex: Knex): Promise<Array<{ taxonomy: string | null; n: string }>> {
  return (await knex('campaigns').select('taxonomy').count({ n: '*' }).groupBy('taxonomy')) as Array<{ taxonomy: string | null; n: string }>;
}

/**
 * SQL (a CTE body) of the entities of the campaigns in `ids`: (campaign_id, entity_id, via), via one
 * of `campaign` (campaign_entities), `link` (linked to a member case), `case`, `intake`, `investigation`
 * (sighted in a member case or its linked intake/investigation), plus `case_id` (the member case, or null).
 */
const CAMPAIGN_ENTITIES_SQL = `
  SELECT ce.campaign_id, ce.entity_id, 'campaign'::text AS via, NULL::uuid AS case_id FROM campaign_entities ce WHERE ce.campaign_id = ANY(:ids::uuid[])
  UNION
  SELECT c.campaign_id, cl.target_id::uuid, 'link', c.id FROM cases c JOIN case_links cl ON cl.case_id = c.id AND cl.target_type = 'entity'
   WHERE c.campaign_id = ANY(:ids::uuid[])
  UNION
  SELECT c.campaign_id, s.entity_id, 'case', c.id FROM cases c JOIN sightings s ON s.source_kind = 'case' AND s.source_id = c.id::text
   WHERE c.campaign_id = ANY(:ids::uuid[])
  UNION
  SELECT c.campaign_id, s.entity_id, cl.target_type, c.id FROM cases c
    JOIN case_links cl ON cl.case_id = c.id AND cl.target_type IN ('intake', 'investigation')
    JOIN sightings s ON s.source_kind = cl.target_type AND s.source_id = cl.target_id
   WHERE c.campaign_id = ANY(:ids::uuid[])`;

export interface CampaignStats {
  campaign_id: string;
  cases: number;
  entities: number;
  risk_scores: Array<number | null>;
}

/** Member-case and entity counts and the member entities' risk scores, per campaign. */
export async function campaignStats(knex: Knex, ids: string[]): Promise<Map<string, CampaignStats>> {
  const out = new Map<string, CampaignStats>(ids.map((id) => [id, { campaign_id: id, cases: 0, entities: 0, risk_scores: [] }]));
  if (ids.length === 0) return out;
  const ents = await knex.raw<{ rows: Array<{ campaign_id: string; entities: string; scores: Array<number | null> }> }>(
    `WITH m AS (${CAMPAIGN_ENTITIES_SQL}), d AS (SELECT DISTINCT campaign_id, entity_id FROM m)
     SELECT d.campaign_id, count(*)::bigint AS entities, array_agg(e.risk_score) AS scores
       FROM d JOIN entities e ON e.id = d.entity_id GROUP BY d.campaign_id`,
    { ids },
  );
  for (const r of ents.rows) Object.assign(out.get(r.campaign_id)!, { entities: Number(r.entities), risk_scores: r.scores.map((s) => (s === null ? null : Number(s))) });
  const cases = await knex('cases').whereIn('campaign_id', ids).groupBy('campaign_id').select('campaign_id').count<Array<{ campaign_id: string; count: string }>>('* as count');
  for (const r of cases) out.get(r.campaign_id)!.cases = Number(r.count);
  return out;
}

export interface CampaignMemberCase {
  id: string;
  title: string;
  status: string;
  taxonomy: string | null;
  loss_amount: string | null;
  loss_currency: string | null;
  referral_status: string | null;
  created_at: Date;
}

export async function campaignCases(knex: Knex, id: string): Promise<CampaignMemberCase[]> {
  return knex('cases as c')
    .leftJoin('lea_referrals as r', 'r.case_id', 'c.id')
    .where('c.campaign_id', id)
    .select('c.id', 'c.title', 'c.status', 'c.taxonomy', 'c.loss_amount', knex.raw('c.loss_currency::text AS loss_currency'), 'r.status as referral_status', 'c.created_at')
    .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }]);
}

export interface CampaignEntity {
  id: string;
  type: string;
  value: string;
  display_value: string;
  risk_score: number | null;
  first_seen_at: Date;
  last_seen_at: Date;
  via: string[];
  added_at: Date | null;
}

export async function campaignEntities(knex: Knex, id: string, limit = 1000): Promise<CampaignEntity[]> {
  const r = await knex.raw<{ rows: CampaignEntity[] }>(
    `WITH m AS (${CAMPAIGN_ENTITIES_SQL})
     SELECT e.id, e.type, e.value, e.display_value, e.risk_score, e.first_seen_at, e.last_seen_at,
            array_agg(DISTINCT m.via ORDER BY m.via) AS via, max(ce.added_at) AS added_at
       FROM m JOIN entities e ON e.id = m.entity_id
       LEFT JOIN campaign_entities ce ON ce.campaign_id = m.campaign_id AND ce.entity_id = e.id
      GROUP BY e.id ORDER BY e.risk_score DESC NULLS LAST, e.type, e.value LIMIT :limit`,
    { ids: [id], limit },
  );
  return r.rows;
}

export interface TimelineEvent {
  at: Date;
  kind: 'campaign_created' | 'case_opened' | 'entity_added' | 'entity_first_seen' | 'referral_created';
  record_type: 'campaign' | 'case' | 'entity' | 'lea_referral';
  record_id: string;
}

/** The campaign's history, newest first (at most `limit` events). */
export async function campaignTimeline(knex: Knex, id: string, limit = 500): Promise<TimelineEvent[]> {
  const r = await knex.raw<{ rows: TimelineEvent[] }>(
    `WITH m AS (${CAMPAIGN_ENTITIES_SQL})
     SELECT * FROM (
       SELECT created_at AS at, 'campaign_created' AS kind, 'campaign' AS record_type, id::text AS record_id FROM campaigns WHERE id = :id
       UNION ALL SELECT created_at, 'case_opened', 'case', id::text FROM cases WHERE campaign_id = :id
       UNION ALL SELECT added_at, 'entity_added', 'entity', entity_id::text FROM campaign_entities WHERE campaign_id = :id
       UNION ALL SELECT e.first_seen_at, 'entity_first_seen', 'entity', e.id::text FROM (SELECT DISTINCT entity_id FROM m) d JOIN entities e ON e.id = d.entity_id
       UNION ALL SELECT r.created_at, 'referral_created', 'lea_referral', r.id::text FROM lea_referrals r JOIN cases c ON c.id = r.case_id WHERE c.campaign_id = :id
     ) t ORDER BY at DESC, kind, record_id LIMIT :limit`,
    { ids: [id], id, limit },
  );
  return r.rows;
}

export interface LeaHitRow {
  candidate_kind: 'case' | 'investigation';
  candidate_id: string;
  title: string;
  candidate_campaign_id: string | null;
  referral_status: string | null;
  entity_id: string;
  type: 'wallet' | 'phone' | 'domain';
  value: string;
  source_kind: string;
  source_id: string;
  observed_at: Date;
  /** The member cases the entity reaches the campaign through (null entries: the campaign's own entities). */
  owners: Array<string | null>;
}

/**
 * Every place a campaign's wallet, phone and domain entities appear outside its own records, and
 * inside its member cases: per candidate (a case, or an investigation in no case) the entity and the
 * source that mentions it. The ranking and the "not yet in / not yet referred" rule are domain/.
 */
export async function leaSuggestionHits(knex: Knex, id: string, types: readonly string[]): Promise<LeaHitRow[]> {
  const r = await knex.raw<{ rows: LeaHitRow[] }>(
    `WITH m AS (${CAMPAIGN_ENTITIES_SQL}),
     linked AS (
       SELECT e.id, e.type, e.value, array_agg(DISTINCT m.case_id) AS owners
         FROM m JOIN entities e ON e.id = m.entity_id WHERE e.type = ANY(:types::text[]) GROUP BY e.id
     ),
     hits AS (
       SELECT l.id AS entity_id, l.type, l.value, l.owners, s.source_kind, s.source_id, s.observed_at
         FROM linked l JOIN sightings s ON s.entity_id = l.id WHERE s.source_kind IN ('case', 'intake', 'investigation')
     ),
     candidates AS (
       SELECT 'case' AS candidate_kind, c.id::text AS candidate_id, c.title, c.campaign_id AS candidate_campaign_id, h.*
         FROM hits h JOIN cases c ON h.source_kind = 'case' AND c.id::text = h.source_id
       UNION ALL
       SELECT 'case', c.id::text, c.title, c.campaign_id, h.*
         FROM hits h JOIN case_links cl ON cl.target_type = h.source_kind AND cl.target_id = h.source_id JOIN cases c ON c.id = cl.case_id
        WHERE h.source_kind IN ('intake', 'investigation')
       UNION ALL
       SELECT 'case', c.id::text, c.title, c.campaign_id, l.id, l.type, l.value, l.owners, 'case', c.id::text, cl.linked_at
         FROM linked l JOIN case_links cl ON cl.target_type = 'entity' AND cl.target_id = l.id::text JOIN cases c ON c.id = cl.case_id
       UNION ALL
       SELECT 'investigation', i.scan_id::text, i.url, NULL::uuid, h.*
         FROM hits h JOIN investigations i ON h.source_kind = 'investigation' AND i.scan_id::text = h.source_id
        WHERE i.case_id IS NULL AND NOT EXISTS (SELECT 1 FROM case_links cl WHERE cl.target_type = 'investigation' AND cl.target_id = h.source_id)
     )
     SELECT c.candidate_kind, c.candidate_id, c.title, c.candidate_campaign_id, r.status AS referral_status,
            c.entity_id, c.type, c.value, c.source_kind, c.source_id, c.observed_at, c.owners
       FROM candidates c LEFT JOIN lea_referrals r ON c.candidate_kind = 'case' AND r.case_id::text = c.candidate_id
      ORDER BY c.candidate_kind, c.candidate_id, c.entity_id, c.source_kind, c.source_id`,
    { ids: [id], types: [...types] },
  );
  return r.rows;
}

/** The campaigns these investigations are members of, with each campaign's member domains. */
export async function campaignsOfScans(knex: Knex, scanIds: readonly string[]): Promise<Array<{ campaign_id: string; name: string; scan_ids: string[]; domains: string[] }>> {
  if (scanIds.length === 0) return [];
  const rows = await knex.raw(
    `SELECT c.id AS campaign_id, c.name,
            array_agg(DISTINCT ci.scan_id::text) FILTER (WHERE ci.scan_id = ANY(?::uuid[])) AS scan_ids,
            array_agg(DISTINCT i.domain) AS domains
       FROM campaigns c
       JOIN campaign_investigations ci ON ci.campaign_id = c.id
       JOIN investigations i ON i.scan_id = ci.scan_id
      WHERE c.id IN (SELECT campaign_id FROM campaign_investigations WHERE scan_id = ANY(?::uuid[]))
      GROUP BY c.id, c.name`,
    [[...scanIds], [...scanIds]],
  );
  return rows.rows as Array<{ campaign_id: string; name: string; scan_ids: string[]; domains: string[] }>;
}
