// The dashboards: each composes the widget views (services/analytics/analytics-widgets.ts) into one answer
// with the oldest `as_of` of its parts. `source` is 'view' for the API and 'live' for the
// benchmark's baseline (the same aggregations computed from the base tables).
import type { Knex } from 'knex';
import { showsFigure } from '../../domain/analytics/small-group-suppression';
import type { AggregationSource } from '../../db/repositories/analytics/analytics-view-repository';
import { analyticsAsOf } from '../../db/repositories/analytics/analytics-view-repository';
import { classificationAccuracy } from '../classification/classification-service';
import { activityTotals, campaignStatusCounts, entitySummary, indicatorSummary, topEntities } from '../../db/repositories/analytics/dashboard-repository';
import {
  aggregateOnly,
  countrySummary,
  entityListItem,
  heatmap,
  impactKpis,
  lossByTaxonomy,
  pipelineFunnel,
  taxonomyWithCounts,
  suppressedTotals,
  trend,
  UNSUPPRESSED,
  victimsOf,
  WEEKDAYS,
  type Viewer,
} from './analytics-widgets';

const day = (d: Date) => d.toISOString().slice(0, 10);
const daysAgo = (n: number) => day(new Date(Date.now() - n * 86_400_000));
const oldest = (...isos: string[]) => isos.reduce((a, b) => (a < b ? a : b));

/** Entities, indicators, campaigns and platform KPIs; the riskiest entities for all but researchers. */
export async function intelligenceDashboard(knex: Knex, viewer: Viewer, source: AggregationSource) {
  const [entities, indicators, campaigns, all, victims, asOf, accuracy] = await Promise.all([
    entitySummary(knex, source),
    indicatorSummary(knex, source),
    campaignStatusCounts(knex),
    activityTotals(knex, source),
    victimsOf(knex, source, viewer),
    analyticsAsOf(knex, ['analytics_entity_summary', 'analytics_indicator_summary', 'analytics_daily_activity', 'analytics_taxonomy_victims'], source),
    classificationAccuracy(knex),
  ]);
  const totals = suppressedTotals(all, victims, viewer);
  const sumBy = <K extends string>(rows: Array<Record<K, string> & { indicators: number }>, key: K) => {
    const m = new Map<string, number>();
    for (const r of rows) m.set(r[key], (m.get(r[key]) ?? 0) + r.indicators);
    return [...m.entries()].map(([k, indicators]) => ({ [key]: k, indicators }) as Record<K, string> & { indicators: number });
  };
  const top = aggregateOnly(viewer) ? undefined : (await topEntities(knex, 10)).map((e) => entityListItem(e, viewer));
  return {
    as_of: asOf.toISOString(),
    aggregate_only: aggregateOnly(viewer),
    entities: {
      total: entities.reduce((s, e) => s + e.entities, 0),
      high_risk: entities.reduce((s, e) => s + e.high_risk, 0),
      sightings: entities.reduce((s, e) => s + e.sightings, 0),
      by_type: entities,
    },
    indicators: {
      total: indicators.reduce((s, i) => s + i.indicators, 0),
      by_category: sumBy(indicators, 'category'),
      by_tlp: sumBy(indicators, 'tlp'),
    },
    campaigns: { total: campaigns.reduce((s, c) => s + c.campaigns, 0), by_status: campaigns },
    platform: {
      intakes: totals.intakes,
      cases: totals.cases,
      investigations: totals.investigations,
      reviews: totals.reviews,
      referrals: totals.referrals,
    },
    // Live, not from the views: the corrections are few and the figure should move when one is made.
    classification_accuracy: accuracy,
    ...(top ? { top_entities: top } : {}),
  };
}

/** Platform KPI cards and loss by taxonomy (figures on too few victims suppressed for the viewer). */
export async function impactDashboard(knex: Knex, source: AggregationSource, viewer: Viewer = UNSUPPRESSED) {
  const [kpis, loss] = await Promise.all([impactKpis(knex, source, viewer), lossByTaxonomy(knex, source, viewer)]);
  return { as_of: oldest(kpis.as_of, loss.as_of), kpis: kpis.cards, currencies: loss.currencies, loss_by_taxonomy: loss.items };
}

