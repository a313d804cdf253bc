// Long-lived platform services that start with the workers: the Temporal Schedules of the
// scheduled-reports job, the analytics refresh, the watchlist alerts, the campaign suggestions and the takedown watch (safe to start from several processes at
// once), and the inbound SMTP receiver of persona mail (./persona-mail-receiver.ts).
import type { AppDeps } from '../api/app-deps';
import { ensureAnalyticsRefreshSchedule } from '../services/analytics/analytics-refresh';
import { ensureWatchlistAlertsSchedule } from '../services/alerts/watchlist-alerts-schedule';
import { ensureScheduledReportsJobSchedule } from '../services/reports/scheduled-reports-job-schedule';
import { ensureCampaignSuggestionsSchedule } from '../services/similarity/suggestion-schedule';
import { ensureTakedownWatchSchedule } from '../services/takedowns/takedown-watch-schedule';
import { startPersonaMailReceiver } from './persona-mail-receiver';

export interface BackgroundServices {
  /** Where the persona mail receiver listens (`host:port`), or null when it is off. */
  mailReceiver: string | null;
  stop(): Promise<void>;
}

export async function startBackgroundServices(deps: AppDeps): Promise<BackgroundServices> {
  const interval = deps.config.analytics.scheduled_report_check_interval_minutes;
  const outcome = await ensureScheduledReportsJobSchedule(deps.temporal, deps.config.temporal.task_queue, interval);
  deps.log.info({ schedule: 'scheduled-reports-job', every_minutes: interval, outcome }, 'managed scheduler ready');
  const refreshEvery = deps.config.analytics.dashboard_refresh_interval_minutes;
  const refresh = await ensureAnalyticsRefreshSchedule(deps.temporal, deps.config.temporal.task_queue, refreshEvery);
  deps.log.info({ schedule: 'analytics-refresh', every_minutes: refreshEvery, outcome: refresh }, 'managed scheduler ready');
  const alertsEvery = deps.config.alerts.evaluate_interval_minutes;
  const alerts = await ensureWatchlistAlertsSchedule(deps.temporal, deps.config.temporal.task_queue, alertsEvery);
  deps.log.info({ schedule: 'watchlist-alerts', every_minutes: alertsEvery, outcome: alerts }, 'managed scheduler ready');
  const suggestEvery = deps.config.analytics.campaign_suggestions_interval_minutes;
  const suggestions = await ensureCampaignSuggestionsSchedule(deps.temporal, deps.config.temporal.task_queue, suggestEvery);
  deps.log.info({ schedule: 'campaign-suggestions', every_minutes: suggestEvery, outcome: suggestions }, 'managed scheduler ready');
  const watchEvery = deps.config.takedown.check_interval_hours;
  const watch = await ensureTakedownWatchSchedule(deps.temporal, deps.config.temporal.task_queue, watchEvery);
  deps.log.info({ schedule: 'takedown-watch', every_hours: watchEvery, outcome: watch }, 'managed scheduler ready');
  const mail = await startPersonaMailReceiver(deps);
  return {
    mailReceiver: mail ? `${mail.host.includes(':') ? `[${mail.host}]` : mail.host}:${mail.port}` : null,
    stop: async () => {
      await mail?.close();
    },
  };
}
