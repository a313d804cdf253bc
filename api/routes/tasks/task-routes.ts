// GET /tasks/{task_id} and POST /tasks/{task_id}/update: the HTTP side of services/tasks/task-service.ts.
import type Koa from 'koa';
import type { z } from 'zod';
import { anyTaskKindPolicy } from '../../../domain/tasks/task-kinds';
import { getTask, updateTask, type FailureLog } from '../../../services/tasks/task-service';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import { TaskParams, TaskSchema, TaskUpdateSchema } from './task-schemas';

/** Where failures hidden from the caller are logged: this request's id and logger. */
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
    handler: async ({ params, principal, deps, ctx }) => ({ body: await getTask(deps, principal, params.task_id, failureLog(ctx)) }),
  }),
  defineRoute<{ task_id: string }, Record<string, never>, z.infer<typeof TaskUpdateSchema>>({
    method: 'post',
    path: '/tasks/{task_id}/update',
    summary: 'Cancel a task ({"status": "cancelled"}) or add a progress note ({"progress": {"note", "percent"}})',
    tags: ['tasks'],
    // Services need `tasks:update` here and the kind's write scope (e.g. reports:write) below.
    access: { roles: anyTaskKindPolicy('write').roles, scopes: ['tasks:update'] },
    request: { params: TaskParams, body: TaskUpdateSchema },
    responses: {
      200: { description: 'The task after the update', schema: TaskSchema },
      403: { description: "The caller may see this task but not change tasks of its kind", schema: ErrorSchema },
      404: { description: 'No such task, or none the caller may see', schema: ErrorSchema },
      409: { description: 'The task has ended or not started, is a schedule (deactivate it instead), or holds its cap of progress notes', schema: ErrorSchema },
      503: { description: 'No worker took the note in time (its workers are down)', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps, ctx }) => ({ body: await updateTask(deps, principal, params.task_id, body, failureLog(ctx)) }),
  }),
];
