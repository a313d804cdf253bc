// The widget views of the analytics console: each answer is chart-ready JSON computed from the
// precomputed aggregations (or live, for the benchmark's baseline), with `as_of`. Researchers get
// aggregates only: record lists (ids and values) are left out of their answers.
//
// Use cases (the API's /analytics/widgets/* and GET /taxonomy):
// - viewerOf: who is asking, as the widgets need it (roles)
// - impactKpis, lossByTaxonomy, taxonomyWithCounts, sankeyFlow, heatmap, countrySummary, countryDetail
// - pipelineFunnel: the funnel over a window of days (422 when since is after until)
// - trend: series per metric over a window (defaults per bucket; 422 for a window too long)
// - activityTimeline: newest events, or counts per day and kind for researchers
import type { Knex } from 'knex';
import type { Principal, Role } from '../../domain/accounts/roles';
import type { ActivityMetric } from '../../domain/analytics/activity-metrics';
import { maskingFor } from '../../domain/masking/masking-policy';
import { showsFigure, suppressedCount, suppressedFigure, suppressSmallGroups, VICTIM_REPORT_METRICS } from '../../domain/analytics/small-group-suppression';
import { ALL_NODES, ANY_CASE, ANY_LOSS, taxonomyVictims } from '../../db/repositories/analytics/victim-repository';
import { TAXONOMY_ENTRIES, UNCLASSIFIED, taxonomyEntry, taxonomyLineage, taxonomySankey, taxonomyTree, type SankeyGraph, type TaxonomyTreeNode } from '../../domain/analytics/scam-taxonomy';
import { analyticsAsOf, type AggregationSource, type AnalyticsView } from '../../db/repositories/analytics/analytics-view-repository';
import {
  activityEventCounts,
  activityEvents,
  activityTotals,
  activityTrend,
  countryEntities,
  countryIntakes,
  entitySummary,
  heatmapCells,
  sumDecimals,
  taxonomyCounts,
  taxonomyLosses,
  topEntities,
  type DayWindow,
  type HeatmapSource,
  type TopEntityRow,
  type TrendBucket,
} from '../../db/repositories/analytics/dashboard-repository';
import { ValidationError } from '../errors';
import { rolesOf } from '../intelligence/intelligence-views';

/** Who is asking: researchers get aggregates only; bank details are visible to analysts only. */
export interface Viewer {
  roles: readonly Role[];
  /**
   * Figures resting on fewer distinct victims are left out (domain/analytics/small-group-suppression.ts):
   * SVC_EXPORTS__MIN_GROUP_SIZE for researchers, 0 for everyone else.
   */
  minVictims: number;
}

/** The viewer of a request; `minGroupSize` is SVC_EXPORTS__MIN_GROUP_SIZE. */
export const viewerOf = (p: Principal | null, minGroupSize: number): Viewer => {
  const roles = rolesOf(p);
  return { roles, minVictims: maskingFor(roles).aggregateOnly ? minGroupSize : 0 };
};

/** A caller who sees every figure (benchmarks, consistency checks). */
export const UNSUPPRESSED: Viewer = { roles: [], minVictims: 0 };

export type VictimCount = (node: string, currency: string) => number;

/**
 * How many distinct victims stand behind a taxonomy node's figures (ALL_NODES: the platform's),
 * for a viewer whose figures are suppressed; for anyone else, no query and no limit.
 */
export async function victimsOf(knex: Knex, source: AggregationSource, viewer: Viewer): Promise<VictimCount> {
  if (viewer.minVictims <= 1) return () => Number.POSITIVE_INFINITY;
  const lineage = TAXONOMY_ENTRIES.flatMap((e) => taxonomyLineage(e.path).map((node) => ({ path: e.path, node })));
  const rows = await taxonomyVictims(knex, source, lineage, UNCLASSIFIED);
  const by = new Map(rows.map((r) => [`${r.node}\u0000${r.currency}`, r.victims]));
  return (node, currency) => by.get(`${node}\u0000${currency}`) ?? 0;
}

export const aggregateOnly = (v: Viewer) => v.roles.includes('researcher') && !v.roles.some((r) => r === 'admin' || r === 'analyst' || r === 'reviewer');

const asOf = async (knex: Knex, views: AnalyticsView[], source: AggregationSource) => (await analyticsAsOf(knex, views, source)).toISOString();

export interface Amount {
  currency: string;
  amount: string;
}

/**
 * Platform-wide activity counts as the viewer may see them: a count of victims' reports (intakes,
 * and cases with what follows from them: reviews, decisions, referrals) is null when fewer distinct
 * victims than the viewer's threshold stand behind it; investigations, sightings and entities are
 * not about victims and stay.
 */
