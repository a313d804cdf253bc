// Report schedules: creating one starts its workflow (after the row is committed), deactivating one cancels it. Used by the API
// and the CLI; the database write and the workflow stay consistent (see each function).
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import {
  deactivateReportSchedule,
  deleteNewReportSchedule,
  insertReportSchedule,
  type ReportScheduleRow,
} from '../../db/repositories/reports/report-schedule-repository';
import { anchorDayOf, defaultFirstRun, type Cadence } from '../../domain/reports/cadence';
import type { ReportOptions, ReportScope } from '../../domain/reports/report-request';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { reportScheduleWorkflow } from '../../workflows/reports/report-schedule-workflow';

export interface ScheduleServiceDeps {
  knex: Knex;
  temporal: Client;
  taskQueue: string;
}

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

/** Temporal did not accept the schedule's workflow; the schedule was not kept. */
export class ScheduleWorkflowStartError extends Error {
  override name = 'ScheduleWorkflowStartError';
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
    throw new ScheduleWorkflowStartError(`could not start the schedule's workflow: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return row;
}

/**
 * Sets is_active=false (kept for audit) and cancels the workflow; a run in progress is cancelled and
 * rolls back. Deactivating an inactive schedule changes nothing and answers the record as it is.
 */
export async function deactivateSchedule(
  deps: ScheduleServiceDeps,
  id: string,
  by: string,
): Promise<{ row: ReportScheduleRow; changed: boolean } | undefined> {
  const result = await deactivateReportSchedule(deps.knex, id, by);
  if (!result) return undefined;
  try {
    await deps.temporal.workflow.getHandle(result.row.workflow_id).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  return result;
}
