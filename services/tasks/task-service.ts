// Platform tasks are Temporal workflows of the kinds in domain/tasks/task-kinds.ts: their status
// combines the workflow's description with its `progress` query; updates cancel one or add a
// progress note (a workflow Update whose validator enforces the note cap before history).
//
// Use cases:
// - getTask: a task the caller may read (any other id, kind or caller: 404), described
// - updateTask: cancel a task or add a progress note, with the kind's write rule and state checks
// - findPlatformTask / describeTask: the task under an id, and its caller-safe description
// - cancelTask / addProgressNote: the two Temporal calls an update makes
import {
  WorkflowFailedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
  type WorkflowExecutionDescription,
} from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, TimeoutFailure, optionalTsToDate } from '@temporalio/common';
import { decideAccess } from '../../domain/accounts/access-policy';
import type { Principal } from '../../domain/accounts/roles';
import type { Logger } from '../../infra/logger';
import { platformTaskKind, type TaskKindDef } from '../../domain/tasks/task-kinds';
import { publicFailureMessage, isPublicFailureType } from '../../domain/tasks/public-failures';
import { taskStatus, type ProgressNoteInput, type TaskProgress, type TaskStatus } from '../../domain/tasks/task-status';
import { progressNoteUpdate, progressQuery } from '../../workflows/tasks/task-progress';
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError } from '../errors';
import type { ServiceDeps } from '../service-deps';

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

/** What POST /tasks/{task_id}/update asks: cancel, and/or add a progress note. */
export interface TaskUpdate {
  status?: 'cancelled';
  progress?: { note: string; percent?: number };
}

/**
 * The platform task under this id that the caller may see. A workflow that is not a platform
 * task kind, and a task of a kind the caller may not read, answer the same 404 as a missing id.
 */
async function visibleTask(client: Client, principal: Principal | null, taskId: string): Promise<PlatformTask> {
  const task = await findPlatformTask(client, taskId);
  if (!task || decideAccess(task.def.read, principal) !== 'allow') throw new NotFoundError(`no task ${taskId}`);
  return task;
}

/** The task as the caller may see it (404 when it may not). */
export async function getTask(deps: Pick<ServiceDeps, 'temporal'>, principal: Principal | null, taskId: string, where: FailureLog): Promise<TaskView> {
  return describeTask(deps.temporal, await visibleTask(deps.temporal, principal, taskId), where);
}

/**
 * Cancels the task and/or adds a progress note, then answers it as it is now. 403 when the caller
 * may see the task but not change tasks of its kind; 409 when it has ended or not started (a note
 * needs a running worker), its kind refuses cancelling, or the workflow refuses the note; 503 when
 * no worker took the note in time.
 */
export async function updateTask(
  deps: Pick<ServiceDeps, 'temporal'>,
  principal: Principal | null,
  taskId: string,
  update: TaskUpdate,
  where: FailureLog,
): Promise<TaskView> {
  const client = deps.temporal;
  const task = await visibleTask(client, principal, taskId);
  if (decideAccess(task.def.write, principal) !== 'allow') throw new ForbiddenError(`your roles or scopes do not allow changing ${task.def.kind} tasks`);
  const before = await describeTask(client, task, where);
  if (before.status !== 'running' && before.status !== 'queued') throw new ConflictError(`task ${taskId} is ${before.status}`);
  if (update.status === 'cancelled' && task.def.cancelRefusal) throw new ConflictError(task.def.cancelRefusal);
  if (update.progress) {
    if (before.status === 'queued') throw new ConflictError(`task ${taskId} has not started yet: it takes progress notes once a worker runs it`);
    const added = await addProgressNote(client, taskId, update.progress.note, update.progress.percent ?? null);
    if (added.outcome === 'rejected') throw new ConflictError(added.message);
    if (added.outcome === 'ended') throw new ConflictError(`task ${taskId} has ended`);
    if (added.outcome === 'no-worker') {
      throw new ServiceUnavailableError(`no worker took the note for task ${taskId} within 5 s; it may still be added when one does`);
    }
  }
  if (update.status === 'cancelled') await cancelTask(client, taskId);
  const after = await findPlatformTask(client, taskId);
  return describeTask(client, after ?? task, where);
}
