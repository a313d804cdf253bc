// The precomputed aggregations of the dashboards (migration 20261122002400): refreshing the
// materialized views, when each was refreshed (`as_of`), the entity-country classification they
// read, and — for the benchmark's baseline — the same aggregation computed live from the view's own
// definition (pg_get_viewdef), so that both paths run one query text.
import type { Knex } from 'knex';
import { COUNTRY_ENTITY_TYPES, type EntityCountry } from '../../../domain/analytics/entity-country';

export const ANALYTICS_VIEWS = [
  'analytics_daily_activity',
  'analytics_activity_heatmap',
  'analytics_taxonomy_counts',
  'analytics_taxonomy_loss',
  'analytics_entity_summary',
  'analytics_indicator_summary',
  'analytics_country_entities',
  'analytics_country_intakes',
  'analytics_taxonomy_victims',
] as const;
export type AnalyticsView = (typeof ANALYTICS_VIEWS)[number];

/** `view`: read the materialized view (what the API does); `live`: run its definition now (the benchmark's baseline). */
export type AggregationSource = 'view' | 'live';

const definitions = new Map<string, string>();

/** A FROM item for `view`: the view itself, or its defining query as a subquery under the same name. */
export async function analyticsRelation(knex: Knex, view: AnalyticsView, source: AggregationSource): Promise<string> {
  if (source === 'view') return view;
  let sql = definitions.get(view);
  if (!sql) {
    const r = await knex.raw<{ rows: Array<{ def: string }> }>('SELECT pg_get_viewdef(?::regclass) AS def', [view]);
    sql = r.rows[0]!.def.trim().replace(/;$/, '');
    definitions.set(view, sql);
  }
  return `(${sql}) AS ${view}`;
}

/**
 * When the given views were last refreshed: the oldest of them (an answer is as fresh as its
 * stalest input). `live` answers now.
 */
export async function analyticsAsOf(knex: Knex, views: readonly AnalyticsView[], source: AggregationSource = 'view'): Promise<Date> {
  if (source === 'live') return new Date();
  const row = await knex('analytics_view_refreshes').whereIn('view_name', views).min<{ min: Date | null }>('refreshed_at as min').first();
  return row?.min ?? new Date(0);
}

/**
 * Refreshes one view without blocking readers (CONCURRENTLY, needs the unique index) and records
 * the time the refresh started as its `as_of`: the data is at least that fresh. Idempotent; two
 * refreshes of one view at once queue on PostgreSQL's lock.
 */
export async function refreshAnalyticsView(knex: Knex, view: AnalyticsView): Promise<Date> {
  const started = (await knex.raw<{ rows: Array<{ now: Date }> }>('SELECT clock_timestamp() AS now')).rows[0]!.now;
  await knex.raw(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${view}`);
  await knex('analytics_view_refreshes')
    .insert({ view_name: view, refreshed_at: started })
    .onConflict('view_name')
    .merge({ refreshed_at: knex.raw('GREATEST(analytics_view_refreshes.refreshed_at, excluded.refreshed_at)') });
  return started;
}

export interface UnclassifiedEntity {
  id: string;
  type: string;
  value: string;
  attributes: Record<string, unknown>;
}

/** Entities of the country-bearing types with no entity_countries row yet, by id. */
export async function unclassifiedEntities(knex: Knex, afterId: string | null, limit: number): Promise<UnclassifiedEntity[]> {
  const q = knex('entities as e')
    .leftJoin('entity_countries as ec', 'ec.entity_id', 'e.id')
    .whereNull('ec.entity_id')
    .whereIn('e.type', COUNTRY_ENTITY_TYPES)
    .select('e.id', 'e.type', 'e.value', 'e.attributes')
    .orderBy('e.id')
    .limit(limit);
  if (afterId) q.where('e.id', '>', afterId);
  return q;
}

/** Stores classifications; a repeated run writes the same rows (idempotent). */
export async function saveEntityCountries(knex: Knex, rows: Array<{ entity_id: string; found: EntityCountry | null }>): Promise<void> {
  if (rows.length === 0) return;
  await knex('entity_countries')
    .insert(rows.map((r) => ({ entity_id: r.entity_id, country: r.found?.country ?? null, basis: r.found?.basis ?? null })))
    .onConflict('entity_id')
    .merge(['country', 'basis']);
}
