// The daily watch of sent takedowns, started by the `takedown-watch` Temporal Schedule every
// SVC_TAKEDOWN__CHECK_INTERVAL_HOURS: each sent takedown whose site is not yet down is checked
// (services/takedowns/takedown-watch.ts), one activity per site.
import { proxyActivities } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import { trackProgress } from '../tasks/task-progress';

const watch = proxyActivities<PlatformActivities>({ startToCloseTimeout: '3 minutes', retry: { maximumAttempts: 3 } });

export async function takedownWatchWorkflow(): Promise<{ checked: number; down: number; changed: number }> {
  trackProgress('listing');
  const ids = await watch.takedownsToWatch();
  const result = { checked: 0, down: 0, changed: 0 };
  trackProgress('checking');
  for (const takedownId of ids) {
    try {
      const check = await watch.checkTakedownSite({ takedownId });
      result.checked++;
      if (check.siteStatus === 'down') result.down++;
      if (check.siteStatus === 'changed') result.changed++;
    } catch {
      // One site that cannot be checked does not stop the others; the next run tries it again.
    }
  }
  return result;
}