export function suppressedTotals<T extends Record<ActivityMetric, number>>(totals: T, victims: VictimCount, viewer: Viewer): Record<ActivityMetric, number | null> {
  const min = viewer.minVictims;
  const aboutCases = (n: number) => suppressedFigure(n, victims(ALL_NODES, ANY_CASE), min);
  return {
    ...totals,
    intakes: suppressedCount(totals.intakes, min),
    cases: aboutCases(totals.cases),
    reviews: aboutCases(totals.reviews),
    decisions: aboutCases(totals.decisions),
    referrals: aboutCases(totals.referrals),
  };
}

// ---- KPI cards --------------------------------------------------------------------------------

export interface KpiCard {
  id: string;
  label: string;
  /** A count; null for money cards, whose figures are in `amounts` (one per currency). */
  value: number | null;
  amounts?: Amount[];
}

/**
 * The platform's KPI cards. For a viewer with suppression, a figure about victims' reports (intakes,
 * cases and what follows from them, losses per currency) is null, or its currency left out, when
 * fewer distinct victims than the threshold stand behind it.
 */
export async function impactKpis(knex: Knex, source: AggregationSource, viewer: Viewer = UNSUPPRESSED): Promise<{ as_of: string; cards: KpiCard[] }> {
  const [totals, counts, losses, entities, victims, as_of] = await Promise.all([
    activityTotals(knex, source),
    taxonomyCounts(knex, source),
    taxonomyLosses(knex, source),
    entitySummary(knex, source),
    victimsOf(knex, source, viewer),
    asOf(knex, ['analytics_daily_activity', 'analytics_taxonomy_counts', 'analytics_taxonomy_loss', 'analytics_entity_summary', 'analytics_taxonomy_victims'], source),
  ]);
  const total = await sumDecimals(knex, losses.map((l) => ({ key: 'all', currency: l.currency, amount: l.amount })));
  const min = viewer.minVictims;
  const aboutCases = <T>(v: T) => suppressedFigure(v, victims(ALL_NODES, ANY_CASE), min);
  const cards: KpiCard[] = [
    // Each intake is one victim: the count is its own victim count.
    { id: 'intakes', label: 'Reports received', value: suppressedCount(totals.intakes, min) },
    { id: 'losses_recorded', label: 'Losses recorded (reports and cases)', value: suppressedFigure(losses.reduce((s, l) => s + l.losses, 0), victims(ALL_NODES, ANY_LOSS), min) },
    {
      id: 'total_loss',
      label: 'Total reported loss',
      value: null,
      amounts: total.filter((t) => showsFigure(victims(ALL_NODES, t.currency), min)).map((t) => ({ currency: t.currency, amount: t.amount })),
    },
    { id: 'cases', label: 'Cases', value: aboutCases(totals.cases) },
    { id: 'open_cases', label: 'Open cases', value: aboutCases(counts.reduce((s, c) => s + c.open_cases, 0)) },
    { id: 'reviews_decided', label: 'Reviews decided', value: aboutCases(totals.decisions) },
    { id: 'referrals', label: 'LEA referrals', value: aboutCases(totals.referrals) },
    { id: 'investigations', label: 'Sites investigated', value: totals.investigations },
    { id: 'entities', label: 'Entities in the graph', value: entities.reduce((s, e) => s + e.entities, 0) },
    { id: 'high_risk_entities', label: 'High-risk entities (risk ≥ 70)', value: entities.reduce((s, e) => s + e.high_risk, 0) },
  ];
  return { as_of, cards };
}

// ---- loss by taxonomy -------------------------------------------------------------------------

export interface LossByTaxonomyItem {
  taxonomy: string;
  label: string;
  depth: number;
  parent: string | null;
  /** Cases tagged with this node or below (all cases, with or without a loss); null when suppressed. */
  cases: number | null;
  losses: Amount[];
}

/**
 * Loss per currency per taxonomy node, rolled up to the parents (exact decimals); nodes without a
 * loss left out. For a viewer with suppression, so is a node whose losses rest on fewer distinct
 * victims than the threshold (counted in suppressed_groups), and a currency of a node resting on
 * fewer; a node's case count is null when its cases stand for fewer.
 */
