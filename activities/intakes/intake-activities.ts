// Activities of the `intake-<id>` workflow. Each step is an intake job: marked running, done, its
// result or error recorded. Idempotent: a step already succeeded is skipped, texts are stored
// content-addressed, and the graph upsert (recordSourceEntities) adds nothing on a repeat.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { recordSourceEntities, type EntityMention } from '../../db/repositories/intelligence/entity-repository';
import {
  cancelOpenIntakeJobs,
  countLostIntakeJobAttempt,
  findIntake,
  listIntakeFiles,
  listIntakeJobs,
  markIntakeFileParsing,
  unmarkIntakeFileParsing,
  setIntakeFileOutcome,
  updateIntakeJob,
  updateIntakeStatus,
  type IntakeFileRow,
} from '../../db/repositories/intakes/intake-repository';
import type { FoundLink } from '../../domain/intakes/find-entities';
import { MAX_UNFINISHED_READS, unfinishedReadsReason, type IntakeFileStatus } from '../../domain/intakes/intake-file-status';
import { canSystemMove, type IntakeStatus } from '../../domain/intakes/intake-status';
import type { IntakeStep } from '../../domain/intakes/intake-steps';
import { isPublicFailureType } from '../../domain/tasks/public-failures';
import { withHeartbeat } from '../../infra/activity-heartbeat';
import { readBlob, type BlobStore } from '../../infra/blob-store';
import type { Logger } from '../../infra/logger';
import { InvestigationOptionsSchema } from '../../domain/investigations/investigation-request';
import { startInvestigation } from '../../services/investigations/investigation-service';
import { createBoundedParser } from '../../services/intakes/bounded-parsing';
import { MAX_AUTO_INVESTIGATIONS_PER_INTAKE, autoInvestigationScanId } from '../../domain/intakes/auto-investigation';

/**
 * One text of the intake as the text step stores it: the text (and HTML) in blobs of their own, so
 * that no step holds every text of an intake in one string. Older runs stored the text inline.
 */
interface StoredPart {
  where: string;
  text_blob?: string;
  html_blob?: string;
  text?: string;
  html?: string;
}

/** A lost attempt this many times over (the worker process stopped each time) stops the step for good. */
const MAX_LOST_ATTEMPTS = 3;

function activityInfo(): { workflowId: string | null; attempt: number; signal?: AbortSignal } {
  try {
    const ctx = Context.current();
    return { workflowId: ctx.info.workflowExecution?.workflowId ?? null, attempt: ctx.info.attempt, signal: ctx.cancellationSignal };
  } catch {
    return { workflowId: null, attempt: 1 };
  }
}

