// The campaign suggestions' recomputation, started by the `campaign-suggestions` Temporal Schedule
// every SVC_ANALYTICS__CAMPAIGN_SUGGESTIONS_INTERVAL_MINUTES minutes (each investigation also
// recomputes them when its fingerprints are written): one idempotent activity.
import { proxyActivities } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import { trackProgress } from '../tasks/task-progress';

const similarity = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '30 minutes',
  retry: { maximumAttempts: 3 },
});

export async function campaignSuggestionsWorkflow(): Promise<{ open: number }> {
  trackProgress('recomputing');
  return similarity.recomputeCampaignSuggestions();
}
