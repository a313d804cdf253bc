// Intake use cases shared by the API and the CLI: submit (files to the blob store, contact data to
// the vault, rows in one transaction, then the `intake-<id>` workflow), read contact data (with an
// audit event), move status, retry or cancel processing.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { claimIdempotencyKey } from '../../db/repositories/idempotency-key-repository';
import {
  cancelOpenIntakeJobs,
  findIntake,
  findIntakeForUpdate,
  insertIntake,
  listIntakeFiles,
  listIntakeJobs,
  requeueIntakeJobs,
  setIntakeCase,
  updateIntakeStatus,
  type IntakeFileRow,
  type IntakeJobRow,
  type IntakeRow,
} from '../../db/repositories/intakes/intake-repository';
import { createCase, findCase, linkToCase, type CaseRow } from '../../db/repositories/cases/case-repository';
import { findVaultSecret, insertVaultSecret } from '../../db/repositories/vault/vault-secret-repository';
import { INTAKE_STEPS } from '../../domain/intakes/intake-steps';
import { linksOnAttach } from '../../domain/intakes/intake-status';
import type { CasePriority } from '../../domain/cases/case-states';
import { sanitizeFilename, looksLikeText, sniffTextType } from '../../domain/intakes/intake-files';
import { contactOf, type IntakeContact, type IntakePayload } from '../../domain/intakes/intake-payload';
import type { BlobStore } from '../../infra/blob-store';
import { vaultFor } from '../../infra/vault';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { intakeProcessingWorkflow } from '../../workflows/intakes/intake-processing-workflow';

export interface SubmittedFile {
  originalName: string | null;
  declaredType: string | null;
  size: number;
  sha256: string;
  path: string;
}

export interface IntakeCreated {
  id: string;
  status: string;
  files: Array<{ id: string; filename: string; sha256: string; size: number; content_type: string; declared_content_type: string | null }>;
  job_id: string;
  task_id: string;
}

export class IdempotencyKeyReusedError extends Error {
  override name = 'IdempotencyKeyReusedError';
}

export const intakeTaskId = (intakeId: string) => `intake-${intakeId}`;
const vaultOwner = (intakeId: string) => ({ kind: 'intake', id: intakeId });
const vaultContext = (intakeId: string) => `intake:${intakeId}`;

type FileTypeFromBuffer = (b: Uint8Array) => Promise<{ mime: string } | undefined>;
let fileTypeFromBuffer: FileTypeFromBuffer | null = null;

/** The content type decided from the bytes (file-type for binary formats; text rules otherwise). */
export async function sniffContentType(bytes: Buffer): Promise<string> {
  // file-type is ESM-only: loaded once, dynamically.
  fileTypeFromBuffer ??= (await import('file-type')).fileTypeFromBuffer as FileTypeFromBuffer;
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) return detected.mime;
  if (bytes.length === 0) return 'application/octet-stream';
  return looksLikeText(bytes) ? sniffTextType(bytes.subarray(0, 8192).toString('utf8')) : 'application/octet-stream';
}

export interface SubmitDeps {
  knex: Knex;
  temporal: Client;
  config: AppConfig;
  /** The platform's blob store (local directory or S3): files go there, never to a local path. */
  blobs: BlobStore;
}

/** The first bytes of a file: enough to sniff its type (file-type reads at most 4100). */
async function headOf(file: string, bytes = 64 * 1024): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function shapeCreated(intake: IntakeRow, files: IntakeFileRow[], jobs: IntakeJobRow[]): IntakeCreated {
  return {
    id: intake.id,
    status: intake.status,
    files: files.map((f) => ({ id: f.id, filename: f.filename, sha256: f.sha256, size: Number(f.size), content_type: f.content_type, declared_content_type: f.declared_content_type })),
    job_id: jobs[0].id,
    task_id: intake.task_id ?? intakeTaskId(intake.id),
  };
}

