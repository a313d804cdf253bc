// Long-lived platform services that start with the workers: the Temporal Schedule of the
// scheduled-reports job and of the analytics refresh. Safe to start from several processes at once.
import type { AppDeps } from '../api/app-deps';
import { ensureAnalyticsRefreshSchedule } from '../services/analytics/analytics-refresh';
import { ensureScheduledReportsJobSchedule } from '../services/reports/scheduled-reports-job-schedule';

export interface BackgroundServices {
  stop(): Promise<void>;
}

export async function startBackgroundServices(deps: AppDeps): Promise<BackgroundServices> {
  const interval = deps.config.analytics.scheduled_report_check_interval_minutes;
  const outcome = await ensureScheduledReportsJobSchedule(deps.temporal, deps.config.temporal.task_queue, interval);
  deps.log.info({ schedule: 'scheduled-reports-job', every_minutes: interval, outcome }, 'managed scheduler ready');
  const refreshEvery = deps.config.analytics.dashboard_refresh_interval_minutes;
  const refresh = await ensureAnalyticsRefreshSchedule(deps.temporal, deps.config.temporal.task_queue, refreshEvery);
  deps.log.info({ schedule: 'analytics-refresh', every_minutes: refreshEvery, outcome: refresh }, 'managed scheduler ready');
  return { stop: async () => undefined };
}
