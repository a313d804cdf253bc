// Reads of the entity explorer beyond the list: one entity's detail (risk explanation, linked cases,
// sightings per source kind), its activity buckets, its one-hop neighbourhood, indicators, and the
// quick search over entity values (pg_trgm).
import type { Knex } from 'knex';
import type { GraphEntityType, RelationshipKind } from '../../domain/graph/entity-types';
import type { RiskFactorExplanation } from '../../domain/intelligence/risk-score';
import type { IntelEntityRow } from './intel-entity-repository';

const UUID_RE = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;
const asUuid = (col: string) => `(CASE WHEN ${col} ~* ${UUID_RE} THEN ${col}::uuid END)`;

export interface IntelEntityDetailRow extends IntelEntityRow {
  risk_explanation: RiskFactorExplanation[] | null;
  risk_computed_at: Date | null;
}

export async function getIntelEntity(knex: Knex, id: string): Promise<IntelEntityDetailRow | undefined> {
  return knex('entities').where({ id }).first() as Promise<IntelEntityDetailRow | undefined>;
}

export async function getIntelEntityByValue(knex: Knex, type: GraphEntityType, value: string): Promise<IntelEntityDetailRow | undefined> {
  return knex('entities').where({ type, value }).first() as Promise<IntelEntityDetailRow | undefined>;
}

export interface SightingsBySource {
  source_kind: string;
  sightings: number;
  first_observed_at: Date;
  last_observed_at: Date;
}

export async function sightingsBySource(knex: Knex, entityId: string): Promise<SightingsBySource[]> {
  return (await knex('sightings')
    .where({ entity_id: entityId })
    .groupBy('source_kind')
    .orderBy('source_kind')
    .select('source_kind', knex.raw('COUNT(*)::int AS sightings'), knex.raw('MIN(observed_at) AS first_observed_at'), knex.raw('MAX(observed_at) AS last_observed_at'))) as SightingsBySource[];
}

export interface LinkedCase {
  id: string;
  title: string;
  status: string;
  campaign_id: string | null;
  loss_amount: string | null;
  loss_currency: string | null;
  /** How the case reaches the entity: 'sighting' (the case mentions it), 'link' (case_links), 'intake' (an attached intake mentions it). */
  via: string[];
}

/** The cases that mention the entity, link it, or hold an intake that mentions it (at most `limit`, newest first). */
export async function linkedCases(knex: Knex, entityId: string, limit = 100): Promise<LinkedCase[]> {
  const { rows } = await knex.raw(
    `WITH hits AS (
       SELECT ${asUuid('s.source_id')} AS case_id, 'sighting' AS via FROM sightings s WHERE s.entity_id = ? AND s.source_kind = 'case'
       UNION ALL
       SELECT l.case_id, 'link' FROM case_links l WHERE l.target_type = 'entity' AND l.target_id = ?
       UNION ALL
       SELECT i.case_id, 'intake' FROM sightings s JOIN intakes i ON i.id = ${asUuid('s.source_id')}
        WHERE s.entity_id = ? AND s.source_kind = 'intake' AND i.case_id IS NOT NULL
     )
     SELECT c.id, c.title, c.status, c.campaign_id, c.loss_amount::text AS loss_amount, c.loss_currency::text AS loss_currency,
            array_agg(DISTINCT h.via ORDER BY h.via) AS via
       FROM hits h JOIN cases c ON c.id = h.case_id
      GROUP BY c.id
      ORDER BY c.created_at DESC, c.id DESC
      LIMIT ?`,
    [entityId, entityId, entityId, limit],
  );
  return rows as LinkedCase[];
}

export const ACTIVITY_BUCKETS = ['day', 'week', 'month'] as const;
export type ActivityBucket = (typeof ACTIVITY_BUCKETS)[number];

/** Sightings per bucket (UTC, weeks start on Monday) from the bucket holding `since` to the one holding `until`, zeros included. */
export async function entityActivity(knex: Knex, entityId: string, bucket: ActivityBucket, since: Date, until: Date): Promise<Array<{ t: Date; sightings: number }>> {
  const { rows } = await knex.raw(
    `WITH buckets AS (
       SELECT generate_series(date_trunc(?, ?::timestamptz AT TIME ZONE 'UTC'), date_trunc(?, ?::timestamptz AT TIME ZONE 'UTC'), ('1 ' || ?)::interval) AS b
     ),
     counts AS (
       SELECT date_trunc(?, observed_at AT TIME ZONE 'UTC') AS b, COUNT(*)::int AS n
         FROM sightings WHERE entity_id = ? AND observed_at >= date_trunc(?, ?::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
        GROUP BY 1
     )
     SELECT buckets.b AT TIME ZONE 'UTC' AS t, COALESCE(counts.n, 0) AS sightings
       FROM buckets LEFT JOIN counts ON counts.b = buckets.b ORDER BY buckets.b`,
    [bucket, since, bucket, until, bucket, bucket, entityId, bucket, since],
  );
  return rows as Array<{ t: Date; sightings: number }>;
}

export interface GraphNodeRow {
  id: string;
  type: GraphEntityType;
  value: string;
  display_value: string;
  risk_score: number | null;
}

export interface GraphEdgeRow {
  id: string;
  src: string;
  dst: string;
  kind: RelationshipKind;
  weight: number;
}

