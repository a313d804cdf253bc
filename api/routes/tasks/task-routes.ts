import type Koa from 'koa';
import { z } from 'zod';
import type { Principal } from '../../../domain/accounts/roles';
import { anyTaskKindPolicy } from '../../../domain/tasks/task-kinds';
import { MAX_PROGRESS_NOTE_LENGTH, TASK_STATUSES } from '../../../domain/tasks/task-status';
import { addProgressNote, cancelTask, describeTask, findPlatformTask, type FailureLog, type PlatformTask } from '../../../services/tasks/task-service';
import { decideAccess } from '../../access-policy';
import type { AppDeps } from '../../app-deps';
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError } from '../../errors';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';

export const TaskAcceptedSchema = z
  .object({ task_id: z.string(), kind: z.string(), status: z.enum(TASK_STATUSES), status_url: z.string() })
  .meta({ id: 'TaskAccepted' });

const TaskSchema = z
  .object({
    task_id: z.string(),
    kind: z.string(),
    status: z.enum(TASK_STATUSES),
    progress: z
      .object({
        stage: z.string(),
        percent: z.number().nullable(),
        detail: z.record(z.string(), z.unknown()),
        notes: z.array(z.object({ at: z.string(), note: z.string(), percent: z.number().nullable() })),
        updated_at: z.string(),
      })
      .nullable(),
    last_failure: z
      .object({ activity: z.string(), attempt: z.number().int(), message: z.string(), at: z.string().nullable() })
      .nullable()
      .describe('While Temporal retries a failing step: its latest failed attempt (why the task is stuck)'),
    result: z.unknown(),
    error: z.object({ message: z.string(), type: z.string().optional() }).nullable(),
    started_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Task' });

const TaskParams = z.object({ task_id: z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/, 'a task id') });

const UpdateSchema = z
  .object({
    status: z.literal('cancelled').optional(),
    progress: z
      .object({ note: z.string().min(1).max(MAX_PROGRESS_NOTE_LENGTH), percent: z.number().min(0).max(100).optional() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((v) => v.status !== undefined || v.progress !== undefined, { message: 'give status "cancelled" or a progress note' });

/**
 * The platform task under this id that the caller may see. A workflow that is not a platform
 * task kind, and a task of a kind the caller may not read, answer the same 404 as a missing id.
 */
async function visibleTask(deps: AppDeps, taskId: string, principal: Principal | null): Promise<PlatformTask> {
  const task = await findPlatformTask(deps.temporal, taskId);
  if (!task || decideAccess(task.def.read, principal) !== 'allow') throw new NotFoundError(`no task ${taskId}`);
  return task;
}

const failureLog = (ctx: Koa.Context): FailureLog => ({ requestId: ctx.state.requestId, log: ctx.state.log });

export const taskRoutes = [
  defineRoute<{ task_id: string }>({
    method: 'get',
    path: '/tasks/{task_id}',
    summary: 'Poll a platform task (a Temporal workflow): status, progress, last failed attempt, result or error',
    tags: ['tasks'],
    // The union of the kinds' read policies (domain/tasks/task-kinds.ts); each task's kind is checked too.
    access: anyTaskKindPolicy('read'),
    request: { params: TaskParams },
    responses: {
      200: { description: 'The task', schema: TaskSchema },
      404: { description: 'No such task, or none the caller may see', schema: ErrorSchema },
    },
    handler: async ({ params, principal, deps, ctx }) => {
      const task = await visibleTask(deps, params.task_id, principal);
      return { body: await describeTask(deps.temporal, task, failureLog(ctx)) };
    },
  }),
  defineRoute<{ task_id: string }, Record<string, never>, z.infer<typeof UpdateSchema>>({
    method: 'post',
    path: '/tasks/{task_id}/update',
    summary: 'Cancel a task ({"status": "cancelled"}) or add a progress note ({"progress": {"note", "percent"}})',
    tags: ['tasks'],
    // Services need `tasks:update` here and the kind's write scope (e.g. reports:write) below.
    access: { roles: anyTaskKindPolicy('write').roles, scopes: ['tasks:update'] },
    request: { params: TaskParams, body: UpdateSchema },
    responses: {
      200: { description: 'The task after the update', schema: TaskSchema },
      403: { description: "The caller may see this task but not change tasks of its kind", schema: ErrorSchema },
      404: { description: 'No such task, or none the caller may see', schema: ErrorSchema },
      409: { description: 'The task has ended or not started, is a schedule (deactivate it instead), or holds its cap of progress notes', schema: ErrorSchema },
      503: { description: 'No worker took the note in time (its workers are down)', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps, ctx }) => {
      const task = await visibleTask(deps, params.task_id, principal);
      if (decideAccess(task.def.write, principal) !== 'allow') throw new ForbiddenError(`your roles or scopes do not allow changing ${task.def.kind} tasks`);
      const before = await describeTask(deps.temporal, task, failureLog(ctx));
      if (before.status !== 'running' && before.status !== 'queued') throw new ConflictError(`task ${params.task_id} is ${before.status}`);
      if (body.status === 'cancelled' && task.def.cancelRefusal) throw new ConflictError(task.def.cancelRefusal);
      if (body.progress) {
        if (before.status === 'queued') throw new ConflictError(`task ${params.task_id} has not started yet: it takes progress notes once a worker runs it`);
        const added = await addProgressNote(deps.temporal, params.task_id, body.progress.note, body.progress.percent ?? null);
        if (added.outcome === 'rejected') throw new ConflictError(added.message);
        if (added.outcome === 'ended') throw new ConflictError(`task ${params.task_id} has ended`);
        if (added.outcome === 'no-worker') {
          throw new ServiceUnavailableError(`no worker took the note for task ${params.task_id} within 5 s; it may still be added when one does`);
        }
      }
      if (body.status === 'cancelled') await cancelTask(deps.temporal, params.task_id);
      const after = await findPlatformTask(deps.temporal, params.task_id);
      return { body: await describeTask(deps.temporal, after ?? task, failureLog(ctx)) };
    },
  }),
];
