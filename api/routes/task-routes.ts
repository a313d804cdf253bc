import { z } from 'zod';
import { TASK_STATUSES } from '../../domain/tasks/task-status';
import { addProgressNote, cancelTask, describeTask } from '../../services/task-service';
import { ConflictError, NotFoundError } from '../errors';
import { defineRoute } from '../route-definition';
import { ErrorSchema } from '../schemas/common';

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
    progress: z.object({ note: z.string().min(1).max(1000), percent: z.number().min(0).max(100).optional() }).strict().optional(),
  })
  .strict()
  .refine((v) => v.status !== undefined || v.progress !== undefined, { message: 'give status "cancelled" or a progress note' });

export const taskRoutes = [
  defineRoute<{ task_id: string }>({
    method: 'get',
    path: '/tasks/{task_id}',
    summary: 'Poll a platform task (a Temporal workflow): status, progress, result or error',
    tags: ['tasks'],
    access: { roles: ['admin', 'analyst', 'reviewer'], scopes: ['tasks:update', 'reports:write', 'investigations:write', 'investigations:read'] },
    request: { params: TaskParams },
    responses: { 200: { description: 'The task', schema: TaskSchema }, 404: { description: 'No such task', schema: ErrorSchema } },
    handler: async ({ params, deps }) => {
      const task = await describeTask(deps.temporal, params.task_id);
      if (!task) throw new NotFoundError(`no task ${params.task_id}`);
      return { body: task };
    },
  }),
  defineRoute<{ task_id: string }, Record<string, never>, z.infer<typeof UpdateSchema>>({
    method: 'post',
    path: '/tasks/{task_id}/update',
    summary: 'Cancel a task ({"status": "cancelled"}) or add a progress note ({"progress": {"note", "percent"}})',
    tags: ['tasks'],
    access: { roles: ['admin', 'analyst'], scopes: ['tasks:update'] },
    request: { params: TaskParams, body: UpdateSchema },
    responses: {
      200: { description: 'The task after the update', schema: TaskSchema },
      404: { description: 'No such task', schema: ErrorSchema },
      409: { description: 'The task has ended, or is a schedule (deactivate it instead)', schema: ErrorSchema },
    },
    handler: async ({ params, body, deps }) => {
      const task = await describeTask(deps.temporal, params.task_id);
      if (!task) throw new NotFoundError(`no task ${params.task_id}`);
      if (task.status !== 'running' && task.status !== 'queued') throw new ConflictError(`task ${params.task_id} is ${task.status}`);
      if (body.status === 'cancelled' && task.kind === 'report-schedule') {
        throw new ConflictError('a report schedule is stopped with PUT /intelligence/scheduled-reports/{id}/deactivate');
      }
      if (body.progress && !(await addProgressNote(deps.temporal, params.task_id, body.progress.note, body.progress.percent ?? null))) {
        throw new ConflictError(`task ${params.task_id} has ended`);
      }
      if (body.status === 'cancelled') await cancelTask(deps.temporal, params.task_id);
      return { body: (await describeTask(deps.temporal, params.task_id))! };
    },
  }),
];
