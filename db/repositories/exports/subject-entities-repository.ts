// What a per-case or per-campaign export holds (MISP events, and the campaigns of the STIX exports):
// the entities of a case and of every case of a campaign, reached however the case reaches them:
// - linked to the case (case_links, target_type entity);
// - sighted with the case as source;
// - sighted in its intakes and investigations, whether linked (case_links) or attached to it
//   (intakes.case_id, investigations.case_id: an investigation started in a case has no link row);
// - the wallets its investigations found (the wallets table, matched to their wallet entity);
// plus, for a campaign, its own entities (campaign_entities). Each entity once.
import type { Knex } from 'knex';
import type { TlpLabel } from '../../../domain/intelligence/indicators';

/** An entity of a case or campaign, with its indicator's marking when it has one. */
export interface SubjectEntityRow {
  id: string;
  type: string;
  value: string;
  attributes: Record<string, unknown>;
  first_seen_at: Date;
  last_seen_at: Date;
  risk_score: number | null;
  /** The indicator's TLP, category and confidence; null for entities without an indicator (phones, bank accounts...). */
  tlp: TlpLabel | null;
  category: string | null;
  confidence: number | null;
}

/**
 * SQL (a CTE body) of (campaign_id, case_id, entity_id) over the member cases `cases_sql` selects
 * (a query with columns id, campaign_id): every way a case reaches an entity, as the header says.
 */
function caseEntitiesSql(casesSql: string): string {
  return `
    WITH subject_cases AS (${casesSql}),
    sources AS (
      SELECT c.campaign_id, c.id AS case_id, cl.target_type AS kind, cl.target_id AS source_id
        FROM subject_cases c JOIN case_links cl ON cl.case_id = c.id AND cl.target_type IN ('intake', 'investigation')
      UNION SELECT c.campaign_id, c.id, 'intake', i.id::text FROM subject_cases c JOIN intakes i ON i.case_id = c.id
      UNION SELECT c.campaign_id, c.id, 'investigation', v.scan_id::text FROM subject_cases c JOIN investigations v ON v.case_id = c.id
      UNION SELECT c.campaign_id, c.id, 'case', c.id::text FROM subject_cases c
    )
    SELECT src.campaign_id, src.case_id, s.entity_id
      FROM sources src JOIN sightings s ON s.source_kind = src.kind AND s.source_id = src.source_id
    UNION
    SELECT src.campaign_id, src.case_id, e.id
      FROM sources src JOIN wallets w ON src.kind = 'investigation' AND w.scan_id = src.source_id
      JOIN entities e ON e.type = 'wallet' AND e.value = w.address
    UNION
    SELECT c.campaign_id, c.id, e.id
      FROM subject_cases c JOIN case_links cl ON cl.case_id = c.id AND cl.target_type = 'entity'
      JOIN entities e ON e.id::text = cl.target_id`;
}

/**
 * SQL (a query) of every campaign membership (campaign_id, entity_id), each pair once: the
 * campaign's own entities and its member cases' entities. For the STIX exports' `indicates`
 * relationships (db/repositories/exports/export-repository.ts).
 */
export const CAMPAIGN_MEMBERSHIP_SQL = `
  SELECT ce.campaign_id, ce.entity_id, ce.added_at FROM campaign_entities ce
  UNION ALL
  SELECT m.campaign_id, m.entity_id, min(c.created_at) AS added_at
    FROM (${caseEntitiesSql('SELECT id, campaign_id FROM cases WHERE campaign_id IS NOT NULL')}) m
    JOIN cases c ON c.id = m.case_id
   WHERE NOT EXISTS (SELECT 1 FROM campaign_entities ce WHERE ce.campaign_id = m.campaign_id AND ce.entity_id = m.entity_id)
   GROUP BY m.campaign_id, m.entity_id`;

const ENTITY_COLUMNS = `e.id, e.type, e.value, e.attributes, e.first_seen_at, e.last_seen_at, e.risk_score, i.tlp, i.category, i.confidence::int AS confidence`;

/** The entities of a case, by type and value. */
export async function caseSubjectEntities(knex: Knex, caseId: string): Promise<SubjectEntityRow[]> {
  const { rows } = await knex.raw<{ rows: SubjectEntityRow[] }>(
    `WITH m AS (${caseEntitiesSql('SELECT id, campaign_id FROM cases WHERE id = :caseId')}),
          d AS (SELECT DISTINCT entity_id FROM m)
     SELECT ${ENTITY_COLUMNS} FROM d JOIN entities e ON e.id = d.entity_id LEFT JOIN indicators i ON i.entity_id = e.id
      ORDER BY e.type, e.value`,
    { caseId },
  );
  return rows;
}

/** The entities of a campaign (its own and its cases'), by type and value. */
export async function campaignSubjectEntities(knex: Knex, campaignId: string): Promise<SubjectEntityRow[]> {
  const { rows } = await knex.raw<{ rows: SubjectEntityRow[] }>(
    `WITH m AS (${caseEntitiesSql('SELECT id, campaign_id FROM cases WHERE campaign_id = :campaignId')}),
          d AS (SELECT entity_id FROM m UNION SELECT entity_id FROM campaign_entities WHERE campaign_id = :campaignId)
     SELECT ${ENTITY_COLUMNS} FROM d JOIN entities e ON e.id = d.entity_id LEFT JOIN indicators i ON i.entity_id = e.id
      ORDER BY e.type, e.value`,
    { campaignId },
  );
  return rows;
}

/** The scam-taxonomy paths of a campaign and of its member cases (distinct, sorted). */
export async function campaignTaxonomies(knex: Knex, campaignId: string): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: Array<{ taxonomy: string }> }>(
    `SELECT taxonomy FROM campaigns WHERE id = :campaignId AND taxonomy IS NOT NULL
     UNION SELECT taxonomy FROM cases WHERE campaign_id = :campaignId AND taxonomy IS NOT NULL
     ORDER BY taxonomy`,
    { campaignId },
  );
  return rows.map((r) => r.taxonomy);
}

/** The latest change of a campaign's member cases (null without cases). */
export async function campaignCasesUpdatedAt(knex: Knex, campaignId: string): Promise<Date | null> {
  const row = (await knex('cases').where({ campaign_id: campaignId }).max({ at: 'updated_at' }).first()) as { at: Date | null } | undefined;
  return row?.at ?? null;
}

/** Every campaign id, oldest first (the MISP feed has one event per campaign). */
export async function allCampaignIds(knex: Knex): Promise<string[]> {
  return (await knex('campaigns').select('id').orderBy([{ column: 'created_at' }, { column: 'id' }])).map((r: { id: string }) => r.id);
}
