// Request and response schemas of the dashboards and widget views (chart-ready JSON), and the scam
// taxonomy's (a path in requests of the case and campaign routes, the tree of GET /taxonomy).
// Every answer carries `as_of`: when the precomputed aggregations it reads were last refreshed.
import { z } from 'zod';
import { ACTIVITY_METRICS, type ActivityMetric } from '../../../domain/analytics/activity-metrics';
import { TAXONOMY_ENTRIES, type TaxonomyTreeNode } from '../../../domain/analytics/scam-taxonomy';

// ---- requests ---------------------------------------------------------------------------------

const DaySchema = z
  .string()
  .regex(/^(19|2\d)\d{2}-\d{2}-\d{2}$/, 'a UTC day, YYYY-MM-DD, years 1900-2999')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'not a calendar day');

export const WindowQuery = z.object({ since: DaySchema.optional().describe('first day (inclusive, UTC)'), until: DaySchema.optional().describe('last day (inclusive, UTC)') });

export const TrendQuery = WindowQuery.extend({
  metric: z
    .string()
    .optional()
    .describe(`comma-separated metrics (default all): ${ACTIVITY_METRICS.join(', ')}`)
    .transform((v, ctx) => {
      if (v === undefined || v === '') return [...ACTIVITY_METRICS];
      const list = [...new Set(v.split(',').map((s) => s.trim()))];
      const bad = list.filter((m) => !(ACTIVITY_METRICS as readonly string[]).includes(m));
      if (bad.length) {
        ctx.addIssue({ code: 'custom', message: `unknown metric ${bad.join(', ')}; known: ${ACTIVITY_METRICS.join(', ')}` });
        return z.NEVER;
      }
      return list as ActivityMetric[];
    }),
  bucket: z.enum(['day', 'week', 'month']).default('day'),
});

export const HeatmapQuery = z.object({ source: z.enum(['intakes', 'sightings']).default('intakes').describe('intakes by received time, or sightings by observed time (UTC)') });
export const CountryParam = z.object({ country: z.string().regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code').describe('ISO 3166-1 alpha-2, e.g. GB') });
export const TimelineQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  since: z.string().datetime({ offset: true }).optional().describe('only events at or after this instant (ISO 8601)'),
});

// ---- the scam taxonomy ------------------------------------------------------------------------

const PATHS = TAXONOMY_ENTRIES.map((e) => e.path) as [string, ...string[]];

/** A node of the scam taxonomy by path (`investment/crypto/pig-butchering`); anything else is a 400. */
export const TaxonomyPathSchema = z.enum(PATHS).describe('a path of the scam taxonomy (GET /taxonomy)');

/** A node as a caller sees it: the case count null for researchers when too few victims stand behind it. */
type ViewedTaxonomyNode = Omit<TaxonomyTreeNode, 'cases' | 'children'> & { cases: number | null; children: ViewedTaxonomyNode[] };

export const TaxonomyNodeSchema: z.ZodType<ViewedTaxonomyNode> = z
  .object({
    path: z.string(),
    slug: z.string(),
    label: z.string(),
    depth: z.number().int(),
    cases: z.number().int().nullable().describe('cases tagged with this node or any node below it; ' + 'null for researchers when fewer distinct victims than SVC_EXPORTS__MIN_GROUP_SIZE stand behind it'),
    campaigns: z.number().int().describe('campaigns tagged with this node or any node below it'),
    get children() {
      return z.array(TaxonomyNodeSchema);
    },
  })
  .meta({ id: 'TaxonomyNode' });

export const TaxonomySchema = z
  .object({
    as_of: z.string(),
    nodes: z.array(TaxonomyNodeSchema),
    unclassified: z.object({ cases: z.number().int().nullable(), campaigns: z.number().int() }).describe('cases and campaigns with no (or an unknown) taxonomy path'),
  })
  .meta({ id: 'Taxonomy' });

// ---- dashboards and widgets -------------------------------------------------------------------

const AsOf = z.string().describe('when the aggregations behind this answer were last refreshed (ISO 8601 UTC)');
const Amount = z.object({ currency: z.string(), amount: z.string().describe('numeric(20,2) as a decimal string; never a float') });

export const KpiCardSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    value: z.number().nullable().describe('a count; null on money cards'),
    amounts: z.array(Amount).optional().describe('money cards: one figure per currency'),
  })
  .meta({ id: 'KpiCard' });

