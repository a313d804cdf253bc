// The `takedown-watch` Temporal Schedule: re-checks every sent takedown's site every
// SVC_TAKEDOWN__CHECK_INTERVAL_HOURS (services/takedowns/takedown-watch.ts).
import type { Client } from '@temporalio/client';
import { takedownWatchWorkflow } from '../../workflows/takedowns/takedown-watch-workflow';
import { ensureIntervalSchedule } from '../tasks/interval-schedule';

export const TAKEDOWN_WATCH_SCHEDULE_ID = 'takedown-watch';

export async function ensureTakedownWatchSchedule(client: Client, taskQueue: string, intervalHours: number): Promise<'created' | 'updated' | 'unchanged'> {
  return ensureIntervalSchedule(
    client,
    {
      scheduleId: TAKEDOWN_WATCH_SCHEDULE_ID,
      workflow: takedownWatchWorkflow,
      workflowId: 'takedown-watch',
      title: 'Takedown watch',
      purpose: 'checks each sent takedown\'s site until it is down (services/takedowns/takedown-watch.ts)',
    },
    taskQueue,
    intervalHours * 60,
  );
}
