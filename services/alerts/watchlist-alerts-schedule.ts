// The managed scheduler of the watchlist alerts: a Temporal Schedule that starts
// watchlistAlertsWorkflow every SVC_ALERTS__EVALUATE_INTERVAL_MINUTES (idempotent; a changed
// interval updates it).
import type { Client } from '@temporalio/client';
import { watchlistAlertsWorkflow } from '../../workflows/alerts/watchlist-alerts-workflow';
import { ensureIntervalSchedule } from '../tasks/interval-schedule';

export const WATCHLIST_ALERTS_SCHEDULE_ID = 'watchlist-alerts';

export async function ensureWatchlistAlertsSchedule(client: Client, taskQueue: string, intervalMinutes: number): Promise<'created' | 'updated' | 'unchanged'> {
  return ensureIntervalSchedule(
    client,
    {
      scheduleId: WATCHLIST_ALERTS_SCHEDULE_ID,
      workflow: watchlistAlertsWorkflow,
      workflowId: 'watchlist-alerts',
      title: 'Watchlist alerts',
      purpose: 'evaluates watchlist rules and delivers alerts (services/alerts/watch-evaluation.ts)',
    },
    taskQueue,
    intervalMinutes,
  );
}
