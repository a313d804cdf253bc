// The scheduled-reports job (`fip jobs scheduled-reports`, and every N minutes inside Temporal):
// every active schedule gets a running workflow, and every due schedule that has not run is run,
// through the same idempotent steps as the workflow, so running it beside the workflows (or twice)
// never makes a second report for one due time.
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { listActiveSchedules } from '../../db/repositories/reports/report-schedule-repository';
import type { Logger } from '../../infra/logger';
import { ensureScheduleWorkflow, type ScheduleServiceDeps } from './report-schedule-service';

export interface ScheduleRunSteps {
  /** Generates the run's report and advances the schedule, idempotently. */
  generateScheduledReport(input: { scheduleId: string; dueAt: string }): Promise<{ status: string; reportId?: string }>;
  deliverReport(input: { reportId: string; recipients: string[] }): Promise<{ status: string }>;
}

export interface ScheduledReportsJobDeps extends ScheduleServiceDeps {
  knex: Knex;
  log: Logger;
  steps: ScheduleRunSteps;
  onProgress?: (line: string) => void;
}

export interface ScheduledReportsJobResult {
  checked: number;
  workflows: { running: number; started: string[]; would_start: string[] };
  due: Array<{ schedule_id: string; due_at: string; outcome: string; report_id?: string; delivery?: string }>;
  dry_run: boolean;
}

function isInvalidScheduleOptions(err: unknown): boolean {
  return err instanceof ApplicationFailure && err.type === 'InvalidScheduleOptions';
}

export async function runScheduledReportsJob(deps: ScheduledReportsJobDeps, opts: { dryRun: boolean; now?: Date }): Promise<ScheduledReportsJobResult> {
  const now = opts.now ?? new Date();
  const say = deps.onProgress ?? (() => undefined);
  const schedules = await listActiveSchedules(deps.knex);
  const result: ScheduledReportsJobResult = { checked: schedules.length, workflows: { running: 0, started: [], would_start: [] }, due: [], dry_run: opts.dryRun };
  for (const s of schedules) {
    const wf = await ensureScheduleWorkflow(deps, s.id, opts.dryRun);
    if (wf === 'running') result.workflows.running++;
    else if (wf === 'started') result.workflows.started.push(s.id);
    else result.workflows.would_start.push(s.id);
    if (wf !== 'running') say(`${wf === 'started' ? 'started' : 'would start'} workflow ${s.workflow_id}`);

    if (s.next_run_at > now) continue;
    const dueAt = s.next_run_at.toISOString();
    if (opts.dryRun) {
      result.due.push({ schedule_id: s.id, due_at: dueAt, outcome: 'would-run' });
      say(`would run ${s.id} (due ${dueAt})`);
      continue;
    }
    let generated: { status: string; reportId?: string };
    try {
      generated = await deps.steps.generateScheduledReport({ scheduleId: s.id, dueAt });
    } catch (err) {
      // A run whose stored options do not validate is recorded on the schedule (last_error) and
      // skipped; the job carries on with the other schedules.
      if (!isInvalidScheduleOptions(err)) throw err;
      result.due.push({ schedule_id: s.id, due_at: dueAt, outcome: 'invalid-options' });
      say(`skipped ${s.id} (due ${dueAt}): ${(err as Error).message}`);
      continue;
    }
    const entry: ScheduledReportsJobResult['due'][number] = { schedule_id: s.id, due_at: dueAt, outcome: generated.status, report_id: generated.reportId };
    if (generated.reportId) {
      try {
        entry.delivery = (await deps.steps.deliverReport({ reportId: generated.reportId, recipients: s.recipients })).status;
      } catch (err) {
        entry.delivery = 'failed';
        deps.log.warn({ err, schedule_id: s.id }, 'delivery failed; recorded, the schedule moves on');
      }
    }
    result.due.push(entry);
    say(`ran ${s.id} (due ${dueAt}): ${entry.outcome}${entry.delivery ? `, delivery ${entry.delivery}` : ''}`);
  }
  return result;
}
