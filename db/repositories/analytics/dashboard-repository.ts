// Reads of the dashboards and widget views. The aggregations come from the materialized views of
// analytics-view-repository.ts (or, for the benchmark's baseline, their definitions run live); the
// few record lists (top entities, activity timeline, a country's entities) are indexed reads.
import type { Knex } from 'knex';
import { ACTIVITY_METRICS, type ActivityMetric } from '../../../domain/analytics/activity-metrics';
import { analyticsRelation, type AggregationSource } from './analytics-view-repository';

const num = (v: string | number | null | undefined) => Number(v ?? 0);

export interface DayWindow {
  /** Inclusive first day (YYYY-MM-DD, UTC). */
  since?: string;
  /** Inclusive last day (YYYY-MM-DD, UTC). */
  until?: string;
}

/** Totals per metric over a window of days (all time without one). */
export async function activityTotals(knex: Knex, source: AggregationSource, window: DayWindow = {}): Promise<Record<ActivityMetric, number>> {
  const rel = await analyticsRelation(knex, 'analytics_daily_activity', source);
  const q = knex.from(knex.raw(rel)).select('metric').sum({ n: 'n' }).groupBy('metric');
  if (window.since) q.where('day', '>=', window.since);
  if (window.until) q.where('day', '<=', window.until);
  const rows = (await q) as Array<{ metric: ActivityMetric; n: string }>;
  const out = Object.fromEntries(ACTIVITY_METRICS.map((m) => [m, 0])) as Record<ActivityMetric, number>;
  for (const r of rows) out[r.metric] = num(r.n);
  return out;
}

export type TrendBucket = 'day' | 'week' | 'month';

/** Per bucket start (YYYY-MM-DD) per metric; only buckets with activity. */
export async function activityTrend(knex: Knex, source: AggregationSource, metrics: readonly ActivityMetric[], bucket: TrendBucket, window: DayWindow): Promise<Array<{ metric: ActivityMetric; t: string; n: number }>> {
  const rel = await analyticsRelation(knex, 'analytics_daily_activity', source);
  const q = knex
    .from(knex.raw(rel))
    .select('metric', knex.raw(`to_char(date_trunc(?, day), 'YYYY-MM-DD') AS t`, [bucket]))
    .sum({ n: 'n' })
    .whereIn('metric', metrics)
    .groupBy('metric', 't')
    .orderBy([{ column: 'metric' }, { column: 't' }]);
  if (window.since) q.where('day', '>=', window.since);
  if (window.until) q.where('day', '<=', window.until);
  const rows = (await q) as Array<{ metric: ActivityMetric; t: string; n: string }>;
  return rows.map((r) => ({ metric: r.metric, t: r.t, n: num(r.n) }));
}

export type HeatmapSource = 'intakes' | 'sightings';

/** Counts per ISO weekday (1 = Monday) and UTC hour. */
export async function heatmapCells(knex: Knex, source: AggregationSource, of: HeatmapSource): Promise<Array<{ weekday: number; hour: number; n: number }>> {
  const rel = await analyticsRelation(knex, 'analytics_activity_heatmap', source);
  const rows = (await knex.from(knex.raw(rel)).where('source', of).select('weekday', 'hour', 'n')) as Array<{ weekday: number; hour: number; n: string }>;
  return rows.map((r) => ({ weekday: Number(r.weekday), hour: Number(r.hour), n: num(r.n) }));
}

/** Cases, open cases and campaigns per stored taxonomy path ('' = none). */
export async function taxonomyCounts(knex: Knex, source: AggregationSource): Promise<Array<{ taxonomy: string; cases: number; open_cases: number; campaigns: number }>> {
  const rel = await analyticsRelation(knex, 'analytics_taxonomy_counts', source);
  const rows = (await knex.from(knex.raw(rel)).select('*')) as Array<Record<string, string>>;
  return rows.map((r) => ({ taxonomy: r.taxonomy!, cases: num(r.cases), open_cases: num(r.open_cases), campaigns: num(r.campaigns) }));
}

