// Long-lived platform services that start with the workers: the Temporal Schedule of the
// scheduled-reports job. Safe to start from several processes at once.
import type { AppDeps } from '../api/app-deps';
import { ensureScheduledReportsJobSchedule } from '../services/scheduled-reports-job-schedule';

export interface BackgroundServices {
  stop(): Promise<void>;
}

export async function startBackgroundServices(deps: AppDeps): Promise<BackgroundServices> {
  const interval = deps.config.analytics.scheduled_report_check_interval_minutes;
  const outcome = await ensureScheduledReportsJobSchedule(deps.temporal, deps.config.temporal.task_queue, interval);
  deps.log.info({ schedule: 'scheduled-reports-job', every_minutes: interval, outcome }, 'managed scheduler ready');
  return { stop: async () => undefined };
}
