// The analytics refresh: classifies new entities by country (domain/analytics/entity-country.ts),
// then refreshes every materialized view of the dashboards CONCURRENTLY (readers are never
// blocked) and records each one's `as_of`. Idempotent: a retried or overlapping run rewrites the
// same classifications and refreshes again. Run by the `analytics-refresh` Temporal Schedule
// (every SVC_ANALYTICS__DASHBOARD_REFRESH_INTERVAL_MINUTES) and callable directly (tests, bench).
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { entityCountry } from '../../domain/analytics/entity-country';
import {
  ANALYTICS_VIEWS,
  refreshAnalyticsView,
  saveEntityCountries,
  unclassifiedEntities,
  type AnalyticsView,
} from '../../db/repositories/analytics/analytics-view-repository';
import { ensureIntervalSchedule } from '../tasks/interval-schedule';
import { analyticsRefreshWorkflow } from '../../workflows/analytics/analytics-refresh-workflow';

export const ANALYTICS_REFRESH_SCHEDULE_ID = 'analytics-refresh';

export interface AnalyticsRefreshResult {
  classified_entities: number;
  views: Array<{ view: AnalyticsView; as_of: string }>;
}

export async function refreshAnalytics(knex: Knex, opts: { batchSize?: number; onProgress?: () => void } = {}): Promise<AnalyticsRefreshResult> {
  const batchSize = opts.batchSize ?? 5000;
  let classified = 0;
  let after: string | null = null;
  for (;;) {
    const batch = await unclassifiedEntities(knex, after, batchSize);
    if (batch.length === 0) break;
    await saveEntityCountries(knex, batch.map((e) => ({ entity_id: e.id, found: entityCountry(e.type, e.value, e.attributes) })));
    classified += batch.length;
    after = batch[batch.length - 1]!.id;
    opts.onProgress?.();
  }
  const views: AnalyticsRefreshResult['views'] = [];
  for (const view of ANALYTICS_VIEWS) {
    views.push({ view, as_of: (await refreshAnalyticsView(knex, view)).toISOString() });
    opts.onProgress?.();
  }
  return { classified_entities: classified, views };
}

export async function ensureAnalyticsRefreshSchedule(client: Client, taskQueue: string, intervalMinutes: number): Promise<'created' | 'updated' | 'unchanged'> {
  return ensureIntervalSchedule(
    client,
    {
      scheduleId: ANALYTICS_REFRESH_SCHEDULE_ID,
      workflow: analyticsRefreshWorkflow,
      workflowId: 'analytics-refresh',
      title: 'Analytics dashboards refresh',
      purpose: 'refreshes the dashboards\' materialized views (services/analytics/analytics-refresh.ts)',
    },
    taskQueue,
    intervalMinutes,
  );
}