export async function lossByTaxonomy(
  knex: Knex,
  source: AggregationSource,
  viewer: Viewer = UNSUPPRESSED,
): Promise<{ as_of: string; currencies: string[]; items: LossByTaxonomyItem[]; suppressed_groups: number }> {
  const [losses, counts, victims, as_of] = await Promise.all([
    taxonomyLosses(knex, source),
    taxonomyCounts(knex, source),
    victimsOf(knex, source, viewer),
    asOf(knex, ['analytics_taxonomy_loss', 'analytics_taxonomy_counts', 'analytics_taxonomy_victims'], source),
  ]);
  const rolled = await sumDecimals(knex, losses.flatMap((l) => taxonomyLineage(l.taxonomy).map((p) => ({ key: p, currency: l.currency, amount: l.amount }))));
  const caseTotals = taxonomyTree(counts.map((c) => ({ taxonomy: c.taxonomy, cases: c.cases, campaigns: 0 })));
  const caseCount = new Map<string, number>();
  const walk = (nodes: TaxonomyTreeNode[]) => nodes.forEach((n) => { caseCount.set(n.path, n.cases); walk(n.children); });
  walk(caseTotals.nodes);
  caseCount.set(UNCLASSIFIED, caseTotals.unclassified.cases);
  const min = viewer.minVictims;
  const shown = rolled.filter((r) => showsFigure(victims(r.key, r.currency), min));
  const byKey = new Map<string, Amount[]>();
  for (const r of shown) byKey.set(r.key, [...(byKey.get(r.key) ?? []), { currency: r.currency, amount: r.amount }]);
  const order = [...TAXONOMY_ENTRIES.map((e) => e.path), UNCLASSIFIED];
  const withLoss = order.filter((p) => rolled.some((r) => r.key === p));
  const { kept, suppressed } = suppressSmallGroups(withLoss, (p) => (byKey.has(p) ? victims(p, ANY_LOSS) : 0), min);
  const items = kept.map((p) => {
    const e = taxonomyEntry(p);
    const cases = suppressedFigure(caseCount.get(p) ?? 0, victims(p, ANY_CASE), min);
    return { taxonomy: p, label: e?.label ?? 'Unclassified', depth: e?.depth ?? 1, parent: e?.parent ?? null, cases, losses: byKey.get(p)! };
  });
  return { as_of, currencies: [...new Set(shown.map((r) => r.currency))].sort(), items, suppressed_groups: suppressed };
}

// ---- pipeline funnel --------------------------------------------------------------------------

export const FUNNEL_STAGES: ReadonlyArray<{ stage: ActivityMetric; label: string }> = [
  { stage: 'intakes', label: 'Reports received' },
  { stage: 'cases', label: 'Cases opened' },
  { stage: 'reviews', label: 'Reviews requested' },
  { stage: 'referrals', label: 'LEA referrals' },
];

function checkWindow(since: string | undefined, until: string | undefined): void {
  if (since && until && since > until) throw new ValidationError('since is after until', [{ path: 'query.since', message: 'must not be after until' }]);
}

/** The funnel; for a viewer with suppression, a stage counting fewer reports than the threshold is null (and so are the conversions it enters). */
export async function pipelineFunnel(knex: Knex, source: AggregationSource, window: DayWindow, viewer: Viewer = UNSUPPRESSED) {
  checkWindow(window.since, window.until);
  const [totals, as_of] = await Promise.all([activityTotals(knex, source, window), asOf(knex, ['analytics_daily_activity'], source)]);
  let previous: number | null | undefined;
  const stages = FUNNEL_STAGES.map(({ stage, label }) => {
    const count = suppressedCount(totals[stage], viewer.minVictims);
    const conversion: number | null = previous === undefined || previous === null || previous === 0 || count === null ? null : Math.round((count / previous) * 10_000) / 10_000;
    previous = count;
    return { stage, label, count, conversion_from_previous: conversion };
  });
  return { as_of, window: { since: window.since ?? null, until: window.until ?? null }, stages };
}

// ---- taxonomy tree and Sankey -----------------------------------------------------------------

/** A taxonomy node as a viewer sees it: its case count null when fewer victims than the threshold stand behind its cases. */
export type ViewedTreeNode = Omit<TaxonomyTreeNode, 'cases' | 'children'> & { cases: number | null; children: ViewedTreeNode[] };

export async function taxonomyWithCounts(knex: Knex, source: AggregationSource, viewer: Viewer = UNSUPPRESSED) {
  const [counts, victims, as_of] = await Promise.all([taxonomyCounts(knex, source), victimsOf(knex, source, viewer), asOf(knex, ['analytics_taxonomy_counts'], source)]);
  const tree = taxonomyTree(counts);
  const cases = (path: string, n: number) => (n === 0 ? 0 : suppressedFigure(n, victims(path, ANY_CASE), viewer.minVictims));
  const view = (n: TaxonomyTreeNode): ViewedTreeNode => ({ ...n, cases: cases(n.path, n.cases), children: n.children.map(view) });
  return { as_of, nodes: tree.nodes.map(view), unclassified: { ...tree.unclassified, cases: cases(UNCLASSIFIED, tree.unclassified.cases) } };
}

