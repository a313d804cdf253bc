// A Temporal Schedule that starts one platform workflow every N minutes (the platform's managed
// jobs: the scheduled-reports reconciliation, the analytics refresh). Creating it is idempotent; a
// changed interval or task queue updates it; runs carry the platform's memo and search attributes.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { TypedSearchAttributes, type SearchAttributePair } from '@temporalio/common';
import { PLATFORM_TASK_KINDS } from '../../domain/tasks/task-kinds';
import { FIP_KIND, platformWorkflowLabels, workflowTypeOf, type PlatformWorkflow } from './platform-workflows';

export interface IntervalSchedule {
  scheduleId: string;
  /** The workflow each run starts; it takes no arguments. */
  workflow: Extract<PlatformWorkflow, () => Promise<unknown>>;
  /** The id of every run (Temporal appends the start time). */
  workflowId: string;
  title: string;
  purpose: string;
}

function hasKind(attributes: SearchAttributePair[] | TypedSearchAttributes | undefined, kind: string): boolean {
  const pairs = attributes instanceof TypedSearchAttributes ? attributes.getAll() : (attributes ?? []);
  return pairs.some((p) => p.key.name === FIP_KIND.name && p.value === kind);
}

export async function ensureIntervalSchedule(client: Client, def: IntervalSchedule, taskQueue: string, intervalMinutes: number): Promise<'created' | 'updated' | 'unchanged'> {
  const action = {
    type: 'startWorkflow' as const,
    workflowType: def.workflow,
    workflowId: def.workflowId,
    taskQueue,
    args: [] as [],
    ...platformWorkflowLabels(def.workflow, def.scheduleId, def.title),
  };
  const spec = { intervals: [{ every: `${intervalMinutes} minutes` as const }] };
  try {
    await client.schedule.create({
      scheduleId: def.scheduleId,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      memo: { purpose: def.purpose },
    });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  const handle = client.schedule.getHandle(def.scheduleId);
  const current = await handle.describe();
  const every = current.spec.intervals?.[0]?.every;
  const currentQueue = current.action.type === 'startWorkflow' ? current.action.taskQueue : undefined;
  // Schedules created before the runs carried search attributes are updated to carry them.
  const labelled = current.action.type === 'startWorkflow' && hasKind(current.action.typedSearchAttributes, PLATFORM_TASK_KINDS[workflowTypeOf(def.workflow)].kind);
  if (every === intervalMinutes * 60_000 && currentQueue === taskQueue && labelled) return 'unchanged';
  await handle.update((prev) => ({ ...prev, spec, action }));
  return 'updated';
}
