// The scheduled-reports job, started by a Temporal Schedule every
// SVC_ANALYTICS__SCHEDULED_REPORT_CHECK_INTERVAL_MINUTES minutes (the spec's managed scheduler).
import { proxyActivities } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import type { ScheduledReportsJobResult } from '../../services/reports/scheduled-reports-job';
import { trackProgress } from '../tasks/task-progress';

const job = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3 },
});

export async function scheduledReportsJobWorkflow(): Promise<ScheduledReportsJobResult> {
  trackProgress('running');
  return job.runScheduledReportsJob({ dryRun: false });
}