/** The Sankey flow; for a viewer with suppression, without the flows into nodes whose cases stand for fewer victims than the threshold. */
export async function sankeyFlow(knex: Knex, source: AggregationSource, viewer: Viewer = UNSUPPRESSED): Promise<SankeyGraph & { as_of: string }> {
  const [counts, victims, as_of] = await Promise.all([taxonomyCounts(knex, source), victimsOf(knex, source, viewer), asOf(knex, ['analytics_taxonomy_counts'], source)]);
  const graph = taxonomySankey(counts);
  const shown = (id: string) => id === 'all' || showsFigure(victims(id, ANY_CASE), viewer.minVictims);
  return { as_of, nodes: graph.nodes.filter((n) => shown(n.id)), links: graph.links.filter((l) => shown(l.target)) };
}

// ---- heatmap ----------------------------------------------------------------------------------

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** A 7 x 24 grid (rows Monday..Sunday, columns UTC hours 0..23), as a matrix and as cells. */
export async function heatmap(knex: Knex, source: AggregationSource, of: HeatmapSource, viewer: Viewer = UNSUPPRESSED) {
  const [all, as_of] = await Promise.all([heatmapCells(knex, source, of), asOf(knex, ['analytics_activity_heatmap'], source)]);
  // A cell of intakes is a group of victims: for a viewer with suppression, one below the threshold is null.
  const cells = all.map((c) => ({ ...c, n: of === 'intakes' ? suppressedCount(c.n, viewer.minVictims) : c.n }));
  const matrix: Array<Array<number | null>> = WEEKDAYS.map(() => Array.from({ length: 24 }, () => 0));
  for (const c of cells) matrix[c.weekday - 1]![c.hour] = c.n;
  return {
    as_of,
    source: of,
    weekdays: [...WEEKDAYS],
    hours: Array.from({ length: 24 }, (_, h) => h),
    matrix,
    cells: matrix.flatMap((row, d) => row.map((value, hour) => ({ weekday: d + 1, hour, value }))),
    max: Math.max(0, ...cells.map((c) => c.n ?? 0)),
  };
}

// ---- trend time-series ------------------------------------------------------------------------

function bucketStart(day: string, bucket: TrendBucket): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (bucket === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  if (bucket === 'month') d.setUTCDate(1);
  return d.toISOString().slice(0, 10);
}

/** Every bucket start from `since` to `until` (inclusive), so that a chart gets its zeros. */
export function bucketStarts(since: string, until: string, bucket: TrendBucket): string[] {
  const out: string[] = [];
  const d = new Date(`${bucketStart(since, bucket)}T00:00:00Z`);
  const end = new Date(`${until}T00:00:00Z`);
  while (d <= end) {
    out.push(d.toISOString().slice(0, 10));
    if (bucket === 'day') d.setUTCDate(d.getUTCDate() + 1);
    else if (bucket === 'week') d.setUTCDate(d.getUTCDate() + 7);
    else d.setUTCMonth(d.getUTCMonth() + 1);
  }
  return out;
}

const TREND_DEFAULT_DAYS = { day: 30, week: 7 * 12, month: 365 } as const;
const TREND_MAX_DAYS = { day: 731, week: 3660, month: 3660 } as const;

