// Generates reports: renders a template over its scope and stores it as a blob plus a row.
// Exactly one report per (schedule, due time) and per one-off task: the final write is serialized
// by an advisory lock, an existing report is returned as is, and the row has a unique key.
//
// Rendering (seconds, Chromium for PDF) runs OUTSIDE any database transaction: it holds no pool
// connection while it works, only its own short reads. The transaction afterwards is short: lock,
// re-check, insert, advance. Ten concurrent generations therefore need at most ten short-lived
// connections instead of twenty long-held ones, and cannot starve the pool the API shares.
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import {
  findReportForRun,
  findReportForTask,
  insertGeneratedReport,
  lockReportRun,
  type GeneratedReportRow,
  type NewGeneratedReport,
} from '../../db/repositories/reports/generated-report-repository';
import {
  advanceReportSchedule,
  findReportSchedule,
  isScheduleActiveForShare,
  skipReportScheduleRun,
  type ReportScheduleRow,
} from '../../db/repositories/reports/report-schedule-repository';
import { nextRunAfter, previousRunBefore } from '../../domain/reports/cadence';
import type { ReportFormat } from '../../domain/reports/report-content';
import { ReportOptionsSchema, ReportScopeSchema, parseStoredReportRequest, type ReportOptions, type ReportScope } from '../../domain/reports/report-request';
import { findTemplate } from '../../domain/reports/report-templates';
import type { BlobStore } from '../../infra/blob-store';
import { ChromiumUnavailableError } from '../../infra/chromium';
import type { Logger } from '../../infra/logger';
import { throwIfCancelled, withHeartbeat } from '../../infra/activity-heartbeat';
import { buildReportContent, type ContentRequest } from '../../services/reports/build-report-content';
import type { BrowserProvider } from '../../infra/browser-pool';
import { renderReport } from '../../services/reports/render-report';
import { scheduleState, type ScheduleState } from '../../domain/reports/schedule-state';

/** Failure type (non-retryable) of a scheduled run whose stored template/scope/options no longer validate. */
export const INVALID_SCHEDULE_OPTIONS = 'InvalidScheduleOptions';
/** Failure type (non-retryable) of a one-off report request that does not validate. */
export const INVALID_REPORT_REQUEST = 'InvalidReportRequest';

export interface ReportGenerationDeps {
  knex: Knex;
  blobs: BlobStore;
  browser: BrowserProvider;
  log: Logger;
  /** Most rows per report section (default: the repository's cap). */
  rowCap?: number;
  /** Test hook: runs after rendering, before the report is stored. */
  beforeStore?: () => Promise<void>;
}

export type ScheduledRunOutcome =
  | { status: 'generated'; reportId: string; createdAt: string; next: ScheduleState }
  | { status: 'existing'; reportId: string; createdAt: string; next: ScheduleState }
  | { status: 'stale'; next: ScheduleState }
  | { status: 'inactive' }
  | { status: 'missing' };

export interface OneOffReportRequest {
  taskId: string;
  template: string;
  scope: ReportScope;
  options: ReportOptions;
  requestedAt: string;
  requestedBy: string;
}

type ReportRowFields = Omit<NewGeneratedReport, 'size_bytes' | 'sha256' | 'blob_key' | 'title'>;

/**
 * Builds and renders the report and puts its bytes in the blob store, outside any transaction.
 * The blob store is content-addressed: a blob written by a run that then loses the race to store
 * its row (or is cancelled) is the same bytes under the same key as the winner's, or an orphan
 * that nothing references; either way harmless.
 */
async function renderToBlob(deps: ReportGenerationDeps, req: ContentRequest, row: ReportRowFields): Promise<NewGeneratedReport> {
  const content = await buildReportContent(deps.knex, { rowCap: deps.rowCap, ...req }, new Date());
  throwIfCancelled();
  const bytes = await renderReport(content, req.options.format, { browser: deps.browser });
  throwIfCancelled();
  const blob = await deps.blobs.put(bytes);
  if (deps.beforeStore) await deps.beforeStore();
  throwIfCancelled();
  return { ...row, title: content.title, size_bytes: blob.size, sha256: blob.sha256, blob_key: blob.key };
}

/**
 * Failure type of a PDF report that no Chromium can print (wrong SVC_CHROMIUM__PATH, a browser that
 * does not start, a package that cannot unpack). Its message says which path, which source and
 * why, and holds nothing else, so it may be shown to the requester.
 */
