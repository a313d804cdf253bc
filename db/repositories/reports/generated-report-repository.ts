import type { Knex } from 'knex';
import type { ReportFormat } from '../../../domain/reports/report-content';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface GeneratedReportRow {
  id: string;
  schedule_id: string | null;
  due_at: Date;
  template: string;
  format: ReportFormat;
  title: string;
  size_bytes: number;
  sha256: string;
  blob_key: string;
  task_id: string | null;
  requested_by: string | null;
  created_at: Date;
}

export type NewGeneratedReport = Omit<GeneratedReportRow, 'id' | 'created_at'>;

export async function insertGeneratedReport(knex: Knex, r: NewGeneratedReport): Promise<GeneratedReportRow> {
  // clock_timestamp(), not now(): the report exists when it is written, not when its transaction began.
  const [row] = await knex('generated_reports').insert({ ...r, created_at: knex.raw('clock_timestamp()') }).returning('*');
  return row as GeneratedReportRow;
}

export async function findReportForRun(knex: Knex, scheduleId: string, dueAt: Date): Promise<GeneratedReportRow | undefined> {
  return knex<GeneratedReportRow>('generated_reports').where({ schedule_id: scheduleId, due_at: dueAt }).first();
}

export async function findReportForTask(knex: Knex, taskId: string): Promise<GeneratedReportRow | undefined> {
  return knex<GeneratedReportRow>('generated_reports').where({ task_id: taskId }).first();
}

export async function findGeneratedReport(knex: Knex, id: string): Promise<GeneratedReportRow | undefined> {
  return knex<GeneratedReportRow>('generated_reports').where({ id }).first();
}

export async function listGeneratedReports(
  knex: Knex,
  filter: { scheduleId?: string; template?: string; limit: number; after?: Keyset },
): Promise<KeysetPage<GeneratedReportRow & { delivery_status: string | null }>> {
  const q = knex('generated_reports as r')
    .leftJoin('report_deliveries as d', 'd.report_id', 'r.id')
    .select('r.*', 'd.status as delivery_status');
  if (filter.scheduleId) q.where('r.schedule_id', filter.scheduleId);
  if (filter.template) q.where('r.template', filter.template);
  return keysetPage(knex, q, { tsColumn: 'r.created_at', idColumn: 'r.id', limit: filter.limit, after: filter.after });
}

/** Advisory lock for one report run, held until the transaction ends. */
export async function lockReportRun(trx: Knex.Transaction, runKey: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`report-run:${runKey}`]);
}
