// Activities of the `intake-<id>` workflow. Each step is an intake job: marked running, done, its
// result or error recorded. Idempotent: a step already succeeded is skipped, texts are stored
// content-addressed, and the graph upsert (recordSourceEntities) adds nothing on a repeat.
import { ApplicationFailure } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { recordSourceEntities, type EntityMention } from '../../db/repositories/intelligence/entity-repository';
import { cancelOpenIntakeJobs, findIntake, listIntakeFiles, listIntakeJobs, updateIntakeJob, updateIntakeStatus } from '../../db/repositories/intakes/intake-repository';
import { findEntities, type FoundLink } from '../../domain/intakes/find-entities';
import { canSystemMove, type IntakeStatus } from '../../domain/intakes/intake-status';
import type { IntakeStep } from '../../domain/intakes/intake-steps';
import { readBlob, type BlobStore } from '../../infra/blob-store';
import type { Logger } from '../../infra/logger';
import { InvestigationOptionsSchema } from '../../domain/investigations/investigation-request';
import { startInvestigation } from '../../services/investigations/investigation-service';
import { extractFileText } from '../../services/intakes/intake-text';
import { MAX_AUTO_INVESTIGATIONS_PER_INTAKE, autoInvestigationScanId } from '../../domain/intakes/auto-investigation';

interface TextPart {
  where: string;
  text: string;
  html?: string;
}


export function createIntakeActivities(deps: { knex: Knex; blobs: BlobStore; log: Logger; temporal: Client; config: AppConfig }) {
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

  async function extractText(intakeId: string): Promise<Record<string, unknown>> {
    const intake = await findIntake(knex, intakeId);
    if (!intake) throw ApplicationFailure.nonRetryable(`intake ${intakeId} does not exist`, 'IntakeNotFound');
    const parts: TextPart[] = [{ where: 'summary', text: intake.summary }];
    if (intake.details) parts.push({ where: 'details', text: intake.details });
    if (intake.urls.length) parts.push({ where: 'urls', text: intake.urls.join('\n') });
    const files: Array<{ file_id: string; filename: string; status: 'read' | 'skipped' | 'unreadable'; chars?: number }> = [];
    for (const f of await listIntakeFiles(knex, intakeId)) {
      try {
        const got = await extractFileText(await readBlob(blobs, f.blob_key), f.content_type);
        if (!got) {
          files.push({ file_id: f.id, filename: f.filename, status: 'skipped' });
          continue;
        }
        parts.push({ where: `file:${f.filename}`, ...got });
        files.push({ file_id: f.id, filename: f.filename, status: 'read', chars: got.text.length });
      } catch (err) {
        // A damaged file does not stop the intake: it is reported on the job and the rest is read.
        log.warn({ intake_id: intakeId, file_id: f.id, err: (err as Error).message }, 'intake file unreadable');
        files.push({ file_id: f.id, filename: f.filename, status: 'unreadable' });
      }
    }
    const stored = await blobs.put(Buffer.from(JSON.stringify(parts), 'utf8'));
    return { texts_blob: stored.key, files };
  }

  async function extractEntities(intakeId: string, jobs: Awaited<ReturnType<typeof listIntakeJobs>>): Promise<Record<string, unknown>> {
    const textJob = jobs.find((j) => j.step === 'extract_text');
    const key = textJob?.result?.texts_blob;
    if (typeof key !== 'string') throw ApplicationFailure.nonRetryable('the text of this intake has not been extracted', 'IntakeStepOrder');
    const parts = JSON.parse((await readBlob(blobs, key)).toString('utf8')) as TextPart[];
    const mentions: EntityMention[] = [];
    const links: FoundLink[] = [];
    for (const part of parts) {
      const found = findEntities(part.text, part.where, part.html !== undefined ? { html: part.html } : {});
      mentions.push(...found.entities);
      links.push(...found.links);
    }
    const intake = await findIntake(knex, intakeId);
    const result = await recordSourceEntities(knex, { kind: 'intake', id: intakeId, observedAt: intake?.created_at }, mentions, links);
    const byType: Record<string, number> = {};
    for (const e of result.entities) byType[e.type] = (byType[e.type] ?? 0) + 1;
    const summary = { entities: result.entities.length, by_type: byType, rejected: result.rejected.length };
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
      await updateIntakeJob(knex, job.id, { status: 'running', error: null, startedNow: true, countAttempt: true });
      const result = input.step === 'extract_text' ? await extractText(input.intakeId) : await extractEntities(input.intakeId, jobs);
      // Not over a cancellation that happened meanwhile.
      await updateIntakeJob(knex, job.id, { status: 'succeeded', result, finishedNow: true }, ['running', 'queued']);
      return { status: 'succeeded' };
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
