// Reads of the entity explorer beyond the list: one entity's detail (risk explanation, linked cases,
// sightings per source kind), its activity buckets, its one-hop neighbourhood, indicators, and the
// quick search over entity values (pg_trgm). The busiest reads (detail, neighbours) answer in one
// round trip each: under load, round trips, not PostgreSQL's execution, are what a request costs.
import type { Knex } from 'knex';
import type { GraphEntityType, RelationshipKind } from '../../../domain/intelligence/entity-types';
import type { ActivityBucket } from '../../../domain/intelligence/entity-explorer';
import type { RiskFactorExplanation } from '../../../domain/intelligence/risk-score';
import { prepared } from '../../prepared-query';
import { textAsUuid } from '../../text-uuid';
import { INTEL_ENTITY_COLUMNS, type IntelEntityRow } from './intel-entity-repository';


export interface IntelEntityDetailRow extends IntelEntityRow {
  risk_explanation: RiskFactorExplanation[] | null;
  risk_computed_at: Date | null;
}

export interface SightingsBySource {
  source_kind: string;
  sightings: number;
  first_observed_at: Date;
  last_observed_at: Date;
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

/** The list's entity columns and the risk explanation (never the search vector). */
const ENTITY_COLUMNS = [...INTEL_ENTITY_COLUMNS, 'e.risk_explanation', 'e.risk_computed_at'].join(', ');

export interface IntelEntityDetail {
  entity: IntelEntityDetailRow;
  cases: LinkedCase[];
  sightings: SightingsBySource[];
}

/**
 * One entity with its sightings per source kind and its linked cases (as `linkedCases`, at most
 * `caseLimit`), by id or by natural key, in ONE round trip: the explorer's detail is its busiest read.
 */
export async function getIntelEntityDetail(
  knex: Knex,
  key: { id: string } | { type: GraphEntityType; value: string },
  caseLimit = 100,
): Promise<IntelEntityDetail | undefined> {
  const where = 'id' in key ? 'e.id = ?' : 'e.type = ? AND e.value = ?';
  const args = 'id' in key ? [key.id] : [key.type, key.value];
  const { rows } = await prepared(
    knex.raw(
    `SELECT ${ENTITY_COLUMNS}, s.j AS _sightings, c.j AS _cases
       FROM entities e
      CROSS JOIN LATERAL (
        SELECT COALESCE(json_agg(x ORDER BY x.source_kind), '[]'::json) AS j FROM (
          SELECT source_kind, COUNT(*)::int AS sightings, MIN(observed_at) AS first_observed_at, MAX(observed_at) AS last_observed_at
            FROM sightings WHERE entity_id = e.id GROUP BY source_kind) x
      ) s
      CROSS JOIN LATERAL (
        SELECT COALESCE(json_agg(json_build_object('id', y.id, 'title', y.title, 'status', y.status, 'campaign_id', y.campaign_id,
                 'loss_amount', y.loss_amount, 'loss_currency', y.loss_currency, 'via', y.via) ORDER BY y.created_at DESC, y.id DESC), '[]'::json) AS j
          FROM (
            SELECT c.id, c.title, c.status, c.campaign_id, c.loss_amount::text AS loss_amount, c.loss_currency::text AS loss_currency, c.created_at,
                   array_agg(DISTINCT h.via ORDER BY h.via) AS via
              FROM (
                SELECT ${textAsUuid('hs.source_id')} AS case_id, 'sighting' AS via FROM sightings hs WHERE hs.entity_id = e.id AND hs.source_kind = 'case'
                UNION ALL
                SELECT l.case_id, 'link' FROM case_links l WHERE l.target_type = 'entity' AND l.target_id = e.id::text
                UNION ALL
                SELECT i.case_id, 'intake' FROM sightings hi JOIN intakes i ON i.id = ${textAsUuid('hi.source_id')}
                 WHERE hi.entity_id = e.id AND hi.source_kind = 'intake' AND i.case_id IS NOT NULL
              ) h JOIN cases c ON c.id = h.case_id
             GROUP BY c.id
             ORDER BY c.created_at DESC, c.id DESC
             LIMIT ?
          ) y
      ) c
      WHERE ${where}`,
    [caseLimit, ...args],
  ),
  );
  const row = rows[0] as (IntelEntityDetailRow & { _sightings: Array<Omit<SightingsBySource, 'first_observed_at' | 'last_observed_at'> & { first_observed_at: string; last_observed_at: string }>; _cases: LinkedCase[] }) | undefined;
  if (!row) return undefined;
  const { _sightings, _cases, ...entity } = row;
  return {
    entity: entity as IntelEntityDetailRow,
    // json_agg writes timestamps as text: back to Dates, as every other read answers them.
    sightings: _sightings.map((x) => ({ ...x, first_observed_at: new Date(x.first_observed_at), last_observed_at: new Date(x.last_observed_at) })),
    cases: _cases,
  };
}

/** An entity's id and node fields by natural key. */
export async function entityNodeByValue(knex: Knex, type: GraphEntityType, value: string): Promise<GraphNodeRow | undefined> {
  return (await prepared(knex('entities').where({ type, value }).first('id', 'type', 'value', 'display_value', 'risk_score'))) as GraphNodeRow | undefined;
}

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

/**
 * The entity of a natural key, its heaviest edges (both directions, at most `limit`, heaviest first)
 * and the entities at their other ends, in ONE round trip; undefined when no such entity.
 */
export async function entityNeighborsByValue(
  knex: Knex,
  type: GraphEntityType,
  value: string,
  limit: number,
): Promise<{ entity: GraphNodeRow; edges: GraphEdgeRow[]; nodes: GraphNodeRow[] } | undefined> {
  const node = (alias: string) =>
    `json_build_object('id', ${alias}.id, 'type', ${alias}.type, 'value', ${alias}.value, 'display_value', ${alias}.display_value, 'risk_score', ${alias}.risk_score)`;
  const { rows } = await prepared(
    knex.raw(
    `WITH e AS (SELECT id, type, value, display_value, risk_score FROM entities WHERE type = ? AND value = ?),
     ed AS (
       SELECT x.* FROM e CROSS JOIN LATERAL (
         SELECT * FROM (
           (SELECT r.id, r.src_entity_id AS src, r.dst_entity_id AS dst, r.kind, r.weight FROM relationships r WHERE r.src_entity_id = e.id ORDER BY r.weight DESC LIMIT ?)
           UNION ALL
           (SELECT r.id, r.src_entity_id, r.dst_entity_id, r.kind, r.weight FROM relationships r WHERE r.dst_entity_id = e.id ORDER BY r.weight DESC LIMIT ?)
         ) u ORDER BY weight DESC, id LIMIT ?
       ) x
     )
     SELECT ${node('e')} AS entity,
            (SELECT COALESCE(json_agg(json_build_object('id', ed.id, 'src', ed.src, 'dst', ed.dst, 'kind', ed.kind, 'weight', ed.weight) ORDER BY ed.weight DESC, ed.id), '[]'::json) FROM ed) AS edges,
            (SELECT COALESCE(json_agg(${node('n')} ORDER BY n.id), '[]'::json) FROM entities n
              WHERE n.id IN (SELECT CASE WHEN ed.src = e.id THEN ed.dst ELSE ed.src END FROM ed)) AS nodes
       FROM e`,
    [type, value, limit, limit, limit],
  ),
  );
  return rows[0] as { entity: GraphNodeRow; edges: GraphEdgeRow[]; nodes: GraphNodeRow[] } | undefined;
}

export async function entityNodes(knex: Knex, ids: string[]): Promise<GraphNodeRow[]> {
  if (ids.length === 0) return [];
  // One parameter, not one placeholder per id (a graph asks for up to 2,000): the ids joined by
  // commas, which costs less to send than a text[] whose every element the driver escapes.
  return (await prepared(knex('entities').whereRaw("id = ANY(string_to_array(?, ',')::uuid[])", [ids.join(',')]).select('id', 'type', 'value', 'display_value', 'risk_score'))) as GraphNodeRow[];
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

/** An entity found by the quick search (searchEntities): its node fields, sightings and how it matched. */
export interface EntitySearchHit extends GraphNodeRow {
  match: 'exact' | 'prefix' | 'substring';
  sighting_count: number;
}

/**
 * Entities whose normalized value starts with or contains `term` (case-insensitive, through the
 * trigram index; terms of 3+ characters): exact first, then prefix, then substring, each by risk
 * then sightings. Bounded: at most `limit` prefix and 5 × `limit` substring candidates are ranked.
 */
export async function searchEntities(knex: Knex, term: string, opts: { type?: GraphEntityType; excludeTypes?: GraphEntityType[]; limit: number }): Promise<EntitySearchHit[]> {
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
  return rows as EntitySearchHit[];
}
