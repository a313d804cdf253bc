// Platform tasks are Temporal workflows: their status combines the workflow's description with its
// `progress` query; updates cancel it or add progress notes (a signal).
import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { taskKind, taskStatus, type TaskProgress, type TaskStatus } from '../domain/tasks/task-status';

export interface TaskView {
  task_id: string;
  kind: string;
  status: TaskStatus;
  progress: TaskProgress | null;
  result: unknown;
  error: { message: string; type?: string } | null;
  started_at: string;
  updated_at: string;
}

const QUERY_DEADLINE_MS = 2000;

async function queryProgress(client: Client, taskId: string): Promise<TaskProgress | null> {
  try {
    return await client.connection.withDeadline(Date.now() + QUERY_DEADLINE_MS, () =>
      client.workflow.getHandle(taskId).query<TaskProgress>('progress'),
    );
  } catch {
    return null; // no worker to answer right now
  }
}

function failureOf(err: unknown): { message: string; type?: string } {
  if (err instanceof WorkflowFailedError) {
    const cause = err.cause as (Error & { type?: string; cause?: Error }) | undefined;
    const root = cause?.cause ?? cause;
    return { message: root?.message ?? err.message, ...(cause?.type ? { type: cause.type } : {}) };
  }
  return { message: err instanceof Error ? err.message : String(err) };
}

export async function describeTask(client: Client, taskId: string): Promise<TaskView | null> {
  const handle = client.workflow.getHandle(taskId);
  let d;
  try {
    d = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
  // A workflow that no worker has picked up yet has only its start and first task scheduled.
  const started = d.historyLength > 2;
  const status = taskStatus(d.status.name, started);
  const progress = status === 'running' || status === 'queued' ? await queryProgress(client, taskId) : null;
  let result: unknown = null;
  let error: TaskView['error'] = null;
  if (status === 'completed') result = await handle.result();
  if (status === 'failed') {
    try {
      await handle.result();
      error = { message: `workflow ${d.status.name.toLowerCase()}` };
    } catch (err) {
      error = failureOf(err);
    }
  }
  const updated = d.closeTime ?? (progress ? new Date(progress.updated_at) : (d.executionTime ?? d.startTime));
  return {
    task_id: taskId,
    kind: taskKind(d.type),
    status,
    progress,
    result,
    error,
    started_at: d.startTime.toISOString(),
    updated_at: updated.toISOString(),
  };
}

/**
 * Runs a signal; false when the workflow has ended (or vanished) in the meantime: a task seen
 * running a moment ago may complete before the signal reaches Temporal.
 */
async function whileOpen(action: () => Promise<unknown>): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** Requests cancellation (Temporal accepts this for an ended workflow too, and does nothing). */
export async function cancelTask(client: Client, taskId: string): Promise<void> {
  await client.workflow.getHandle(taskId).cancel();
}

/** Adds a progress note (a signal); false when the task has already ended. */
export async function addProgressNote(client: Client, taskId: string, note: string, percent: number | null): Promise<boolean> {
  return whileOpen(() => client.workflow.getHandle(taskId).signal('progressNote', { note, percent }));
}
