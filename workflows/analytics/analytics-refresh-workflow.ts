// The dashboards' refresh, started by the `analytics-refresh` Temporal Schedule every
// SVC_ANALYTICS__DASHBOARD_REFRESH_INTERVAL_MINUTES minutes: one idempotent activity.
import { proxyActivities } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import type { AnalyticsRefreshResult } from '../../services/analytics/analytics-refresh';
import { trackProgress } from '../tasks/task-progress';

const analytics = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

export async function analyticsRefreshWorkflow(): Promise<AnalyticsRefreshResult> {
  trackProgress('refreshing');
  return analytics.refreshAnalyticsViews();
}