export const EntityListItemSchema = z
  .object({
    id: z.string().uuid(),
    type: z.string(),
    value: z.string().describe('bank accounts masked for every role but analyst'),
    display_value: z.string(),
    risk_score: z.number().nullable(),
    sightings: z.number().int(),
    last_seen_at: z.string(),
  })
  .meta({ id: 'EntityListItem' });

const TopEntities = z.array(EntityListItemSchema).optional().describe('left out for researchers (aggregates only)');

export const ImpactKpisSchema = z.object({ as_of: AsOf, cards: z.array(KpiCardSchema) }).meta({ id: 'ImpactKpis' });

const LossItem = z.object({
  taxonomy: z.string(),
  label: z.string(),
  depth: z.number().int(),
  parent: z.string().nullable(),
  cases: z.number().int().nullable().describe('null for researchers when fewer distinct victims than SVC_EXPORTS__MIN_GROUP_SIZE stand behind it'),
  losses: z.array(Amount).describe('per currency; for researchers, only currencies whose losses rest on enough distinct victims'),
});
export const LossByTaxonomySchema = z
  .object({
    as_of: AsOf,
    currencies: z.array(z.string()),
    items: z.array(LossItem),
    suppressed_groups: z.number().int().describe('nodes left out for researchers: their losses rest on fewer distinct victims than SVC_EXPORTS__MIN_GROUP_SIZE (0 for other roles)'),
  })
  .meta({ id: 'LossByTaxonomy' });

const FunnelStage = z.object({
  stage: z.string(),
  label: z.string(),
  count: z.number().int().nullable().describe('null for researchers when fewer distinct victims than SVC_EXPORTS__MIN_GROUP_SIZE stand behind it'),
  conversion_from_previous: z.number().nullable().describe('count / previous stage count, 4 decimals; null for the first stage or a zero previous'),
});
export const PipelineFunnelSchema = z
  .object({ as_of: AsOf, window: z.object({ since: z.string().nullable(), until: z.string().nullable() }), stages: z.array(FunnelStage) })
  .meta({ id: 'PipelineFunnel' });

export const SankeySchema = z
  .object({
    as_of: AsOf,
    nodes: z.array(z.object({ id: z.string(), name: z.string(), depth: z.number().int() })),
    links: z.array(z.object({ source: z.string(), target: z.string(), value: z.number().int() })),
  })
  .meta({ id: 'TaxonomySankey' });

export const HeatmapSchema = z
  .object({
    as_of: AsOf,
    source: z.enum(['intakes', 'sightings']),
    weekdays: z.array(z.string()),
    hours: z.array(z.number().int()),
    matrix: z.array(z.array(z.number().int().nullable())).describe('7 rows (Monday..Sunday) x 24 columns (UTC hours); for researchers, a cell of fewer intakes than SVC_EXPORTS__MIN_GROUP_SIZE (but not zero) is null'),
    cells: z.array(z.object({ weekday: z.number().int().describe('ISO weekday, 1 = Monday'), hour: z.number().int(), value: z.number().int().nullable() })),
    max: z.number().int(),
  })
  .meta({ id: 'Heatmap' });

const Series = z.object({ metric: z.string(), points: z.array(z.object({ t: z.string().describe('bucket start, YYYY-MM-DD'), value: z.number().int().nullable().describe('for researchers, null for a bucket of fewer victims\' reports than SVC_EXPORTS__MIN_GROUP_SIZE (but not zero)') })) });
export const TrendSchema = z
  .object({ as_of: AsOf, bucket: z.enum(['day', 'week', 'month']), since: z.string(), until: z.string(), series: z.array(Series) })
  .meta({ id: 'Trend' });

export const CountrySummarySchema = z
  .object({
    as_of: AsOf,
    items: z.array(
      z.object({
        country: z.string().describe('ISO 3166-1 alpha-2'),
        entities: z.number().int(),
        high_risk: z.number().int(),
        sightings: z.number().int(),
        intakes: z.number().int().nullable().describe('intakes that mention an entity of this country; ' + 'null for researchers when fewer distinct victims than SVC_EXPORTS__MIN_GROUP_SIZE stand behind it'),
        by_type: z.record(z.string(), z.number().int()),
      }),
    ),
  })
  .meta({ id: 'CountrySummary' });

