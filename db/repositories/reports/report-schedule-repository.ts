import type { Knex } from 'knex';
import type { Cadence } from '../../../domain/reports/cadence';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface ReportScheduleRow {
  id: string;
  template: string;
  cadence: Cadence;
  scope: Record<string, unknown>;
  options: Record<string, unknown>;
  recipients: string[];
  is_active: boolean;
  next_run_at: Date;
  last_run_at: Date | null;
  anchor_day: number;
  workflow_id: string;
  created_by: string;
  created_at: Date;
  deactivated_at: Date | null;
  deactivated_by: string | null;
  /** Why the last due time produced no report (e.g. invalid stored options); null after a completed run. */
  last_error: string | null;
}

export type NewReportSchedule = Pick<ReportScheduleRow, 'id' | 'template' | 'cadence' | 'scope' | 'options' | 'recipients' | 'next_run_at' | 'anchor_day' | 'workflow_id' | 'created_by'>;

export async function insertReportSchedule(knex: Knex, s: NewReportSchedule): Promise<ReportScheduleRow> {
  const [row] = await knex('report_schedules')
    .insert({ ...s, scope: JSON.stringify(s.scope), options: JSON.stringify(s.options) })
    .returning('*');
  return row as ReportScheduleRow;
}

/** Removes a schedule that has never run (the compensation of a failed workflow start). */
export async function deleteNewReportSchedule(knex: Knex, id: string): Promise<void> {
  await knex('report_schedules').where({ id }).whereNull('last_run_at').whereNotExists(
    knex('generated_reports').select(knex.raw('1')).where('schedule_id', id),
  ).delete();
}

export async function findReportSchedule(knex: Knex, id: string): Promise<ReportScheduleRow | undefined> {
  return knex<ReportScheduleRow>('report_schedules').where({ id }).first();
}

export async function listReportSchedules(
  knex: Knex,
  filter: { isActive?: boolean; limit: number; after?: Keyset },
): Promise<KeysetPage<ReportScheduleRow>> {
  const q = knex('report_schedules').select('report_schedules.*');
  if (filter.isActive !== undefined) q.where('is_active', filter.isActive);
  return keysetPage<ReportScheduleRow>(knex, q, { tsColumn: 'created_at', idColumn: 'id', limit: filter.limit, after: filter.after });
}

/** Deactivates once; returns the row (unchanged when it was already inactive), or undefined. */
export async function deactivateReportSchedule(knex: Knex, id: string, by: string): Promise<{ row: ReportScheduleRow; changed: boolean } | undefined> {
  const [changed] = await knex('report_schedules')
    .where({ id, is_active: true })
    .update({ is_active: false, deactivated_at: knex.fn.now(), deactivated_by: by })
    .returning('*');
  if (changed) return { row: changed as ReportScheduleRow, changed: true };
  const row = await findReportSchedule(knex, id);
  return row ? { row, changed: false } : undefined;
}

export async function listActiveSchedules(knex: Knex): Promise<ReportScheduleRow[]> {
  return knex<ReportScheduleRow>('report_schedules').where({ is_active: true }).orderBy('next_run_at');
}

/**
 * Records a completed run and moves the schedule on, only if it is still at that due time
 * (compare-and-set): a second call for the same due time changes nothing.
 */
export async function advanceReportSchedule(knex: Knex, id: string, dueAt: Date, nextRunAt: Date): Promise<boolean> {
  const n = await knex('report_schedules')
    .where({ id, next_run_at: dueAt })
    .update({ last_run_at: dueAt, next_run_at: nextRunAt, last_error: null });
  return n > 0;
}

/**
 * Records that the run at `dueAt` could not produce a report (its stored options do not validate)
 * and moves the schedule on to `nextRunAt`, only if it is still at that due time. last_run_at stays
 * the last completed run, so the next report covers the period since then.
 */
export async function skipReportScheduleRun(knex: Knex, id: string, dueAt: Date, nextRunAt: Date, error: string): Promise<boolean> {
  const n = await knex('report_schedules')
    .where({ id, next_run_at: dueAt })
    .update({ next_run_at: nextRunAt, last_error: error.slice(0, 1000) });
  return n > 0;
}

/** Inside a transaction: is the schedule active? Takes a share lock so deactivation waits for the caller's commit. */
export async function isScheduleActiveForShare(trx: Knex.Transaction, id: string): Promise<boolean> {
  const row = await trx('report_schedules').where({ id }).forShare().first('is_active');
  return Boolean(row?.is_active);
}
