// The dashboards' refresh after writes: the API signals `analyticsChanged` (signal-with-start, one
// workflow per task queue, services/analytics/analytics-refresh-trigger.ts) after each write to
// cases, intakes, reviews or referrals. The first signal opens a debounce window of
// `debounceSeconds`; every write inside it is covered by the one refresh that follows. Writes that
// arrive while the refresh runs open the next window; with nothing pending the workflow ends (the
// next write starts a new one). The 5-minute Schedule (analytics-refresh-workflow.ts) stays as the
// floor for writes made elsewhere (workers, the CLI).
import { condition, continueAsNew, defineSignal, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';

const analytics = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

/** Something the dashboards count changed. */
export const analyticsChangedSignal = defineSignal('analyticsChanged');

/** Refreshes before continuing as new, so that a busy day's history stays short. */
const REFRESHES_PER_RUN = 50;

export interface AnalyticsRefresherResult {
  refreshes: number;
  signals: number;
}

export async function analyticsRefresherWorkflow(debounceSeconds: number): Promise<AnalyticsRefresherResult> {
  let pending = 0;
  let signals = 0;
  let refreshes = 0;
  setHandler(analyticsChangedSignal, () => {
    pending++;
    signals++;
  });
  // Signal-with-start delivers the first signal before this line runs; a plain start waits briefly.
  await condition(() => pending > 0, '1 minute');
  while (pending > 0) {
    if (refreshes >= REFRESHES_PER_RUN) await continueAsNew<typeof analyticsRefresherWorkflow>(debounceSeconds);
    await sleep(debounceSeconds * 1000);
    pending = 0;
    await analytics.refreshAnalyticsViews();
    refreshes++;
  }
  return { refreshes, signals };
}
