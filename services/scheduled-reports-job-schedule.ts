// The managed scheduler of the scheduled-reports job: a Temporal Schedule that starts
// scheduledReportsJobWorkflow every SVC_ANALYTICS__SCHEDULED_REPORT_CHECK_INTERVAL_MINUTES.
// Creating it is idempotent; a changed interval updates it.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { TypedSearchAttributes, type SearchAttributePair } from '@temporalio/common';
import { FIP_KIND, platformWorkflowLabels } from './platform-workflows';

export const JOB_SCHEDULE_ID = 'scheduled-reports-job';

function hasKind(attributes: SearchAttributePair[] | TypedSearchAttributes | undefined): boolean {
  const pairs = attributes instanceof TypedSearchAttributes ? attributes.getAll() : (attributes ?? []);
  return pairs.some((p) => p.key.name === FIP_KIND.name && p.value === 'scheduled-reports-job');
}

export async function ensureScheduledReportsJobSchedule(client: Client, taskQueue: string, intervalMinutes: number): Promise<'created' | 'updated' | 'unchanged'> {
  const action = {
    type: 'startWorkflow' as const,
    workflowType: 'scheduledReportsJobWorkflow',
    workflowId: 'scheduled-reports-job',
    taskQueue,
    args: [],
    // Every run the Schedule starts carries the platform's memo and search attributes.
    ...platformWorkflowLabels('scheduledReportsJobWorkflow', JOB_SCHEDULE_ID, 'Scheduled-reports reconciliation job'),
  };
  const spec = { intervals: [{ every: `${intervalMinutes} minutes` as const }] };
  try {
    await client.schedule.create({
      scheduleId: JOB_SCHEDULE_ID,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      memo: { purpose: 'scheduled-reports reconciliation (fip jobs scheduled-reports)' },
    });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  const handle = client.schedule.getHandle(JOB_SCHEDULE_ID);
  const current = await handle.describe();
  const every = current.spec.intervals?.[0]?.every;
  const currentQueue = current.action.type === 'startWorkflow' ? current.action.taskQueue : undefined;
  // Schedules created before the runs carried search attributes are updated to carry them.
  const labelled = current.action.type === 'startWorkflow' && hasKind(current.action.typedSearchAttributes);
  if (every === intervalMinutes * 60_000 && currentQueue === taskQueue && labelled) return 'unchanged';
  await handle.update((prev) => ({ ...prev, spec, action }));
  return 'updated';
}
