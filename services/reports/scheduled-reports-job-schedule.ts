// The managed scheduler of the scheduled-reports job: a Temporal Schedule that starts
// scheduledReportsJobWorkflow every SVC_ANALYTICS__SCHEDULED_REPORT_CHECK_INTERVAL_MINUTES.
// Creating it is idempotent; a changed interval updates it.
import type { Client } from '@temporalio/client';
import { ensureIntervalSchedule } from '../tasks/interval-schedule';
import { scheduledReportsJobWorkflow } from '../../workflows/reports/scheduled-reports-job-workflow';

export const JOB_SCHEDULE_ID = 'scheduled-reports-job';

export async function ensureScheduledReportsJobSchedule(client: Client, taskQueue: string, intervalMinutes: number): Promise<'created' | 'updated' | 'unchanged'> {
  return ensureIntervalSchedule(
    client,
    {
      scheduleId: JOB_SCHEDULE_ID,
      workflow: scheduledReportsJobWorkflow,
      workflowId: 'scheduled-reports-job',
      title: 'Scheduled-reports reconciliation job',
      purpose: 'scheduled-reports reconciliation (fip jobs scheduled-reports)',
    },
    taskQueue,
    intervalMinutes,
  );
}