export function createIntakeActivities(deps: {
  knex: Knex;
  blobs: BlobStore;
  log: Logger;
  temporal: Client;
  config: AppConfig;
  /** Test hook: a file is marked `parsing` (a test kills its worker here). */
  beforeFileRead?: (file: { intakeId: string; filename: string }) => Promise<void>;
}) {
  const { knex, blobs, log } = deps;

  /** SVC_INTAKE__AUTO_INVESTIGATE: an investigation of each http(s) URL the intake mentions (idempotent scan ids). */
  async function investigateUrls(intakeId: string, urls: string[], caseId: string | null): Promise<Array<{ url: string; scan_id: string; task_id: string }>> {
    const started: Array<{ url: string; scan_id: string; task_id: string }> = [];
    for (const url of urls.slice(0, MAX_AUTO_INVESTIGATIONS_PER_INTAKE)) {
      const { scanId, taskId } = await startInvestigation(
        deps,
        {
          scanId: autoInvestigationScanId(intakeId, url), url, requestedBy: `intake:${intakeId}`, playbookId: undefined, caseId,
          label: `from intake ${intakeId}`, options: InvestigationOptionsSchema.parse({}),
        },
        true,
      );
      started.push({ url, scan_id: scanId, task_id: taskId });
    }
    return started;
  }

  const parser = createBoundedParser(deps.config.parser);

  async function storeText(where: string, text: string, html?: string): Promise<StoredPart> {
    const part: StoredPart = { where, text_blob: (await blobs.put(Buffer.from(text, 'utf8'))).key };
    if (html !== undefined) part.html_blob = (await blobs.put(Buffer.from(html, 'utf8'))).key;
    return part;
  }

  /** Reads one file under the parser bounds; its outcome is recorded on the file, whatever it is. */
  async function readFile(intakeId: string, f: IntakeFileRow, parts: StoredPart[]): Promise<{ status: IntakeFileStatus; reason: string | null; chars: number | null }> {
    const { workflowId, signal } = activityInfo();
    // Left `parsing` by a read that never ended: the worker stopped in the middle of this file.
    if (f.status === 'parsing' && f.parse_attempts >= MAX_UNFINISHED_READS) {
      const outcome = { status: 'skipped_too_large' as const, reason: unfinishedReadsReason(f.parse_attempts), chars: null };
      log.error({ workflow_id: workflowId, intake_id: intakeId, file_id: f.id, parse_attempts: f.parse_attempts }, 'intake file skipped: the worker stopped while reading it');
      await setIntakeFileOutcome(knex, f.id, outcome);
      return outcome;
    }
    await markIntakeFileParsing(knex, f.id);
    await deps.beforeFileRead?.({ intakeId, filename: f.filename });
    let reading: Awaited<ReturnType<typeof parser.readFile>>;
    try {
      reading = await parser.readFile(await readBlob(blobs, f.blob_key), f.content_type, signal);
    } catch (err) {
      // The attempt failed (a blob read, a cancellation): not a read that stopped the worker.
      await unmarkIntakeFileParsing(knex, f.id).catch(() => undefined);
      throw err;
    }
    let chars: number | null = null;
    if (reading.status === 'read' || reading.status === 'truncated') {
      parts.push(await storeText(`file:${f.filename}`, reading.text, reading.html));
      chars = reading.text.length;
    } else if ('failure' in reading && reading.failure) {
      // The whole story for the operator; the file carries only the caller-safe reason.
      log.warn({ workflow_id: workflowId, intake_id: intakeId, file_id: f.id, content_type: f.content_type, size: Number(f.size), status: reading.status, reason: reading.reason, parser: reading.failure }, 'intake file not read');
    }
    const outcome = { status: reading.status, reason: reading.reason, chars };
    await setIntakeFileOutcome(knex, f.id, outcome);
    return outcome;
  }

  async function extractText(intakeId: string): Promise<Record<string, unknown>> {
    const intake = await findIntake(knex, intakeId);
    if (!intake) throw ApplicationFailure.nonRetryable(`intake ${intakeId} does not exist`, 'IntakeNotFound');
    const parts: StoredPart[] = [await storeText('summary', intake.summary)];
    if (intake.details) parts.push(await storeText('details', intake.details));
    if (intake.urls.length) parts.push(await storeText('urls', intake.urls.join('\n')));
    const files: Array<{ file_id: string; filename: string; status: IntakeFileStatus; reason: string | null; chars?: number }> = [];
    // One file at a time: a file costs at most one parser process's bounds, whatever it holds.
    for (const f of await listIntakeFiles(knex, intakeId)) {
      const outcome = await readFile(intakeId, f, parts);
      files.push({ file_id: f.id, filename: f.filename, status: outcome.status, reason: outcome.reason, ...(outcome.chars !== null ? { chars: outcome.chars } : {}) });
    }
    const stored = await blobs.put(Buffer.from(JSON.stringify(parts), 'utf8'));
    return { texts_blob: stored.key, files };
  }

  async function extractEntities(intakeId: string, jobs: Awaited<ReturnType<typeof listIntakeJobs>>): Promise<Record<string, unknown>> {
    const textJob = jobs.find((j) => j.step === 'extract_text');
    const key = textJob?.result?.texts_blob;
    if (typeof key !== 'string') throw ApplicationFailure.nonRetryable('the text of this intake has not been extracted', 'IntakeStepOrder');
    const { workflowId, signal } = activityInfo();
    const parts = JSON.parse((await readBlob(blobs, key)).toString('utf8')) as StoredPart[];
    const mentions: EntityMention[] = [];
    const links: FoundLink[] = [];
    const skipped: Array<{ where: string; reason: string }> = [];
    const capped: string[] = [];
    for (const part of parts) {
      const text = part.text ?? (part.text_blob ? (await readBlob(blobs, part.text_blob)).toString('utf8') : '');
      const html = part.html ?? (part.html_blob ? (await readBlob(blobs, part.html_blob)).toString('utf8') : undefined);
      const found = await parser.findEntities({ text, ...(html !== undefined ? { html } : {}), where: part.where }, signal);
      if (!found.ok) {
        // This text's entities are lost; the other texts' are recorded all the same.
        log.warn({ workflow_id: workflowId, intake_id: intakeId, where: part.where, reason: found.reason, parser: found.failure }, 'entity extraction stopped at a parser bound');
        skipped.push({ where: part.where, reason: found.reason });
        continue;
      }
      if (found.capped) capped.push(part.where);
      mentions.push(...found.entities);
      links.push(...found.links);
    }
    const intake = await findIntake(knex, intakeId);
    const result = await recordSourceEntities(knex, { kind: 'intake', id: intakeId, observedAt: intake?.created_at }, mentions, links);
    const byType: Record<string, number> = {};
    for (const e of result.entities) byType[e.type] = (byType[e.type] ?? 0) + 1;
    const summary = {
      entities: result.entities.length, by_type: byType, rejected: result.rejected.length,
      ...(skipped.length ? { skipped_texts: skipped } : {}),
      ...(capped.length ? { capped_texts: capped } : {}),
    };
    if (!deps.config.intake.auto_investigate) return summary;
    const urls = result.entities.filter((e) => e.type === 'url' && /^https?:\/\//.test(e.value)).map((e) => e.value);
    return { ...summary, investigations: await investigateUrls(intakeId, urls, intake?.case_id ?? null) };
  }

  return {
    /** Moves the intake into processing (from received, or failed on a retry). */
    async beginIntakeProcessing(input: { intakeId: string }): Promise<{ status: IntakeStatus }> {
      const intake = await findIntake(knex, input.intakeId);
      if (!intake) throw ApplicationFailure.nonRetryable(`intake ${input.intakeId} does not exist`, 'IntakeNotFound');
      if (intake.status !== 'processing' && canSystemMove(intake.status, 'processing')) {
        await updateIntakeStatus(knex, intake.id, intake.status, 'processing', null);
        return { status: 'processing' };
      }
      return { status: intake.status };
    },

    /** Runs one step unless it already succeeded or was cancelled; records its outcome on the job. */
    async runIntakeStep(input: { intakeId: string; step: IntakeStep }): Promise<{ status: string }> {
      const jobs = await listIntakeJobs(knex, input.intakeId);
      const job = jobs.find((j) => j.step === input.step);
      if (!job) throw ApplicationFailure.nonRetryable(`intake ${input.intakeId} has no ${input.step} job`, 'IntakeNotFound');
      if (job.status === 'succeeded' || job.status === 'cancelled') return { status: job.status };
      const { workflowId, attempt } = activityInfo();
      // Every attempt that ends records an error (below) or an outcome; `running` without an error
      // at the start of a retry means the last attempt never ended: the worker process stopped.
      // Stopped for good after a few, rather than crash-looping a restarted worker for ever.
      if (attempt > 1 && job.status === 'running' && job.error === null) {
        const lost = await countLostIntakeJobAttempt(knex, job.id);
        log.error({ workflow_id: workflowId, intake_id: input.intakeId, step: input.step, attempt, lost_attempts: lost }, 'an attempt of this intake step never ended (the worker process stopped)');
        if (lost >= MAX_LOST_ATTEMPTS) {
          throw ApplicationFailure.nonRetryable(`${input.step} stopped: the worker process stopped ${lost} times while running it`, 'IntakeStepAbandoned');
        }
      }
      await updateIntakeJob(knex, job.id, { status: 'running', error: null, startedNow: true, countAttempt: true });
      try {
        const result = await withHeartbeat(() => (input.step === 'extract_text' ? extractText(input.intakeId) : extractEntities(input.intakeId, jobs)));
        // Not over a cancellation that happened meanwhile.
        await updateIntakeJob(knex, job.id, { status: 'succeeded', result, finishedNow: true }, ['running', 'queued']);
        return { status: 'succeeded' };
      } catch (err) {
        log.error({ workflow_id: workflowId, intake_id: input.intakeId, step: input.step, attempt, err }, 'intake step failed');
        const type = err instanceof ApplicationFailure ? err.type : null;
        const error = isPublicFailureType(type) ? (err as Error).message : `attempt ${attempt} failed: internal error (the worker log has the details)`;
        await updateIntakeJob(knex, job.id, { error }, ['running']).catch(() => undefined);
        throw err;
      }
    },

    /** Records the end of processing: the failed step's error (caller-safe text) and the intake's status. */
    async finishIntakeProcessing(input: { intakeId: string; outcome: 'processed' | 'failed' | 'cancelled'; step?: IntakeStep; error?: string }): Promise<void> {
      if (input.step && input.outcome === 'failed') {
        const job = (await listIntakeJobs(knex, input.intakeId)).find((j) => j.step === input.step);
        if (job) await updateIntakeJob(knex, job.id, { status: 'failed', error: input.error ?? 'failed', finishedNow: true }, ['queued', 'running']);
      }
      if (input.outcome === 'cancelled') {
        await cancelOpenIntakeJobs(knex, input.intakeId);
      }
      const to: IntakeStatus = input.outcome === 'processed' ? 'processed' : 'failed';
      await updateIntakeStatus(knex, input.intakeId, 'processing', to, input.outcome === 'cancelled' ? 'processing cancelled' : (input.error ?? null));
    },
  };
}
