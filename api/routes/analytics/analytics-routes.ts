// Dashboards (spec: /intelligence/dashboard, /impact/dashboard, /dashboard/overview,
// /analytics/overview, /taxonomy) and the widget views under /analytics/widgets/ (documented
// additions: the spec names the widget groups without paths). Every role may read them;
// researchers get aggregates only (no record ids or values), bank details are masked for all but
// analysts. Aggregations are read from materialized views refreshed by the analytics-refresh
// Schedule, so each answer carries `as_of`.
import type { z } from 'zod';
import type { Principal } from '../../../domain/accounts/roles';
import { analyticsOverview, dashboardOverview, impactDashboard, intelligenceDashboard, WIDGET_CATALOG } from '../../../services/analytics/analytics-dashboards';
import {
  activityTimeline,
  countryDetail,
  countrySummary,
  heatmap,
  impactKpis,
  lossByTaxonomy,
  pipelineFunnel,
  sankeyFlow,
  taxonomyWithCounts,
  trend,
  viewerOf,
} from '../../../services/analytics/analytics-widgets';
import { defineRoute } from '../../route-definition';
import {
  ActivityTimelineSchema,
  AnalyticsOverviewSchema,
  CountryDetailSchema,
  CountryParam,
  CountrySummarySchema,
  DashboardOverviewSchema,
  HeatmapQuery,
  HeatmapSchema,
  ImpactDashboardSchema,
  ImpactKpisSchema,
  IntelligenceDashboardSchema,
  LossByTaxonomySchema,
  PipelineFunnelSchema,
  SankeySchema,
  TaxonomySchema,
  TimelineQuery,
  TrendQuery,
  TrendSchema,
  WidgetCatalogSchema,
  WindowQuery,
} from './analytics-schemas';

/**
 * Dashboards are for every role; what a researcher sees is reduced to aggregates, and figures
 * resting on fewer distinct victims than SVC_EXPORTS__MIN_GROUP_SIZE are left out for them.
 */
export const DASHBOARD_READERS = ['admin', 'analyst', 'researcher', 'reviewer'] as const;

const viewer = (principal: Principal | null, deps: { config: { exports: { min_group_size: number } } }) => viewerOf(principal, deps.config.exports.min_group_size);

const get = <Q>(path: string, summary: string, schema: z.ZodType, handler: Parameters<typeof defineRoute<Record<string, never>, Q>>[0]['handler'], query?: z.ZodType<Q>) =>
  defineRoute<Record<string, never>, Q>({
    method: 'get',
    path,
    summary,
    tags: ['analytics'],
    access: { roles: DASHBOARD_READERS },
    ...(query ? { request: { query } } : {}),
    responses: { 200: { description: summary, schema } },
    handler,
  });

