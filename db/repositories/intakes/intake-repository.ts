// Intakes (evidence submissions), their files and their processing jobs. Contact data is not
// here: it is sealed in vault_secrets (owner_kind 'intake').
import type { Knex } from 'knex';
import type { IntakeFileStatus } from '../../../domain/intakes/intake-file-status';
import type { IntakeStatus } from '../../../domain/intakes/intake-status';
import type { IntakeJobStatus, IntakeStep } from '../../../domain/intakes/intake-steps';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface IntakeRow {
  id: string;
  status: IntakeStatus;
  status_reason: string | null;
  source: string;
  summary: string;
  details: string;
  loss_amount: string | null;
  loss_currency: string | null;
  occurred_at: Date | null;
  urls: string[];
  file_count: number;
  submitted_by: string;
  case_id: string | null;
  task_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface IntakeFileRow {
  id: string;
  intake_id: string;
  position: number;
  filename: string;
  declared_content_type: string | null;
  content_type: string;
  sha256: string;
  size: string | number;
  blob_key: string;
  /** What processing made of it (domain/intakes/intake-file-status.ts), with the reason. */
  status: IntakeFileStatus;
  status_reason: string | null;
  text_chars: number | null;
  /** Reads of it that never ended (the worker stopped in the middle), since its last finished read. */
  parse_attempts: number;
  created_at: Date;
}

export interface IntakeJobRow {
  id: string;
  intake_id: string;
  step: IntakeStep;
  position: number;
  status: IntakeJobStatus;
  error: string | null;
  attempts: number;
  result: Record<string, unknown> | null;
  /** Attempts that ended without recording an outcome (the worker process stopped). */
  lost_attempts: number;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewIntake {
  id: string;
  source: string;
  summary: string;
  details: string;
  loss_amount: string | null;
  loss_currency: string | null;
  occurred_at: string | null;
  urls: string[];
  submitted_by: string;
  task_id: string;
  files: Array<Omit<IntakeFileRow, 'intake_id' | 'created_at' | 'status' | 'status_reason' | 'text_chars' | 'parse_attempts'>>;
  jobs: Array<{ id: string; step: IntakeStep; position: number }>;
}

/** Inserts the intake with its files and jobs (inside the caller's transaction). */
export async function insertIntake(trx: Knex.Transaction, intake: NewIntake): Promise<void> {
  const { files, jobs, ...row } = intake;
  await trx('intakes').insert({ ...row, urls: JSON.stringify(row.urls), file_count: files.length });
  if (files.length) await trx('intake_files').insert(files.map((f) => ({ ...f, intake_id: intake.id })));
  await trx('intake_jobs').insert(jobs.map((j) => ({ ...j, intake_id: intake.id })));
}

export async function findIntake(knex: Knex | Knex.Transaction, id: string): Promise<IntakeRow | undefined> {
  return knex<IntakeRow>('intakes').where({ id }).first();
}

/** The intake, locked for the rest of the transaction (attach to a case). */
export async function findIntakeForUpdate(trx: Knex.Transaction, id: string): Promise<IntakeRow | undefined> {
  return trx<IntakeRow>('intakes').where({ id }).forUpdate().first();
}

export async function listIntakeFiles(knex: Knex, intakeId: string): Promise<IntakeFileRow[]> {
  return knex<IntakeFileRow>('intake_files').where({ intake_id: intakeId }).orderBy('position');
}

/** One file of an intake (undefined when the intake has no such file). */
export async function findIntakeFile(knex: Knex, intakeId: string, fileId: string): Promise<IntakeFileRow | undefined> {
  return knex<IntakeFileRow>('intake_files').where({ intake_id: intakeId, id: fileId }).first();
}

export async function listIntakeJobs(knex: Knex, intakeId: string): Promise<IntakeJobRow[]> {
  return knex<IntakeJobRow>('intake_jobs').where({ intake_id: intakeId }).orderBy('position');
}

/** The file is being read: a read that never ends (the worker stops) leaves it so, counted. */
export async function markIntakeFileParsing(knex: Knex, id: string): Promise<void> {
  await knex('intake_files').where({ id }).update({ status: 'parsing', status_reason: null, parse_attempts: knex.raw('parse_attempts + 1') });
}

/** A read that failed without stopping the worker (it will be tried again): not counted. */
export async function unmarkIntakeFileParsing(knex: Knex, id: string): Promise<void> {
  await knex('intake_files').where({ id, status: 'parsing' }).update({ status: 'pending', parse_attempts: knex.raw('greatest(parse_attempts - 1, 0)') });
}

/** The outcome of reading the file (a repeat writes the same). */
export async function setIntakeFileOutcome(knex: Knex, id: string, outcome: { status: IntakeFileStatus; reason: string | null; chars: number | null }): Promise<void> {
  await knex('intake_files').where({ id }).update({ status: outcome.status, status_reason: outcome.reason, text_chars: outcome.chars, parse_attempts: 0 });
}

/** Counts an attempt of the job that ended without an outcome; answers the count. */
export async function countLostIntakeJobAttempt(knex: Knex, id: string): Promise<number> {
  const [row] = await knex('intake_jobs').where({ id }).update({ lost_attempts: knex.raw('lost_attempts + 1'), updated_at: knex.fn.now() }).returning(['lost_attempts']);
  return Number(row?.lost_attempts ?? 0);
}

export async function findIntakeJob(knex: Knex, id: string): Promise<IntakeJobRow | undefined> {
  return knex<IntakeJobRow>('intake_jobs').where({ id }).first();
}

export interface IntakeFilter {
  status?: string;
  source?: string;
  since?: Date;
  until?: Date;
  has_files?: boolean;
  q?: string;
  /** `q` matches the text with bank details masked (fip_mask_bank_details), for callers who see them only masked. */
  maskedText?: boolean;
  case_ids?: string[];
  limit: number;
  after?: Keyset;
}

const LIST_COLUMNS = ['id', 'status', 'source', 'summary', 'loss_amount', 'loss_currency', 'occurred_at', 'file_count', 'case_id', 'task_id', 'created_at', 'updated_at'];

/** Newest first; `q` matches summary or details (case-insensitive). Never contact data (it is not here). */
export async function listIntakes(knex: Knex, f: IntakeFilter): Promise<KeysetPage<IntakeRow>> {
  const q = knex('intakes').select(LIST_COLUMNS);
  if (f.status) q.where('status', f.status);
  if (f.source) q.where('source', f.source);
  if (f.since) q.where('created_at', '>=', f.since);
  if (f.until) q.where('created_at', '<', f.until);
  if (f.has_files !== undefined) q.where('file_count', f.has_files ? '>' : '=', 0);
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    if (f.maskedText) q.where((w) => w.whereRaw('fip_mask_bank_details(summary) ILIKE ?', [like]).orWhereRaw('fip_mask_bank_details(details) ILIKE ?', [like]));
    else q.where((w) => w.whereILike('summary', like).orWhereILike('details', like));
  }
  return keysetPage<IntakeRow>(knex, q, { tsColumn: 'created_at', idColumn: 'id', limit: f.limit, after: f.after });
}

/** Moves the intake when it is still in `from` (compare-and-set); false when it was not. */
export async function updateIntakeStatus(knex: Knex | Knex.Transaction, id: string, from: IntakeStatus, to: IntakeStatus, reason: string | null): Promise<boolean> {
  const n = await knex('intakes').where({ id, status: from }).update({ status: to, status_reason: reason, updated_at: knex.fn.now() });
  return n === 1;
}

export async function setIntakeCase(knex: Knex | Knex.Transaction, id: string, caseId: string): Promise<void> {
  await knex('intakes').where({ id }).update({ case_id: caseId, updated_at: knex.fn.now() });
}

export async function updateIntakeJob(
  knex: Knex,
  id: string,
  change: Partial<Pick<IntakeJobRow, 'status' | 'error' | 'result'>> & { startedNow?: boolean; finishedNow?: boolean; countAttempt?: boolean },
  onlyFrom?: IntakeJobStatus[],
): Promise<boolean> {
  const q = knex('intake_jobs').where({ id });
  if (onlyFrom) q.whereIn('status', onlyFrom);
  const set: Record<string, unknown> = { updated_at: knex.fn.now() };
  if (change.status) set.status = change.status;
  if (change.error !== undefined) set.error = change.error;
  if (change.result !== undefined) set.result = change.result === null ? null : JSON.stringify(change.result);
  if (change.startedNow) set.started_at = knex.fn.now();
  if (change.finishedNow) set.finished_at = knex.fn.now();
  if (change.countAttempt) set.attempts = knex.raw('attempts + 1');
  return (await q.update(set)) === 1;
}

/** Jobs of the intake back to queued from failed or cancelled (retry). */
export async function requeueIntakeJobs(knex: Knex, intakeId: string, fromPosition: number): Promise<number> {
  return knex('intake_jobs')
    .where({ intake_id: intakeId })
    .where('position', '>=', fromPosition)
    .whereIn('status', ['failed', 'cancelled'])
    .update({ status: 'queued', error: null, finished_at: null, updated_at: knex.fn.now() });
}

export async function cancelOpenIntakeJobs(knex: Knex, intakeId: string): Promise<number> {
  return knex('intake_jobs')
    .where({ intake_id: intakeId })
    .whereIn('status', ['queued', 'running'])
    .update({ status: 'cancelled', finished_at: knex.fn.now(), updated_at: knex.fn.now() });
}
