// Platform tasks are Temporal workflows of the kinds in domain/tasks/task-kinds.ts: their status
// combines the workflow's description with its `progress` query; updates cancel one or add a
// progress note (a workflow Update whose validator enforces the note cap before history).
import {
  WorkflowFailedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
  type WorkflowExecutionDescription,
} from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, TimeoutFailure, optionalTsToDate } from '@temporalio/common';
import type { Logger } from '../../infra/logger';
import { platformTaskKind, type TaskKindDef } from '../../domain/tasks/task-kinds';
import { publicFailureMessage, isPublicFailureType } from '../../domain/tasks/public-failures';
import { taskStatus, type ProgressNoteInput, type TaskProgress, type TaskStatus } from '../../domain/tasks/task-status';
import { progressNoteUpdate, progressQuery } from '../../workflows/tasks/task-progress';

export interface TaskView {
  task_id: string;
  kind: string;
  status: TaskStatus;
  progress: TaskProgress | null;
  /** The latest failed attempt of an activity that Temporal is retrying; null when none is. */
  last_failure: { activity: string; attempt: number; message: string; at: string | null } | null;
  result: unknown;
  error: { message: string; type?: string } | null;
  started_at: string;
  updated_at: string;
}

/** A workflow that is one of the platform's tasks, with its kind. */
export interface PlatformTask {
  taskId: string;
  def: TaskKindDef;
  description: WorkflowExecutionDescription;
}

/** Where failures that callers must not read are logged (the API request's id and logger). */
export interface FailureLog {
  requestId: string;
  log: Logger;
}

const QUERY_DEADLINE_MS = 2000;
const UPDATE_DEADLINE_MS = 5000;

/** The task, or null when no workflow has this id or its workflow is not a platform task kind. */
export async function findPlatformTask(client: Client, taskId: string): Promise<PlatformTask | null> {
  let description;
  try {
    description = await client.workflow.getHandle(taskId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
  const def = platformTaskKind(description.type);
  return def ? { taskId, def, description } : null;
}

async function queryProgress(client: Client, taskId: string): Promise<TaskProgress | null> {
  try {
    return await client.connection.withDeadline(Date.now() + QUERY_DEADLINE_MS, () =>
      client.workflow.getHandle(taskId).query(progressQuery),
    );
  } catch {
    return null; // no worker to answer right now
  }
}

/** A caller-safe message: public failure types verbatim, anything else logged and replaced. */
function shownMessage(task: PlatformTask, step: string, type: string | null | undefined, message: string, failure: unknown, where: FailureLog): string {
  if (!isPublicFailureType(type)) {
    where.log.warn({ task_id: task.taskId, step, failure_type: type ?? null, err: failure }, 'task failure (details hidden from the caller)');
  }
  return publicFailureMessage(step, type, message, where.requestId);
}

function lastFailureOf(task: PlatformTask, where: FailureLog): TaskView['last_failure'] {
  const failing = (task.description.raw.pendingActivities ?? [])
    .filter((a) => a.lastFailure)
    .sort((a, b) => (b.attempt ?? 0) - (a.attempt ?? 0))[0];
  if (!failing?.lastFailure) return null;
  const activity = failing.activityType?.name ?? 'activity';
  const failure = failing.lastFailure;
  const type = failure.applicationFailureInfo?.type;
  const at = optionalTsToDate(failing.lastAttemptCompleteTime);
  return {
    activity,
    // `attempt` is the attempt now scheduled or running; the failure belongs to the one before.
    attempt: Math.max(1, (failing.attempt ?? 1) - 1),
    message: failure.timeoutFailureInfo
      ? `${activity} timed out`
      : shownMessage(task, activity, type, failure.message ?? '', { message: failure.message, stack: failure.stackTrace }, where),
    at: at ? at.toISOString() : null,
  };
}

function failureOf(task: PlatformTask, err: unknown, where: FailureLog): NonNullable<TaskView['error']> {
  let step = task.description.type;
  let root: unknown = err instanceof WorkflowFailedError ? err.cause : err;
  // Walk to the innermost cause; an activity on the way names the step that failed.
  while (root instanceof Error && root.cause instanceof Error) {
    if (root instanceof ActivityFailure) step = root.activityType;
    root = root.cause;
  }
  if (root instanceof ActivityFailure) step = root.activityType;
  if (root instanceof TimeoutFailure) return { message: `${step} timed out` };
  const type = root instanceof ApplicationFailure ? root.type : null;
  const message = root instanceof Error ? root.message : String(root);
  const shown = shownMessage(task, step, type, message, root, where);
  return { message: shown, ...(type && isPublicFailureType(type) ? { type } : {}) };
}

export async function describeTask(client: Client, task: PlatformTask, where: FailureLog): Promise<TaskView> {
  const { taskId, description: d } = task;
  const handle = client.workflow.getHandle(taskId);
  // A workflow that no worker has picked up yet has only its start and first task scheduled.
  const started = d.historyLength > 2;
  const status = taskStatus(d.status.name, started);
  const progress = status === 'running' || status === 'queued' ? await queryProgress(client, taskId) : null;
  let result: unknown = null;
  let error: TaskView['error'] = null;
  if (status === 'completed') result = await handle.result();
  if (status === 'failed' && d.status.name !== 'FAILED') {
    // Terminated or timed out: Temporal's own outcome, no failure of the platform's code to hide.
    error = { message: `workflow ${d.status.name.toLowerCase().replace(/_/g, ' ')}` };
  } else if (status === 'failed') {
    try {
      await handle.result();
      error = { message: 'workflow failed' };
    } catch (err) {
      error = failureOf(task, err, where);
    }
  }
  const updated = d.closeTime ?? (progress ? new Date(progress.updated_at) : (d.executionTime ?? d.startTime));
  return {
    task_id: taskId,
    kind: task.def.kind,
    status,
    progress,
    last_failure: status === 'running' ? lastFailureOf(task, where) : null,
    result,
    error,
    started_at: d.startTime.toISOString(),
    updated_at: updated.toISOString(),
  };
}

/** Requests cancellation (Temporal accepts this for an ended workflow too, and does nothing). */
export async function cancelTask(client: Client, taskId: string): Promise<void> {
  await client.workflow.getHandle(taskId).cancel();
}

export type NoteOutcome = { outcome: 'added' } | { outcome: 'rejected'; message: string } | { outcome: 'no-worker' } | { outcome: 'ended' };

/**
 * Adds a progress note through the workflow's `addProgressNote` Update. The workflow's validator
 * refuses it (nothing is written to the history) when the run already holds its cap of notes;
 * `ended` when the task closed meanwhile.
 */
export async function addProgressNote(client: Client, taskId: string, note: string, percent: number | null): Promise<NoteOutcome> {
  const input: ProgressNoteInput = { note, percent };
  try {
    await client.connection.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () =>
      client.workflow.getHandle(taskId).executeUpdate(progressNoteUpdate, { args: [input] }),
    );
    return { outcome: 'added' };
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      const cause = err.cause;
      return { outcome: 'rejected', message: cause instanceof ApplicationFailure && cause.type === 'ProgressNoteRejected' ? cause.message : 'the task refused the note' };
    }
    if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return { outcome: 'no-worker' };
    // The task ended between the caller's look and the note (found by the fuzzer's stateful phase).
    if (err instanceof WorkflowNotFoundError) return { outcome: 'ended' };
    throw err;
  }
}