export const CountryDetailSchema = z
  .object({
    as_of: AsOf,
    country: z.string(),
    entities: z.number().int(),
    high_risk: z.number().int(),
    sightings: z.number().int(),
    intakes: z.number().int().nullable().describe('null for researchers when fewer distinct victims than SVC_EXPORTS__MIN_GROUP_SIZE stand behind it'),
    by_type: z.array(z.object({ type: z.string(), entities: z.number().int(), sightings: z.number().int(), high_risk: z.number().int() })),
    top_entities: TopEntities,
  })
  .meta({ id: 'CountryDetail' });

export const ActivityTimelineSchema = z
  .object({
    as_of: AsOf,
    items: z.array(z.object({ at: z.string(), kind: z.string(), record_type: z.string(), record_id: z.string() })).optional().describe('newest first; not for researchers'),
    buckets: z
      .array(z.object({ day: z.string(), kind: z.string(), count: z.number().int().nullable() }))
      .optional()
      .describe('researchers: counts per UTC day and kind; a count of intakes, cases, decisions or referrals below SVC_EXPORTS__MIN_GROUP_SIZE (but not zero) is null'),
  })
  .meta({ id: 'ActivityTimeline' });

export const WidgetCatalogSchema = z
  .object({
    widgets: z.array(z.object({ id: z.string(), title: z.string(), route: z.string(), chart: z.string(), precomputed: z.boolean() })),
  })
  .meta({ id: 'WidgetCatalog' });

const Count = z.number().int();
const Suppressible = z.number().int().nullable().describe('null for researchers when fewer distinct victims than SVC_EXPORTS__MIN_GROUP_SIZE stand behind it');

/** The automatic classification against analysts' corrections (services/classification/). */
export const ClassificationAccuracySchema = z
  .object({
    accuracy: z.number().min(0).max(1).nullable().describe('the share of corrected subjects whose automatic prediction matched the analyst (null before any correction)'),
    n: z.number().int().min(0).describe('corrected subjects with an automatic prediction'),
    as_of: z.string(),
  })
  .meta({ id: 'ClassificationAccuracy' });

export const IntelligenceDashboardSchema = z
  .object({
    as_of: AsOf,
    aggregate_only: z.boolean().describe('true for researchers: no record lists'),
    entities: z.object({
      total: Count,
      high_risk: Count,
      sightings: Count,
      by_type: z.array(z.object({ type: z.string(), entities: Count, high_risk: Count, sightings: Count })),
    }),
    indicators: z.object({
      total: Count,
      by_category: z.array(z.object({ category: z.string(), indicators: Count })),
      by_tlp: z.array(z.object({ tlp: z.string(), indicators: Count })),
    }),
    campaigns: z.object({ total: Count, by_status: z.array(z.object({ status: z.string(), campaigns: Count })) }),
    platform: z.object({ intakes: Suppressible, cases: Suppressible, investigations: Count, reviews: Suppressible, referrals: Suppressible }),
    classification_accuracy: ClassificationAccuracySchema.describe('the automatic classification against analysts\' corrections'),
    top_entities: TopEntities,
  })
  .meta({ id: 'IntelligenceDashboard' });

export const ImpactDashboardSchema = z
  .object({ as_of: AsOf, kpis: z.array(KpiCardSchema), currencies: z.array(z.string()), loss_by_taxonomy: z.array(LossItem) })
  .meta({ id: 'ImpactDashboard' });

export const DashboardOverviewSchema = z
  .object({
    as_of: AsOf,
    kpis: z.array(KpiCardSchema),
    funnel_30d: z.array(FunnelStage),
    trend_30d: z.array(Series),
    top_taxonomies: z.array(z.object({ taxonomy: z.string(), label: z.string(), cases: Count })),
  })
  .meta({ id: 'DashboardOverview' });

export const AnalyticsOverviewSchema = z
  .object({
    as_of: AsOf,
    totals: z.record(z.string(), Suppressible).describe('all-time counts per metric (for researchers, null for a count of victims\' reports resting on too few victims)'),
    intake_peak: z
      .object({ weekday: z.string(), hour: z.number().int(), intakes: Count })
      .nullable()
      .describe('the busiest weekday and UTC hour for reports (null for researchers when fewer reports than SVC_EXPORTS__MIN_GROUP_SIZE)'),
    top_countries: z.array(z.object({ country: z.string(), entities: Count, intakes: Suppressible })),
  })
  .meta({ id: 'AnalyticsOverview' });