/** Loss per stored taxonomy path and currency: amount as numeric text, never a float. */
export async function taxonomyLosses(knex: Knex, source: AggregationSource): Promise<Array<{ taxonomy: string; currency: string; amount: string; losses: number; cases: number }>> {
  const rel = await analyticsRelation(knex, 'analytics_taxonomy_loss', source);
  const rows = (await knex.from(knex.raw(rel)).select('taxonomy', 'currency', knex.raw('amount::text AS amount'), 'losses', 'cases')) as Array<Record<string, string>>;
  return rows.map((r) => ({ taxonomy: r.taxonomy!, currency: r.currency!.trim(), amount: r.amount!, losses: num(r.losses), cases: num(r.cases) }));
}

/**
 * Sums of numeric strings per key in PostgreSQL (exact decimal arithmetic): [{key, currency, amount}].
 * Used to roll losses up the taxonomy without floats.
 */
export async function sumDecimals(knex: Knex, rows: Array<{ key: string; currency: string; amount: string }>): Promise<Array<{ key: string; currency: string; amount: string }>> {
  if (rows.length === 0) return [];
  const r = await knex.raw<{ rows: Array<{ key: string; currency: string; amount: string }> }>(
    `SELECT key, currency, sum(amount::numeric)::numeric(38,2)::text AS amount
       FROM jsonb_to_recordset(?::jsonb) AS x(key text, currency text, amount text)
      GROUP BY key, currency ORDER BY key, currency`,
    [JSON.stringify(rows)],
  );
  return r.rows;
}

export async function entitySummary(knex: Knex, source: AggregationSource): Promise<Array<{ type: string; entities: number; high_risk: number; sightings: number }>> {
  const rel = await analyticsRelation(knex, 'analytics_entity_summary', source);
  const rows = (await knex.from(knex.raw(rel)).select('*').orderBy('type')) as Array<Record<string, string>>;
  return rows.map((r) => ({ type: r.type!, entities: num(r.entities), high_risk: num(r.high_risk), sightings: num(r.sightings) }));
}

export async function indicatorSummary(knex: Knex, source: AggregationSource): Promise<Array<{ category: string; tlp: string; indicators: number }>> {
  const rel = await analyticsRelation(knex, 'analytics_indicator_summary', source);
  const rows = (await knex.from(knex.raw(rel)).select('*').orderBy(['category', 'tlp'])) as Array<Record<string, string>>;
  return rows.map((r) => ({ category: r.category!, tlp: r.tlp!, indicators: num(r.indicators) }));
}

export async function countryEntities(knex: Knex, source: AggregationSource, country?: string): Promise<Array<{ country: string; type: string; entities: number; sightings: number; high_risk: number }>> {
  const rel = await analyticsRelation(knex, 'analytics_country_entities', source);
  const q = knex.from(knex.raw(rel)).select('*').orderBy(['country', 'type']);
  if (country) q.where('country', country);
  const rows = (await q) as Array<Record<string, string>>;
  return rows.map((r) => ({ country: r.country!.trim(), type: r.type!, entities: num(r.entities), sightings: num(r.sightings), high_risk: num(r.high_risk) }));
}

export async function countryIntakes(knex: Knex, source: AggregationSource, country?: string): Promise<Map<string, number>> {
  const rel = await analyticsRelation(knex, 'analytics_country_intakes', source);
  const q = knex.from(knex.raw(rel)).select('*');
  if (country) q.where('country', country);
  const rows = (await q) as Array<{ country: string; intakes: string }>;
  return new Map(rows.map((r) => [r.country.trim(), num(r.intakes)]));
}

/** Campaign counts per status (live: campaigns are few). */
export async function campaignStatusCounts(knex: Knex): Promise<Array<{ status: string; campaigns: number }>> {
  const rows = (await knex('campaigns').select('status').count({ n: '*' }).groupBy('status').orderBy('status')) as Array<{ status: string; n: string }>;
  return rows.map((r) => ({ status: r.status, campaigns: num(r.n) }));
}

export interface TopEntityRow {
  id: string;
  type: string;
  value: string;
  display_value: string;
  risk_score: number | null;
  sighting_count: number;
  last_seen_at: Date;
}