/** The home page: KPI cards, the last 30 days' funnel and daily trend of intakes and cases, the top scam types. */
export async function dashboardOverview(knex: Knex, source: AggregationSource, viewer: Viewer = UNSUPPRESSED) {
  const window = { since: daysAgo(29), until: day(new Date()) };
  const [kpis, funnel, series, taxonomy] = await Promise.all([
    impactKpis(knex, source, viewer),
    pipelineFunnel(knex, source, window, viewer),
    trend(knex, source, ['intakes', 'cases'], 'day', window, viewer),
    taxonomyWithCounts(knex, source, viewer),
  ]);
  // Suppressed nodes (cases null) are not among the top ones.
  const counted = taxonomy.nodes.flatMap((n) => (n.cases !== null && n.cases > 0 ? [{ ...n, cases: n.cases }] : []));
  const topTaxonomies = counted
    .sort((a, b) => b.cases - a.cases || a.path.localeCompare(b.path))
    .slice(0, 5)
    .map((n) => ({ taxonomy: n.path, label: n.label, cases: n.cases }));
  return {
    as_of: oldest(kpis.as_of, funnel.as_of, series.as_of, taxonomy.as_of),
    kpis: kpis.cards,
    funnel_30d: funnel.stages,
    trend_30d: series.series,
    top_taxonomies: topTaxonomies,
  };
}

/** Analysts' overview: all-time activity totals, when reports arrive (heatmap peak), the top countries (suppressed per viewer). */
export async function analyticsOverview(knex: Knex, source: AggregationSource, viewer: Viewer = UNSUPPRESSED) {
  const [all, grid, countries, victims, asOf] = await Promise.all([
    activityTotals(knex, source),
    heatmap(knex, source, 'intakes', viewer),
    countrySummary(knex, source, viewer),
    victimsOf(knex, source, viewer),
    analyticsAsOf(knex, ['analytics_daily_activity', 'analytics_taxonomy_victims'], source),
  ]);
  const totals = suppressedTotals(all, victims, viewer);
  let peak: { weekday: string; hour: number; intakes: number } | null = null;
  for (const c of grid.cells) if (c.value !== null && c.value > 0 && (!peak || c.value > peak.intakes)) peak = { weekday: WEEKDAYS[c.weekday - 1]!, hour: c.hour, intakes: c.value };
  // The busiest hour's reports are a group of victims like any other.
  if (peak && !showsFigure(peak.intakes, viewer.minVictims)) peak = null;
  return {
    as_of: oldest(asOf.toISOString(), grid.as_of, countries.as_of),
    totals,
    intake_peak: peak,
    top_countries: countries.items.slice(0, 10).map(({ country, entities, intakes }) => ({ country, entities, intakes })),
  };
}

/** The twelve widget groups of the analytics console and where each is answered. */
export const WIDGET_CATALOG = [
  { id: 'entity-sparkline', title: 'Entity sparkline', route: '/intelligence/entities/{type}/{value}/activity', chart: 'line', precomputed: false },
  { id: 'dashboard-widgets', title: 'Dashboard widgets', route: '/analytics/widgets/dashboard', chart: 'catalog', precomputed: false },
  { id: 'impact-kpis', title: 'Impact KPI cards', route: '/analytics/widgets/impact-kpis', chart: 'cards', precomputed: true },
  { id: 'loss-by-taxonomy', title: 'Loss by taxonomy', route: '/analytics/widgets/loss-by-taxonomy', chart: 'bar', precomputed: true },
  { id: 'pipeline-funnel', title: 'Pipeline funnel', route: '/analytics/widgets/pipeline-funnel', chart: 'funnel', precomputed: true },
  { id: 'graph-png', title: 'Graph PNG export', route: '/intelligence/graph.png', chart: 'image', precomputed: false },
  { id: 'taxonomy-sankey', title: 'Taxonomy Sankey flow', route: '/analytics/widgets/taxonomy-sankey', chart: 'sankey', precomputed: true },
  { id: 'heatmap', title: 'Heatmap grid', route: '/analytics/widgets/heatmap', chart: 'matrix', precomputed: true },
  { id: 'trend', title: 'Trend time-series', route: '/analytics/widgets/trend', chart: 'line', precomputed: true },
  { id: 'country-summary', title: 'Country summary', route: '/analytics/widgets/countries', chart: 'choropleth', precomputed: true },
  { id: 'country-detail', title: 'Country detail', route: '/analytics/widgets/countries/{country}', chart: 'panel', precomputed: true },
  { id: 'activity-timeline', title: 'Activity timeline', route: '/analytics/widgets/activity-timeline', chart: 'timeline', precomputed: false },
] as const;