/** The entity's heaviest edges (both directions, at most `limit`) and the entities at their other ends. */
export async function entityNeighbors(knex: Knex, entityId: string, limit: number): Promise<{ edges: GraphEdgeRow[]; nodes: GraphNodeRow[] }> {
  const { rows: edges } = (await knex.raw(
    `SELECT id, src, dst, kind, weight FROM (
       (SELECT r.id, r.src_entity_id AS src, r.dst_entity_id AS dst, r.kind, r.weight FROM relationships r WHERE r.src_entity_id = ? ORDER BY r.weight DESC LIMIT ?)
       UNION ALL
       (SELECT r.id, r.src_entity_id, r.dst_entity_id, r.kind, r.weight FROM relationships r WHERE r.dst_entity_id = ? ORDER BY r.weight DESC LIMIT ?)
     ) x ORDER BY weight DESC, id LIMIT ?`,
    [entityId, limit, entityId, limit, limit],
  )) as { rows: GraphEdgeRow[] };
  const ids = [...new Set(edges.map((e) => (e.src === entityId ? e.dst : e.src)))];
  const nodes = await entityNodes(knex, ids);
  return { edges, nodes };
}

export async function entityNodes(knex: Knex, ids: string[]): Promise<GraphNodeRow[]> {
  if (ids.length === 0) return [];
  return (await knex('entities').whereIn('id', ids).select('id', 'type', 'value', 'display_value', 'risk_score')) as GraphNodeRow[];
}

export interface IndicatorRow {
  entity_id: string;
  type: GraphEntityType;
  value: string;
  display_value: string;
  category: string;
  confidence: number;
  valid_from: Date;
  tlp: string;
  revision: string;
  created_at: Date;
  updated_at: Date;
  risk_score: number | null;
}

/** Indicators, highest confidence first (keyset on confidence, entity id). */
export async function listIndicators(
  knex: Knex,
  filters: { category?: string; minConfidence?: number },
  page: { limit: number; after?: { key: string; id: string } },
): Promise<{ rows: IndicatorRow[]; next: { key: string; id: string } | null }> {
  const q = indicatorQuery(knex).orderBy([
    { column: 'i.confidence', order: 'desc' },
    { column: 'i.entity_id', order: 'desc' },
  ]);
  if (filters.category) q.where('i.category', filters.category);
  if (filters.minConfidence !== undefined) q.where('i.confidence', '>=', filters.minConfidence);
  if (page.after) q.whereRaw('(i.confidence, i.entity_id) < (?::int, ?::uuid)', [page.after.key, page.after.id]);
  const raw = (await q.limit(page.limit + 1)) as IndicatorRow[];
  const rows = raw.slice(0, page.limit);
  const last = rows[rows.length - 1];
  return { rows, next: raw.length > page.limit && last ? { key: String(last.confidence), id: last.entity_id } : null };
}

export async function getIndicator(knex: Knex, entityId: string): Promise<IndicatorRow | undefined> {
  return (await indicatorQuery(knex).where('i.entity_id', entityId).first()) as IndicatorRow | undefined;
}

function indicatorQuery(knex: Knex): Knex.QueryBuilder {
  return knex('indicators as i')
    .join('entities as e', 'e.id', 'i.entity_id')
    .select('i.entity_id', 'e.type', 'e.value', 'e.display_value', 'i.category', 'i.confidence', 'i.valid_from', 'i.tlp', knex.raw('i.revision::text AS revision'), 'i.created_at', 'i.updated_at', 'e.risk_score');
}

export interface SearchHit extends GraphNodeRow {
  match: 'exact' | 'prefix' | 'substring';
  sighting_count: number;
}

/**
 * Entities whose normalized value starts with or contains `term` (case-insensitive, through the
 * trigram index; terms of 3+ characters): exact first, then prefix, then substring, each by risk
 * then sightings. Bounded: at most `limit` prefix and 5 × `limit` substring candidates are ranked.
 */
export async function searchEntities(knex: Knex, term: string, opts: { type?: GraphEntityType; excludeTypes?: GraphEntityType[]; limit: number }): Promise<SearchHit[]> {
  const escaped = term.replace(/[\\%_]/g, (c) => `\\${c}`);
  const conds: string[] = [];
  const args: Knex.RawBinding[] = [];
  if (opts.type) {
    conds.push('AND type = ?');
    args.push(opts.type);
  }
  if (opts.excludeTypes?.length) {
    conds.push('AND type <> ALL(CAST(? AS text[]))');
    args.push(opts.excludeTypes);
  }
  const where = conds.join(' ');
  const { rows } = await knex.raw(
    `SELECT id, type, value, display_value, risk_score, sighting_count, match FROM (
       SELECT DISTINCT ON (id) * FROM (
         (SELECT id, type, value, display_value, risk_score, sighting_count,
                 CASE WHEN lower(value) = lower(?) THEN 'exact' ELSE 'prefix' END AS match, CASE WHEN lower(value) = lower(?) THEN 0 ELSE 1 END AS rank
            FROM entities WHERE value ILIKE ? ${where} LIMIT ?)
         UNION ALL
         (SELECT id, type, value, display_value, risk_score, sighting_count, 'substring', 2
            FROM entities WHERE value ILIKE ? ${where} LIMIT ?)
       ) c ORDER BY id, rank
     ) hits
     ORDER BY rank, COALESCE(risk_score, -1) DESC, sighting_count DESC, value, id
     LIMIT ?`,
    [term, term, `${escaped}%`, ...args, opts.limit, `%${escaped}%`, ...args, opts.limit * 5, opts.limit],
  );
  return rows as SearchHit[];
}
