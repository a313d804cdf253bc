// Generates reports: renders a template over its scope and stores it as a blob plus a row.
// Exactly one report per (schedule, due time) and per one-off task: the run is serialized by an
// advisory lock, an existing report is returned as is, and the row has a unique key.
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import {
  findReportForRun,
  findReportForTask,
  insertGeneratedReport,
  lockReportRun,
  type GeneratedReportRow,
} from '../../db/repositories/generated-report-repository';
import {
  advanceReportSchedule,
  findReportSchedule,
  isScheduleActiveForShare,
  type ReportScheduleRow,
} from '../../db/repositories/report-schedule-repository';
import { nextRunAfter } from '../../domain/reports/cadence';
import type { ReportFormat } from '../../domain/reports/report-content';
import { ReportOptionsSchema, ReportScopeSchema, type ReportOptions, type ReportScope } from '../../domain/reports/report-request';
import type { BlobStore } from '../../infra/blob-store';
import { ChromiumUnavailableError } from '../../infra/chromium';
import type { Logger } from '../../infra/logger';
import { throwIfCancelled, withHeartbeat } from '../activity-heartbeat';
import { buildReportContent, type ContentRequest } from './build-report-content';
import type { BrowserProvider } from './browser-pool';
import { renderReport } from './render-report';

export interface ReportGenerationDeps {
  knex: Knex;
  blobs: BlobStore;
  browser: BrowserProvider;
  log: Logger;
  /** Test hook: runs after rendering, before the report is stored. */
  beforeStore?: () => Promise<void>;
}

/** What the schedule's workflow needs for its next run. */
export interface ScheduleState {
  isActive: boolean;
  nextRunAt: string;
  recipients: string[];
}

export function scheduleState(s: ReportScheduleRow): ScheduleState {
  return { isActive: s.is_active, nextRunAt: s.next_run_at.toISOString(), recipients: s.recipients };
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

async function renderAndStore(
  deps: ReportGenerationDeps,
  trx: Knex.Transaction,
  req: ContentRequest,
  row: Omit<Parameters<typeof insertGeneratedReport>[1], 'size_bytes' | 'sha256' | 'blob_key' | 'title'>,
  stillWanted: () => Promise<boolean>,
): Promise<GeneratedReportRow | null> {
  const content = await buildReportContent(deps.knex, req, new Date());
  const bytes = await renderReport(content, req.options.format, { browser: deps.browser });
  throwIfCancelled();
  const blob = await deps.blobs.put(bytes);
  if (deps.beforeStore) await deps.beforeStore();
  throwIfCancelled();
  if (!(await stillWanted())) return null;
  return insertGeneratedReport(trx, { ...row, title: content.title, size_bytes: blob.size, sha256: blob.sha256, blob_key: blob.key });
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
  return {
    /**
     * The report of one schedule run, stored together with the schedule's advance (last_run_at :=
     * due time, next_run_at := the cadence's next) in one transaction. Safe to call any number of
     * times for the same due time: later calls find the report and change nothing.
     */
    async generateScheduledReport(input: { scheduleId: string; dueAt: string }): Promise<ScheduledRunOutcome> {
      const dueAt = new Date(input.dueAt);
      return withHeartbeat(() =>
        deps.knex.transaction(async (trx): Promise<ScheduledRunOutcome> => {
          await lockReportRun(trx, `${input.scheduleId}@${dueAt.toISOString()}`);
          const schedule = await findReportSchedule(trx, input.scheduleId);
          if (!schedule) return { status: 'missing' };
          const advance = async () => {
            await advanceReportSchedule(trx, schedule.id, dueAt, nextRunAfter(schedule.cadence, dueAt, schedule.anchor_day));
            return scheduleState((await findReportSchedule(trx, schedule.id))!);
          };
          const existing = await findReportForRun(trx, input.scheduleId, dueAt);
          if (existing) return { status: 'existing', reportId: existing.id, createdAt: existing.created_at.toISOString(), next: await advance() };
          if (!schedule.is_active) return { status: 'inactive' };
          if (schedule.next_run_at.getTime() !== dueAt.getTime()) return { status: 'stale', next: scheduleState(schedule) };
          const options = ReportOptionsSchema.parse(schedule.options);
          const report = await renderAndStore(
            deps,
            trx,
            {
              template: schedule.template,
              scope: ReportScopeSchema.parse(schedule.scope),
              options,
              asOf: dueAt,
              cadence: schedule.cadence,
            },
            {
              schedule_id: schedule.id,
              due_at: dueAt,
              template: schedule.template,
              format: options.format,
              task_id: null,
              requested_by: schedule.created_by,
            },
            // Deactivation waits on this share lock, so a report is either stored before it or never.
            () => isScheduleActiveForShare(trx, schedule.id),
          );
          if (!report) return { status: 'inactive' };
          deps.log.info({ schedule_id: schedule.id, due_at: dueAt.toISOString(), report_id: report.id }, 'scheduled report generated');
          return { status: 'generated', reportId: report.id, createdAt: report.created_at.toISOString(), next: await advance() };
        }),
      ).catch(asChromiumFailure(false));
    },

    /** A one-off report (POST /reports/generate), once per task id. */
    async generateOneOffReport(req: OneOffReportRequest): Promise<{ reportId: string; format: ReportFormat; sizeBytes: number; sha256: string }> {
      const scope = ReportScopeSchema.safeParse(req.scope);
      const options = ReportOptionsSchema.safeParse(req.options);
      if (!scope.success || !options.success) throw ApplicationFailure.nonRetryable('invalid report request', 'InvalidReportRequest');
      return withHeartbeat(() =>
        deps.knex.transaction(async (trx) => {
          await lockReportRun(trx, `task:${req.taskId}`);
          const report =
            (await findReportForTask(trx, req.taskId)) ??
            (await renderAndStore(
              deps,
              trx,
              { template: req.template, scope: scope.data, options: options.data, asOf: new Date(req.requestedAt) },
              {
                schedule_id: null,
                due_at: new Date(req.requestedAt),
                template: req.template,
                format: options.data.format,
                task_id: req.taskId,
                requested_by: req.requestedBy,
              },
              async () => true,
            ))!;
          return { reportId: report.id, format: report.format, sizeBytes: report.size_bytes, sha256: report.sha256 };
        }),
      ).catch(asChromiumFailure(true));
    },
  };
}
