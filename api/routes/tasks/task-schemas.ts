// The tasks' request and response schemas: the answer of every POST that starts a task, a task's
// status, and the update (cancel, progress note).
import { z } from 'zod';
import { MAX_PROGRESS_NOTE_LENGTH, TASK_STATUSES } from '../../../domain/tasks/task-status';

export const TaskAcceptedSchema = z
  .object({ task_id: z.string(), kind: z.string(), status: z.enum(TASK_STATUSES), status_url: z.string() })
  .meta({ id: 'TaskAccepted' });

export const TaskSchema = z
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

export const TaskParams = z.object({ task_id: z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/, 'a task id') });

export const TaskUpdateSchema = z
  .object({
    status: z.literal('cancelled').optional(),
    progress: z
      .object({ note: z.string().min(1).max(MAX_PROGRESS_NOTE_LENGTH), percent: z.number().min(0).max(100).optional() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((v) => v.status !== undefined || v.progress !== undefined, { message: 'give status "cancelled" or a progress note' });
