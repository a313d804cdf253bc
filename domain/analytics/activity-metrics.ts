// What the platform's activity counts per day (the dashboards' totals, funnel and trend series).

export const ACTIVITY_METRICS = ['intakes', 'cases', 'reviews', 'decisions', 'referrals', 'investigations', 'sightings', 'entities'] as const;
export type ActivityMetric = (typeof ACTIVITY_METRICS)[number];