export const analyticsRoutes = [
  get('/intelligence/dashboard', 'Entity, indicator, campaign and platform KPIs (the riskiest entities for all but researchers)', IntelligenceDashboardSchema, async ({ principal, deps }) => ({
    body: await intelligenceDashboard(deps.knex, viewerOf(principal, deps.config.exports.min_group_size), 'view'),
  })),
  get('/impact/dashboard', 'Platform KPI cards and loss by taxonomy (per currency, exact decimals)', ImpactDashboardSchema, async ({ principal, deps }) => ({
    body: await impactDashboard(deps.knex, 'view', viewer(principal, deps)),
  })),
  get('/dashboard/overview', 'Dashboard overview: KPI cards, the last 30 days\' funnel and daily trend, the top scam types', DashboardOverviewSchema, async ({ principal, deps }) => ({
    body: await dashboardOverview(deps.knex, 'view', viewer(principal, deps)),
  })),
  get('/analytics/overview', 'Analytics overview: all-time totals, the intake peak hour, the top countries', AnalyticsOverviewSchema, async ({ principal, deps }) => ({
    body: await analyticsOverview(deps.knex, 'view', viewer(principal, deps)),
  })),
  get('/taxonomy', 'The scam taxonomy tree with case and campaign counts per node (rolled up to the parents)', TaxonomySchema, async ({ principal, deps }) => ({
    body: await taxonomyWithCounts(deps.knex, 'view', viewer(principal, deps)),
  })),
  get('/analytics/widgets/dashboard', 'Dashboard widgets: the twelve widget groups and the route of each', WidgetCatalogSchema, async () => ({
    body: { widgets: WIDGET_CATALOG.map((w) => ({ ...w })) },
  })),
  get('/analytics/widgets/impact-kpis', 'Impact KPI cards', ImpactKpisSchema, async ({ principal, deps }) => ({ body: await impactKpis(deps.knex, 'view', viewer(principal, deps)) })),
  get('/analytics/widgets/loss-by-taxonomy', 'Loss by taxonomy: per node (rolled up) and currency', LossByTaxonomySchema, async ({ principal, deps }) => ({
    body: await lossByTaxonomy(deps.knex, 'view', viewer(principal, deps)),
  })),
  get<z.infer<typeof WindowQuery>>(
    '/analytics/widgets/pipeline-funnel',
    'Pipeline funnel: intakes -> cases -> reviews -> referrals created in a window of days (all time without one)',
    PipelineFunnelSchema,
    async ({ query, principal, deps }) => ({ body: await pipelineFunnel(deps.knex, 'view', { since: query.since, until: query.until }, viewer(principal, deps)) }),
    WindowQuery,
  ),
  get('/analytics/widgets/taxonomy-sankey', 'Taxonomy Sankey flow: {nodes, links} from all cases down the taxonomy tree', SankeySchema, async ({ principal, deps }) => ({ body: await sankeyFlow(deps.knex, 'view', viewer(principal, deps)) })),
  get<z.infer<typeof HeatmapQuery>>('/analytics/widgets/heatmap', 'Heatmap grid: weekday x UTC hour of intakes or sightings', HeatmapSchema, async ({ query, principal, deps }) => ({ body: await heatmap(deps.knex, 'view', query.source, viewer(principal, deps)) }), HeatmapQuery),
  get<z.infer<typeof TrendQuery>>(
    '/analytics/widgets/trend',
    'Trend time-series per metric, bucketed by day, week (Monday) or month, zero-filled',
    TrendSchema,
    async ({ query, principal, deps }) => ({ body: await trend(deps.knex, 'view', query.metric, query.bucket, { since: query.since, until: query.until }, viewer(principal, deps)) }),
    TrendQuery,
  ),
  get('/analytics/widgets/countries', 'Country summary: entities, sightings and intakes per country (phone numbers, IBANs, ccTLDs)', CountrySummarySchema, async ({ principal, deps }) => ({
    body: await countrySummary(deps.knex, 'view', viewer(principal, deps)),
  })),
  defineRoute<z.infer<typeof CountryParam>>({
    method: 'get',
    path: '/analytics/widgets/countries/{country}',
    summary: 'Country detail: counts per entity type and (for all but researchers) the riskiest entities of one country',
    tags: ['analytics'],
    access: { roles: DASHBOARD_READERS },
    request: { params: CountryParam },
    responses: { 200: { description: 'The country (zeros when nothing points to it)', schema: CountryDetailSchema } },
    handler: async ({ params, principal, deps }) => ({ body: await countryDetail(deps.knex, 'view', params.country.toUpperCase(), viewerOf(principal, deps.config.exports.min_group_size)) }),
  }),
  get<z.infer<typeof TimelineQuery>>(
    '/analytics/widgets/activity-timeline',
    'Activity timeline: the newest intakes, cases, review decisions, referrals, investigations and campaigns (researchers: counts per day and kind)',
    ActivityTimelineSchema,
    async ({ query, principal, deps }) => ({ body: await activityTimeline(deps.knex, viewerOf(principal, deps.config.exports.min_group_size), { limit: query.limit, since: query.since ? new Date(query.since) : null }) }),
    TimelineQuery,
  ),
];
