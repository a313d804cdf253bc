// The watchlist alerts, started by the `watchlist-alerts` Temporal Schedule every
// SVC_ALERTS__EVALUATE_INTERVAL_MINUTES: evaluate the rules, then deliver what is due (new alerts
// and retries whose backoff has passed).
import { proxyActivities } from '@temporalio/workflow';
import type { AlertDeliveryResult, WatchEvaluationResult } from '../../activities/alerts/watchlist-alert-activities';
import type { PlatformActivities } from '../../activities';
import { trackProgress } from '../tasks/task-progress';

const alerts = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

export async function watchlistAlertsWorkflow(): Promise<{ evaluation: WatchEvaluationResult; delivery: AlertDeliveryResult }> {
  trackProgress('evaluating');
  const evaluation = await alerts.evaluateWatchlists();
  trackProgress('delivering');
  const delivery = await alerts.deliverDueAlerts();
  return { evaluation, delivery };
}
