// Report schedules: creating one starts its workflow (after the row is committed), deactivating one cancels it. Used by the API
// and the CLI; the database write and the workflow stay consistent (see each function).
//
// Use cases:
// - createSchedule: store a schedule and start its workflow `report-schedule-<id>` (503 and nothing kept if Temporal refuses)
// - listSchedules: schedules, newest first (deactivated ones stay listed)
// - deactivateSchedule: keep the record, cancel the workflow (404 when there is no such schedule)
// - ensureScheduleWorkflow: start the workflow of an active schedule that has none (the scheduled-reports job)
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import {
  deactivateReportSchedule,
  deleteNewReportSchedule,
  insertReportSchedule,
  listReportSchedules,
  type ReportScheduleRow,
} from '../../db/repositories/reports/report-schedule-repository';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { anchorDayOf, defaultFirstRun, type Cadence } from '../../domain/reports/cadence';
import type { ReportOptions, ReportScope } from '../../domain/reports/report-request';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { reportScheduleWorkflow } from '../../workflows/reports/report-schedule-workflow';
import { NotFoundError, ServiceUnavailableError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { ReportScheduleRow };

export interface ScheduleServiceDeps {
  knex: Knex;
  temporal: Client;
  taskQueue: string;
}

/** The schedule use cases' deps from the process's (the task queue is the platform's own). */
export const scheduleServiceDeps = (deps: Pick<ServiceDeps, 'knex' | 'temporal' | 'config'>): ScheduleServiceDeps => ({
  knex: deps.knex,
  temporal: deps.temporal,
  taskQueue: deps.config.temporal.task_queue,
});

export interface NewScheduleInput {
  template: string;
  cadence: Cadence;
  scope: ReportScope;
  options: ReportOptions;
  recipients: string[];
  next_run_at?: string;
}

export const scheduleWorkflowId = (scheduleId: string) => `report-schedule-${scheduleId}`;

/** Starts the schedule's workflow; an already running one under the same id is kept (USE_EXISTING). */
async function startScheduleWorkflow(deps: ScheduleServiceDeps, scheduleId: string): Promise<void> {
  await startPlatformWorkflow(deps.temporal, {
    workflow: reportScheduleWorkflow,
    workflowId: scheduleWorkflowId(scheduleId),
    taskQueue: deps.taskQueue,
    args: [{ scheduleId }],
    recordId: scheduleId,
    title: `Report schedule ${scheduleId}`,
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}

/** Makes sure an active schedule has a running workflow (after a database restore, say). */
export async function ensureScheduleWorkflow(
  deps: ScheduleServiceDeps,
  scheduleId: string,
  dryRun: boolean,
): Promise<'running' | 'started' | 'would-start'> {
  try {
    const d = await deps.temporal.workflow.getHandle(scheduleWorkflowId(scheduleId)).describe();
    if (d.status.name === 'RUNNING') return 'running';
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  if (dryRun) return 'would-start';
  await startScheduleWorkflow(deps, scheduleId);
  return 'started';
}

/** Temporal did not accept the schedule's workflow; the schedule was not kept (a 503; the refusal is its cause). */
export class ScheduleWorkflowStartError extends ServiceUnavailableError {
  constructor(options: { cause: unknown }) {
    super('the workflow engine did not accept the schedule; nothing was stored, try again');
    this.cause = options.cause;
  }
}

/**
 * Inserts the schedule (committed), then starts its workflow, so the workflow's first read always
 * finds the row; a schedule already due is generated at once, without waiting for the
 * reconciliation job. If Temporal refuses the start, the row is deleted again (compensation) and
 * ScheduleWorkflowStartError is thrown: the caller gets an error and nothing is stored. Should a
 * start have gone through despite the error, its workflow finds no schedule and ends ('missing').
 */
export async function createSchedule(deps: ScheduleServiceDeps, input: NewScheduleInput, createdBy: string, now = new Date()): Promise<ReportScheduleRow> {
  const id = randomUUID();
  const nextRunAt = input.next_run_at ? new Date(input.next_run_at) : defaultFirstRun(input.cadence, now);
  const row = await insertReportSchedule(deps.knex, {
    id,
    template: input.template,
    cadence: input.cadence,
    scope: input.scope,
    options: input.options,
    recipients: input.recipients,
    next_run_at: nextRunAt,
    anchor_day: anchorDayOf(nextRunAt),
    workflow_id: scheduleWorkflowId(id),
    created_by: createdBy,
  });
  try {
    await startScheduleWorkflow(deps, id);
  } catch (err) {
    await deleteNewReportSchedule(deps.knex, id);
    throw new ScheduleWorkflowStartError({ cause: err });
  }
  return row;
}

/** Report schedules, newest first; `isActive` filters (deactivated ones stay listed for audit). */
export async function listSchedules(deps: Pick<ServiceDeps, 'knex'>, filter: { isActive?: boolean; limit: number; after?: Keyset }): Promise<KeysetPage<ReportScheduleRow>> {
  return listReportSchedules(deps.knex, filter);
}

/**
 * Sets is_active=false (kept for audit) and cancels the workflow; a run in progress is cancelled and
 * rolls back. Deactivating an inactive schedule changes nothing and answers the record as it is.
 * 404 when there is no such schedule.
 */
export async function deactivateSchedule(deps: ScheduleServiceDeps, id: string, by: string): Promise<{ row: ReportScheduleRow; changed: boolean }> {
  const result = await deactivateReportSchedule(deps.knex, id, by);
  if (!result) throw new NotFoundError(`no report schedule ${id}`);
  try {
    await deps.temporal.workflow.getHandle(result.row.workflow_id).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  return result;
}