const dayOffset = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Series per metric from `since` to `until` (default: until today, over the bucket's default span). */
export async function trend(knex: Knex, source: AggregationSource, metrics: readonly ActivityMetric[], bucket: TrendBucket, days: DayWindow, viewer: Viewer = UNSUPPRESSED) {
  const until = days.until ?? new Date().toISOString().slice(0, 10);
  const since = days.since ?? dayOffset(until, -(TREND_DEFAULT_DAYS[bucket] - 1));
  checkWindow(since, until);
  if ((Date.parse(until) - Date.parse(since)) / 86_400_000 >= TREND_MAX_DAYS[bucket]) {
    throw new ValidationError('window too long', [{ path: 'query.since', message: `at most ${TREND_MAX_DAYS[bucket]} days for bucket=${bucket}` }]);
  }
  const window = { since, until };
  const [rows, as_of] = await Promise.all([activityTrend(knex, source, metrics, bucket, window), asOf(knex, ['analytics_daily_activity'], source)]);
  const starts = bucketStarts(window.since, window.until, bucket);
  const series = metrics.map((metric) => {
    const values = new Map(rows.filter((r) => r.metric === metric).map((r) => [r.t, r.n]));
    // A bucket of victims' reports below the threshold is null for a viewer with suppression.
    const shown = (n: number) => (VICTIM_REPORT_METRICS.has(metric) ? suppressedCount(n, viewer.minVictims) : n);
    return { metric, points: starts.map((t) => ({ t, value: shown(values.get(t) ?? 0) })) };
  });
  return { as_of, bucket, since: window.since, until: window.until, series };
}

// ---- countries --------------------------------------------------------------------------------

/** Per country: its entities, and the intakes pointing to it (each intake a victim: null when fewer than the viewer's threshold). */
export async function countrySummary(knex: Knex, source: AggregationSource, viewer: Viewer = UNSUPPRESSED) {
  const [rows, intakes, as_of] = await Promise.all([
    countryEntities(knex, source),
    countryIntakes(knex, source),
    asOf(knex, ['analytics_country_entities', 'analytics_country_intakes'], source),
  ]);
  const by = new Map<string, { country: string; entities: number; high_risk: number; sightings: number; intakes: number | null; by_type: Record<string, number> }>();
  const intakesOf = (country: string) => suppressedFigure(intakes.get(country) ?? 0, intakes.get(country) ?? 0, viewer.minVictims);
  for (const r of rows) {
    const c = by.get(r.country) ?? { country: r.country, entities: 0, high_risk: 0, sightings: 0, intakes: intakesOf(r.country), by_type: {} };
    c.entities += r.entities;
    c.high_risk += r.high_risk;
    c.sightings += r.sightings;
    c.by_type[r.type] = r.entities;
    by.set(r.country, c);
  }
  const items = [...by.values()].sort((a, b) => b.entities - a.entities || a.country.localeCompare(b.country));
  return { as_of, items };
}

export interface EntityListItem {
  id: string;
  type: string;
  value: string;
  display_value: string;
  risk_score: number | null;
  sightings: number;
  last_seen_at: string;
}

export function entityListItem(e: TopEntityRow, viewer: Viewer): EntityListItem {
  const masked = maskingFor(viewer.roles).value(e.type, e.value);
  return {
    id: e.id,
    type: e.type,
    value: masked,
    display_value: masked === e.value ? e.display_value : masked,
    risk_score: e.risk_score,
    sightings: Number(e.sighting_count),
    last_seen_at: e.last_seen_at.toISOString(),
  };
}

export async function countryDetail(knex: Knex, source: AggregationSource, country: string, viewer: Viewer) {
  const [rows, intakes, as_of] = await Promise.all([
    countryEntities(knex, source, country),
    countryIntakes(knex, source, country),
    asOf(knex, ['analytics_country_entities', 'analytics_country_intakes'], source),
  ]);
  const top = aggregateOnly(viewer) ? undefined : (await topEntities(knex, 20, country)).map((e) => entityListItem(e, viewer));
  return {
    as_of,
    country,
    entities: rows.reduce((s, r) => s + r.entities, 0),
    high_risk: rows.reduce((s, r) => s + r.high_risk, 0),
    sightings: rows.reduce((s, r) => s + r.sightings, 0),
    intakes: suppressedFigure(intakes.get(country) ?? 0, intakes.get(country) ?? 0, viewer.minVictims),
    by_type: rows.map(({ type, entities, sightings, high_risk }) => ({ type, entities, sightings, high_risk })),
    ...(top ? { top_entities: top } : {}),
  };
}

// ---- activity timeline ------------------------------------------------------------------------

/** Newest platform events (record ids) or, for researchers, their counts per day and kind. Live reads. */
export async function activityTimeline(knex: Knex, viewer: Viewer, opts: { limit: number; since: Date | null }) {
  const as_of = new Date().toISOString();
  if (aggregateOnly(viewer)) {
    const since = opts.since ?? new Date(Date.now() - 30 * 86_400_000);
    // A day's intakes, cases, decisions or referrals are a group of victims like any other.
    const aboutVictims = new Set(['intake_received', 'case_opened', 'review_decided', 'referral_created']);
    const count = (kind: string, n: number) => (aboutVictims.has(kind) ? suppressedCount(n, viewer.minVictims) : n);
    return { as_of, buckets: (await activityEventCounts(knex, since)).map((b) => ({ day: b.day, kind: b.kind, count: count(b.kind, b.n) })) };
  }
  const events = await activityEvents(knex, opts.limit, opts.since);
  return { as_of, items: events.map((e) => ({ at: e.at.toISOString(), kind: e.kind, record_type: e.record_type, record_id: e.record_id })) };
}