export const CHROMIUM_UNAVAILABLE = 'ChromiumUnavailable';

/**
 * Rethrows a ChromiumUnavailableError as a Temporal failure of type CHROMIUM_UNAVAILABLE. A one-off
 * report fails at once (`final`): ten more tries cannot install a browser. A schedule's run keeps
 * retrying instead, so the schedule lives on and catches up once Chromium is fixed.
 */
function asChromiumFailure(final: boolean): (err: unknown) => never {
  return (err) => {
    if (!(err instanceof ChromiumUnavailableError)) throw err;
    throw ApplicationFailure.create({
      type: CHROMIUM_UNAVAILABLE,
      message: err.message,
      nonRetryable: final,
      details: [{ source: err.source, executable_path: err.executablePath }],
    });
  };
}

export function createReportGenerationActivities(deps: ReportGenerationDeps) {
  /** Advances the schedule past a run whose report exists, and answers its state (inside the lock). */
  const advancePast = async (trx: Knex.Transaction, schedule: ReportScheduleRow, dueAt: Date) => {
    await advanceReportSchedule(trx, schedule.id, dueAt, nextRunAfter(schedule.cadence, dueAt, schedule.anchor_day));
    return scheduleState((await findReportSchedule(trx, schedule.id))!);
  };

  return {
    /**
     * The report of one schedule run, stored together with the schedule's advance (last_run_at :=
     * due time, next_run_at := the cadence's next) in one short transaction. Safe to call any
     * number of times for the same due time: later calls find the report and change nothing.
     *
     * Stored options that no longer validate (unknown template, bad scope) fail the run for good:
     * the schedule records last_error, moves on to its next due time, and the activity throws a
     * non-retryable ApplicationFailure of type InvalidScheduleOptions (details[0]: the next
     * ScheduleState), so the workflow waits for the next due time instead of retrying forever.
     */
    async generateScheduledReport(input: { scheduleId: string; dueAt: string }): Promise<ScheduledRunOutcome> {
      const dueAt = new Date(input.dueAt);
      const runKey = `${input.scheduleId}@${dueAt.toISOString()}`;
      return withHeartbeat(async (): Promise<ScheduledRunOutcome> => {
        // 1. A quick check without a transaction: most repeated calls end here.
        const schedule = await findReportSchedule(deps.knex, input.scheduleId);
        if (!schedule) return { status: 'missing' };
        const existing = await findReportForRun(deps.knex, schedule.id, dueAt);
        if (existing) {
          const next = await deps.knex.transaction(async (trx) => {
            await lockReportRun(trx, runKey);
            return advancePast(trx, schedule, dueAt);
          });
          return { status: 'existing', reportId: existing.id, createdAt: existing.created_at.toISOString(), next };
        }
        if (!schedule.is_active) return { status: 'inactive' };
        if (schedule.next_run_at.getTime() !== dueAt.getTime()) return { status: 'stale', next: scheduleState(schedule) };

        const stored = parseStoredReportRequest(schedule);
        if (!stored.ok) return skipInvalidRun(schedule, dueAt, runKey, stored.error);

        // 2. Build, render and put the blob outside any transaction (heartbeating, cancellable).
        const row = await renderToBlob(
          deps,
          {
            template: stored.value.template,
            scope: stored.value.scope,
            options: stored.value.options,
            asOf: dueAt,
            // The period since the previous due time: the last completed run, or one cadence step back.
            periodStart: schedule.last_run_at ?? previousRunBefore(schedule.cadence, dueAt, schedule.anchor_day),
          },
          {
            schedule_id: schedule.id,
            due_at: dueAt,
            template: stored.value.template,
            format: stored.value.options.format,
            task_id: null,
            requested_by: schedule.created_by,
          },
        );

        // 3. A short transaction: lock the run, re-check, insert, advance.
        return deps.knex.transaction(async (trx): Promise<ScheduledRunOutcome> => {
          const checked = await lockAndRecheck(trx, schedule.id, dueAt, runKey);
          if ('status' in checked) return checked;
          const current = checked.schedule;
          throwIfCancelled();
          const report = await insertGeneratedReport(trx, row);
          deps.log.info({ schedule_id: schedule.id, due_at: dueAt.toISOString(), report_id: report.id }, 'scheduled report generated');
          return { status: 'generated', reportId: report.id, createdAt: report.created_at.toISOString(), next: await advancePast(trx, current, dueAt) };
        });
      }).catch(asChromiumFailure(false));
    },

    /** A one-off report (POST /reports/generate), once per task id. */
    async generateOneOffReport(req: OneOffReportRequest): Promise<{ reportId: string; format: ReportFormat; sizeBytes: number; sha256: string }> {
      const scope = ReportScopeSchema.safeParse(req.scope);
      const options = ReportOptionsSchema.safeParse(req.options);
      if (!scope.success || !options.success || !findTemplate(req.template)) {
        throw ApplicationFailure.nonRetryable('invalid report request', INVALID_REPORT_REQUEST);
      }
      const view = (r: GeneratedReportRow) => ({ reportId: r.id, format: r.format, sizeBytes: r.size_bytes, sha256: r.sha256 });
      return withHeartbeat(async () => {
        const done = await findReportForTask(deps.knex, req.taskId);
        if (done) return view(done);
        const row = await renderToBlob(
          deps,
          { template: req.template, scope: scope.data, options: options.data, asOf: new Date(req.requestedAt), periodStart: null },
          {
            schedule_id: null,
            due_at: new Date(req.requestedAt),
            template: req.template,
            format: options.data.format,
            task_id: req.taskId,
            requested_by: req.requestedBy,
          },
        );
        return deps.knex.transaction(async (trx) => {
          await lockReportRun(trx, `task:${req.taskId}`);
          const existing = await findReportForTask(trx, req.taskId);
          if (existing) return view(existing);
          // A cancelled task stores nothing (the transaction rolls back on the throw).
          throwIfCancelled();
          return view(await insertGeneratedReport(trx, row));
        });
      }).catch(asChromiumFailure(true));
    },
  };

  /**
   * Inside the run's short transaction: takes the run's advisory lock and checks again what the
   * quick check saw. Answers the outcome when the run is already decided (its report exists, the
   * schedule is gone, inactive or has moved on), else the schedule as it is now. Deactivation waits
   * on the share lock taken here, so a report is either stored before it or never.
   */
  async function lockAndRecheck(trx: Knex.Transaction, scheduleId: string, dueAt: Date, runKey: string): Promise<ScheduledRunOutcome | { schedule: ReportScheduleRow }> {
    await lockReportRun(trx, runKey);
    const current = await findReportSchedule(trx, scheduleId);
    if (!current) return { status: 'missing' };
    const winner = await findReportForRun(trx, scheduleId, dueAt);
    if (winner) return { status: 'existing', reportId: winner.id, createdAt: winner.created_at.toISOString(), next: await advancePast(trx, current, dueAt) };
    if (!(await isScheduleActiveForShare(trx, scheduleId))) return { status: 'inactive' };
    if (current.next_run_at.getTime() !== dueAt.getTime()) return { status: 'stale', next: scheduleState(current) };
    return { schedule: current };
  }

  /**
   * Records last_error, moves the schedule to its next due time and fails the run for good; unless
   * the re-check under the lock finds the run done, the schedule inactive or already moved on.
   */
  async function skipInvalidRun(schedule: ReportScheduleRow, dueAt: Date, runKey: string, error: string): Promise<ScheduledRunOutcome> {
    const message = `stored report options are invalid: ${error}`;
    const outcome = await deps.knex.transaction(async (trx): Promise<ScheduledRunOutcome | { status: 'skipped'; next: ScheduleState }> => {
      const checked = await lockAndRecheck(trx, schedule.id, dueAt, runKey);
      if ('status' in checked) return checked;
      const current = checked.schedule;
      await skipReportScheduleRun(trx, schedule.id, dueAt, nextRunAfter(current.cadence, dueAt, current.anchor_day), message);
      return { status: 'skipped', next: scheduleState((await findReportSchedule(trx, schedule.id))!) };
    });
    if (outcome.status !== 'skipped') return outcome;
    deps.log.warn({ schedule_id: schedule.id, due_at: dueAt.toISOString(), error }, 'scheduled report skipped: invalid stored options');
    throw ApplicationFailure.create({ message, type: INVALID_SCHEDULE_OPTIONS, nonRetryable: true, details: [outcome.next] });
  }
}