/** The riskiest entities (optionally of one country), for the record lists that non-researchers see. */
export async function topEntities(knex: Knex, limit: number, country?: string): Promise<TopEntityRow[]> {
  const q = knex('entities as e')
    .select('e.id', 'e.type', 'e.value', 'e.display_value', 'e.risk_score', 'e.sighting_count', 'e.last_seen_at')
    .orderByRaw('e.risk_score DESC NULLS LAST, e.sighting_count DESC, e.id')
    .limit(limit);
  if (country) q.join('entity_countries as ec', 'ec.entity_id', 'e.id').where('ec.country', country);
  return q;
}

export interface ActivityEvent {
  at: Date;
  kind: 'intake_received' | 'case_opened' | 'review_decided' | 'referral_created' | 'investigation_started' | 'campaign_created';
  record_type: string;
  record_id: string;
}

/** Each source's newest `:limit` events (at or after `:since` when `bounded`), for a merge by time. */
const TIMELINE_PARTS = (bounded: boolean) => {
  const w = (col: string) => (bounded ? `WHERE ${col} >= :since` : '');
  const and = (col: string) => (bounded ? `AND ${col} >= :since` : '');
  return `
    (SELECT created_at AS at, 'intake_received' AS kind, 'intake' AS record_type, id::text AS record_id FROM intakes ${w('created_at')} ORDER BY created_at DESC LIMIT :limit)
    UNION ALL (SELECT created_at, 'case_opened', 'case', id::text FROM cases ${w('created_at')} ORDER BY created_at DESC LIMIT :limit)
    UNION ALL (SELECT decided_at, 'review_decided', 'review', id::text FROM reviews WHERE decided_at IS NOT NULL ${and('decided_at')} ORDER BY decided_at DESC LIMIT :limit)
    UNION ALL (SELECT created_at, 'referral_created', 'lea_referral', id::text FROM lea_referrals ${w('created_at')} ORDER BY created_at DESC LIMIT :limit)
    UNION ALL (SELECT created_at, 'investigation_started', 'investigation', scan_id::text FROM investigations ${w('created_at')} ORDER BY created_at DESC LIMIT :limit)
    UNION ALL (SELECT created_at, 'campaign_created', 'campaign', id::text FROM campaigns ${w('created_at')} ORDER BY created_at DESC LIMIT :limit)`;
};

/** The platform's newest events across intakes, cases, reviews, referrals, investigations and campaigns. */
export async function activityEvents(knex: Knex, limit: number, since: Date | null): Promise<ActivityEvent[]> {
  const r = await knex.raw<{ rows: ActivityEvent[] }>(
    `SELECT * FROM (${TIMELINE_PARTS(since !== null)}) t ORDER BY at DESC, kind, record_id LIMIT :limit`,
    { limit, ...(since ? { since } : {}) },
  );
  return r.rows;
}

/** The same events counted per UTC day and kind (what researchers get: no record ids). */
export async function activityEventCounts(knex: Knex, since: Date): Promise<Array<{ day: string; kind: string; n: number }>> {
  const r = await knex.raw<{ rows: Array<{ day: string; kind: string; n: string }> }>(
    `SELECT to_char((at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, kind, count(*)::bigint AS n FROM (
       SELECT created_at AS at, 'intake_received' AS kind FROM intakes WHERE created_at >= :since
       UNION ALL SELECT created_at, 'case_opened' FROM cases WHERE created_at >= :since
       UNION ALL SELECT decided_at, 'review_decided' FROM reviews WHERE decided_at >= :since
       UNION ALL SELECT created_at, 'referral_created' FROM lea_referrals WHERE created_at >= :since
       UNION ALL SELECT created_at, 'investigation_started' FROM investigations WHERE created_at >= :since
       UNION ALL SELECT created_at, 'campaign_created' FROM campaigns WHERE created_at >= :since
     ) t GROUP BY 1, 2 ORDER BY 1, 2`,
    { since },
  );
  return r.rows.map((x) => ({ day: x.day, kind: x.kind, n: num(x.n) }));
}