export async function startIntakeWorkflow(deps: SubmitDeps, intakeId: string, reuse: 'REJECT_DUPLICATE' | 'ALLOW_DUPLICATE'): Promise<void> {
  try {
    await startPlatformWorkflow(deps.temporal, {
      workflow: intakeProcessingWorkflow,
      workflowId: intakeTaskId(intakeId),
      taskQueue: deps.config.temporal.task_queue,
      // Only the id: contact data and evidence never travel in Temporal payloads.
      args: [{ intakeId }],
      recordId: intakeId,
      title: `Intake ${intakeId}`,
      workflowIdReusePolicy: reuse,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Stores a submission. With an idempotency key, a repeat of the same request answers the first
 * intake (`created: false`); the same key with a different request throws IdempotencyKeyReusedError.
 */
export async function submitIntake(
  deps: SubmitDeps,
  input: { payload: IntakePayload; files: SubmittedFile[]; submittedBy: string; idempotency?: { key: string; hash: string } },
): Promise<{ created: boolean; intake: IntakeCreated }> {
  const vault = vaultFor(deps.config);
  const id = randomUUID();
  const files: Array<Omit<IntakeFileRow, 'intake_id' | 'created_at'>> = [];
  // Content-addressed: storing the same bytes again (a retry) writes nothing new.
  for (const [position, f] of input.files.entries()) {
    // Streamed into the store (hashed on the way); only the head is read for the type.
    const stored = await deps.blobs.put(fs.createReadStream(f.path));
    files.push({
      id: randomUUID(),
      position,
      filename: sanitizeFilename(f.originalName, `file-${position + 1}`),
      declared_content_type: f.declaredType,
      content_type: await sniffContentType(await headOf(f.path)),
      sha256: stored.sha256,
      size: stored.size,
      blob_key: stored.key,
    });
  }
  const jobs = INTAKE_STEPS.map((step, position) => ({ id: randomUUID(), step, position }));
  const { payload } = input;
  const contact = contactOf(payload);
  const existingId = await deps.knex.transaction(async (trx) => {
    if (input.idempotency) {
      const { created, row } = await claimIdempotencyKey<{ intake_id: string }>(trx, {
        scope: 'intakes.create',
        principal: input.submittedBy,
        key: input.idempotency.key,
        requestHash: input.idempotency.hash,
        response: { intake_id: id },
      });
      if (!created) {
        if (row.request_hash !== input.idempotency.hash) throw new IdempotencyKeyReusedError('this Idempotency-Key was already used with a different request');
        return row.response.intake_id;
      }
    }
    await insertIntake(trx, {
      id,
      source: payload.source,
      summary: payload.summary,
      details: payload.details,
      loss_amount: payload.loss_amount ?? null,
      loss_currency: payload.loss_currency ?? null,
      occurred_at: payload.occurred_at ?? null,
      urls: payload.urls,
      submitted_by: input.submittedBy,
      task_id: intakeTaskId(id),
      files,
      jobs,
    });
    if (contact) await insertVaultSecret(trx, vaultOwner(id), vault.seal(Buffer.from(JSON.stringify(contact), 'utf8'), vaultContext(id)));
    return null;
  });
  const intakeId = existingId ?? id;
  // A repeat also starts the workflow, in case the first request stopped between commit and start.
  await startIntakeWorkflow(deps, intakeId, 'REJECT_DUPLICATE');
  if (existingId === null) {
    // Just created: answer from what was written (no second read).
    return {
      created: true,
      intake: {
        id,
        status: 'received',
        files: files.map((f) => ({ id: f.id, filename: f.filename, sha256: f.sha256, size: Number(f.size), content_type: f.content_type, declared_content_type: f.declared_content_type })),
        job_id: jobs[0].id,
        task_id: intakeTaskId(id),
      },
    };
  }
  const intake = (await findIntake(deps.knex, intakeId))!;
  return { created: false, intake: shapeCreated(intake, await listIntakeFiles(deps.knex, intakeId), await listIntakeJobs(deps.knex, intakeId)) };
}

/** Decrypts an intake's contact data and records who read it and why (same transaction). */
export async function readIntakeContact(knex: Knex, config: AppConfig, input: { intakeId: string; actor: string; purpose: string }): Promise<IntakeContact | null> {
  const secret = await findVaultSecret(knex, vaultOwner(input.intakeId));
  await recordAuditEvent(knex, {
    actor: input.actor,
    action: 'intake.contact.read',
    target_type: 'intake',
    target_id: input.intakeId,
    purpose: input.purpose,
    details: { had_contact: Boolean(secret) },
  });
  if (!secret) return null;
  return JSON.parse(vaultFor(config).open(secret, vaultContext(input.intakeId)).toString('utf8')) as IntakeContact;
}

/** Re-runs processing from a failed or cancelled job. */
export async function retryIntakeJob(deps: SubmitDeps, job: IntakeJobRow): Promise<void> {
  // The run that recorded the failure may still be finishing its bookkeeping: let it end first
  // (bounded), so that the new run does not collide with it.
  const previous = deps.temporal.workflow.getHandle(intakeTaskId(job.intake_id));
  await Promise.race([previous.result().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
  await requeueIntakeJobs(deps.knex, job.intake_id, job.position);
  const intake = await findIntake(deps.knex, job.intake_id);
  if (intake?.status === 'failed') await updateIntakeStatus(deps.knex, intake.id, 'failed', 'processing', 'retry requested');
  await startIntakeWorkflow(deps, job.intake_id, 'ALLOW_DUPLICATE');
}

/** Cancels the intake's open jobs and its processing workflow. */
export async function cancelIntakeJobs(deps: SubmitDeps, job: IntakeJobRow): Promise<void> {
  await cancelOpenIntakeJobs(deps.knex, job.intake_id);
  try {
    await deps.temporal.workflow.getHandle(intakeTaskId(job.intake_id)).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

export type AttachOutcome =
  | { ok: true; case: CaseRow; created_case: boolean; linked: boolean; status: string }
  | { ok: false; reason: 'no_intake' | 'no_case' }
  | { ok: false; reason: 'other_case'; case_id: string };

/**
 * Attaches an intake to an existing case or to a new one, in one transaction: the case link, the
 * intake's case_id, the move to `linked` when its status allows it, and an audit event. A repeat
 * for the same case changes nothing; an intake already on another case is refused.
 */
export async function attachIntakeToCase(
  knex: Knex,
  input: {
    intakeId: string;
    actor: string;
    target: { case_id: string } | { create: { title: string; description?: string; priority?: CasePriority; assignee?: string | null } };
  },
): Promise<AttachOutcome> {
  return knex.transaction(async (trx) => {
    const intake = await findIntakeForUpdate(trx, input.intakeId);
    if (!intake) return { ok: false, reason: 'no_intake' } as const;
    let theCase: CaseRow | undefined;
    let created = false;
    if ('case_id' in input.target) {
      theCase = await findCase(trx, input.target.case_id);
      if (!theCase) return { ok: false, reason: 'no_case' } as const;
    }
    if (intake.case_id && intake.case_id !== theCase?.id) return { ok: false, reason: 'other_case', case_id: intake.case_id } as const;
    if (!theCase && 'create' in input.target) {
      theCase = await createCase(trx, { ...input.target.create, loss_amount: null, loss_currency: null }, input.actor);
      created = true;
    }
    const link = await linkToCase(trx, theCase!.id, { type: 'intake', id: intake.id }, input.actor);
    let status = intake.status;
    if (!intake.case_id) {
      await setIntakeCase(trx, intake.id, theCase!.id);
      if (linksOnAttach(intake.status)) {
        await updateIntakeStatus(trx, intake.id, intake.status, 'linked', `attached to case ${theCase!.id}`);
        status = 'linked';
      }
      await recordAuditEvent(trx, {
        actor: input.actor,
        action: 'intake.case.attach',
        target_type: 'intake',
        target_id: intake.id,
        details: { case_id: theCase!.id, created_case: created, from: intake.status, to: status },
      });
    }
    return { ok: true, case: theCase!, created_case: created, linked: Boolean(link?.linked), status } as const;
  });
}
