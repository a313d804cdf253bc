// Intake use cases (evidence submissions), used by the API; processing jobs: intake-job-service.ts.
// - submitIntake: files to the blob store, contact data to the vault, rows in one transaction,
//   then the `intake-<id>` workflow; idempotent with an Idempotency-Key
// - listIntakes: a page of intakes, newest first (never contact data)
// - getIntake: an intake with its files, jobs, entities found and linked case (never contact data)
// Both answer through the caller's masking policy (domain/masking/masking-policy.ts): bank details
// in the entities, the summary, the details, sighting contexts and job results are masked for every
// caller but an analyst, and such a caller's `q` matches the masked text only.
// - readIntakeContact: decrypt the reporter's contact data; every read is audited with its purpose
// - moveIntakeStatus: a move by the intake state machine, audited
// - attachIntakeToCase: attach to an existing or a new case, moving the intake to linked, audited
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Principal } from '../../domain/accounts/roles';
import { principalName } from '../../domain/accounts/principal-name';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import {
  findIntake,
  findIntakeForUpdate,
  insertIntake,
  listIntakeFiles,
  listIntakeJobs,
  listIntakes as listIntakeRows,
  setIntakeCase,
  updateIntakeStatus,
  type IntakeFileRow,
  type IntakeFilter,
  type IntakeJobRow,
  type IntakeRow,
  type NewIntake,
} from '../../db/repositories/intakes/intake-repository';
import { createCase, findCase, linkToCase, type CaseRow } from '../../db/repositories/cases/case-repository';
import { listSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { findVaultSecret, insertVaultSecret } from '../../db/repositories/vault/vault-secret-repository';
import type { IntakeFileStatus } from '../../domain/intakes/intake-file-status';
import { INTAKE_STEPS } from '../../domain/intakes/intake-steps';
import { SYSTEM_STATUSES, allowedUserMoves, canUserMove, linksOnAttach, type IntakeStatus } from '../../domain/intakes/intake-status';
import type { CasePriority } from '../../domain/cases/case-states';
import type { KeysetPage } from '../../domain/keyset';
import { sanitizeFilename, looksLikeText, sniffTextType } from '../../domain/intakes/intake-files';
import { contactOf, type IntakeContact, type IntakePayload } from '../../domain/intakes/intake-payload';
import { maskingFor, type MaskingPolicy } from '../../domain/masking/masking-policy';
import { vaultFor } from '../../infra/vault';
import { ConflictError, NotFoundError } from '../errors';
import { claimIdempotentResponse } from '../idempotency';
import type { ServiceDeps } from '../service-deps';
import { intakeTaskId, startIntakeWorkflow } from './intake-job-service';
import { subjectClassification, type ClassificationView } from '../classification/classification-service';

export type { IntakeFileRow, IntakeFilter, IntakeRow };

export interface SubmittedFile {
  originalName: string | null;
  declaredType: string | null;
  size: number;
  sha256: string;
  path: string;
}

/** A stored file as the API shows it. */
export interface IntakeFileSummary {
  id: string;
  filename: string;
  sha256: string;
  size: number;
  content_type: string;
  declared_content_type: string | null;
  /** What processing made of it; `pending` until the text step reads it. */
  status: IntakeFileStatus;
  status_reason: string | null;
}

export interface IntakeCreated {
  id: string;
  status: string;
  files: IntakeFileSummary[];
  job_id: string;
  task_id: string;
}

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

export function intakeFileSummary(f: Pick<IntakeFileRow, keyof IntakeFileSummary>): IntakeFileSummary {
  return {
    id: f.id, filename: f.filename, sha256: f.sha256, size: Number(f.size), content_type: f.content_type, declared_content_type: f.declared_content_type,
    status: f.status, status_reason: f.status_reason,
  };
}

/**
 * Stores a submission by the caller; its files go to the platform's blob store (local directory or
 * S3), never to a local path. With an idempotency key, a repeat of the same request answers the
 * first intake (`created: false`); the same key with a different request is 422
 * idempotency_key_reused.
 */
export async function submitIntake(
  deps: Pick<ServiceDeps, 'knex' | 'temporal' | 'config' | 'blobs'>,
  principal: Principal | null,
  input: { payload: IntakePayload; files: SubmittedFile[]; idempotency?: { key: string; hash: string } },
): Promise<{ created: boolean; intake: IntakeCreated }> {
  const vault = vaultFor(deps.config);
  const submittedBy = principalName(principal);
  const id = randomUUID();
  const files: NewIntake['files'] = [];
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
      const { created, response } = await claimIdempotentResponse(trx, 'intakes.create', submittedBy, input.idempotency, { intake_id: id });
      if (!created) return response.intake_id;
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
      submitted_by: submittedBy,
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
    const pending = files.map((f) => intakeFileSummary({ ...f, status: 'pending', status_reason: null }));
    return { created: true, intake: { id, status: 'received', files: pending, job_id: jobs[0].id, task_id: intakeTaskId(id) } };
  }
  const intake = (await findIntake(deps.knex, intakeId))!;
  const storedFiles = await listIntakeFiles(deps.knex, intakeId);
  const storedJobs = await listIntakeJobs(deps.knex, intakeId);
  return {
    created: false,
    intake: { id: intake.id, status: intake.status, files: storedFiles.map(intakeFileSummary), job_id: storedJobs[0].id, task_id: intake.task_id ?? intakeTaskId(intake.id) },
  };
}

export async function listIntakes(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, filter: IntakeFilter): Promise<KeysetPage<IntakeRow>> {
  const policy = maskingFor(principal);
  const page = await listIntakeRows(deps.knex, { ...filter, maskedText: !policy.sees('bank_account') });
  return { ...page, rows: page.rows.map((r) => maskIntake(r, policy)) };
}

function maskIntake<T extends Pick<IntakeRow, 'summary'> & { details?: string }>(row: T, policy: MaskingPolicy): T {
  return { ...row, summary: policy.text(row.summary), ...(row.details === undefined ? {} : { details: policy.text(row.details) }) };
}

/** 404 when there is no such intake. */
async function existingIntake(deps: Pick<ServiceDeps, 'knex'>, intakeId: string): Promise<IntakeRow> {
  const intake = await findIntake(deps.knex, intakeId);
  if (!intake) throw new NotFoundError(`no intake ${intakeId}`);
  return intake;
}

export interface IntakeDetail {
  intake: IntakeRow;
  files: IntakeFileRow[];
  jobs: IntakeJobRow[];
  /** The entities processing found in it. */
  entities: Awaited<ReturnType<typeof listSourceEntities>>;
  /** Whether contact data is in the vault (never the data). */
  hasContact: boolean;
  linkedCase: CaseRow | undefined;
  /** Its place in the scam taxonomy (null until classified). */
  classification: ClassificationView | null;
}

/** An intake with what hangs on it (never contact data), as the caller may see it; 404 when there is no such intake. */
export async function getIntake(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, intakeId: string): Promise<IntakeDetail> {
  const policy = maskingFor(principal);
  const intake = await existingIntake(deps, intakeId);
  const [files, jobs, entities, secret, linkedCase, classification] = await Promise.all([
    listIntakeFiles(deps.knex, intake.id),
    listIntakeJobs(deps.knex, intake.id),
    listSourceEntities(deps.knex, 'intake', intake.id),
    findVaultSecret(deps.knex, vaultOwner(intake.id)),
    intake.case_id ? findCase(deps.knex, intake.case_id) : Promise.resolve(undefined),
    subjectClassification(deps.knex, 'intake', intake.id),
  ]);
  return {
    intake: maskIntake(intake, policy),
    files,
    jobs: jobs.map((j) => ({ ...j, result: policy.json(j.result), error: policy.text(j.error) })),
    entities: entities.map((e) => ({ ...policy.entity(e), context: policy.json(e.context) })),
    hasContact: Boolean(secret),
    linkedCase: linkedCase ? { ...linkedCase, title: policy.text(linkedCase.title), description: policy.text(linkedCase.description) } : undefined,
    classification: classification ? { ...classification, evidence: classification.evidence.map((e) => ({ ...e, detail: policy.text(e.detail) })) } : null,
  };
}

/** Decrypts an intake's contact data and records who read it and why; 404 when there is no such intake. */
export async function readIntakeContact(
  deps: Pick<ServiceDeps, 'knex' | 'config'>,
  principal: Principal | null,
  input: { intakeId: string; purpose: string },
): Promise<IntakeContact | null> {
  await existingIntake(deps, input.intakeId);
  const secret = await findVaultSecret(deps.knex, vaultOwner(input.intakeId));
  await recordAuditEvent(deps.knex, {
    actor: principalName(principal),
    action: 'intake.contact.read',
    target_type: 'intake',
    target_id: input.intakeId,
    purpose: input.purpose,
    details: { had_contact: Boolean(secret) },
  });
  if (!secret) return null;
  return JSON.parse(vaultFor(deps.config).open(secret, vaultContext(input.intakeId)).toString('utf8')) as IntakeContact;
}

/**
 * Moves an intake by the state machine (domain/intakes/intake-status.ts), audited in the same
 * transaction. A repeat of a move already made changes nothing; an illegal move is 409 naming the
 * allowed ones, and so is a move that lost a race with another.
 */
export async function moveIntakeStatus(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  intakeId: string,
  move: { status: IntakeStatus; reason?: string },
): Promise<{ id: string; status: IntakeStatus; previous_status: IntakeStatus }> {
  const intake = await existingIntake(deps, intakeId);
  // A repeat of a move that already happened (a retried request) changes nothing.
  if (move.status === intake.status && !SYSTEM_STATUSES.has(move.status)) return { id: intake.id, status: intake.status, previous_status: intake.status };
  if (!canUserMove(intake.status, move.status)) {
    const allowed = allowedUserMoves(intake.status);
    const why = SYSTEM_STATUSES.has(move.status) ? ` (${move.status} is set by processing, not by hand)` : '';
    throw new ConflictError(`cannot move intake from ${intake.status} to ${move.status}${why}; allowed: ${allowed.length ? allowed.join(', ') : 'none (final)'}`, {
      current: intake.status,
      requested: move.status,
      allowed,
    });
  }
  const moved = await deps.knex.transaction(async (trx) => {
    if (!(await updateIntakeStatus(trx, intake.id, intake.status, move.status, move.reason ?? null))) return false;
    await recordAuditEvent(trx, {
      actor: principalName(principal),
      action: 'intake.status',
      target_type: 'intake',
      target_id: intake.id,
      purpose: move.reason ?? null,
      details: { from: intake.status, to: move.status },
    });
    return true;
  });
  if (!moved) throw new ConflictError('the intake changed status meanwhile; read it again', { current: (await findIntake(deps.knex, intake.id))?.status });
  return { id: intake.id, status: move.status, previous_status: intake.status };
}

type AttachOutcome =
  | { ok: true; case: CaseRow; created_case: boolean; linked: boolean; status: IntakeStatus }
  | { ok: false; reason: 'no_intake' | 'no_case' }
  | { ok: false; reason: 'other_case'; case_id: string };

/**
 * Attaches an intake to an existing case or to a new one, in one transaction: the case link, the
 * intake's case_id, the move to `linked` when its status allows it, and an audit event. A repeat
 * for the same case changes nothing; an intake already on another case is 409; 404 when the
 * intake or the case does not exist.
 */
export async function attachIntakeToCase(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  input: {
    intakeId: string;
    target: { case_id: string } | { create: { title: string; description?: string; priority?: CasePriority; assignee?: string | null } };
  },
): Promise<{ case: CaseRow; created_case: boolean; linked: boolean; status: IntakeStatus }> {
  const actor = principalName(principal);
  const out = await deps.knex.transaction(async (trx): Promise<AttachOutcome> => {
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
      theCase = await createCase(trx, { ...input.target.create, loss_amount: null, loss_currency: null }, actor);
      created = true;
    }
    const link = await linkToCase(trx, theCase!.id, { type: 'intake', id: intake.id }, actor);
    let status = intake.status;
    if (!intake.case_id) {
      await setIntakeCase(trx, intake.id, theCase!.id);
      if (linksOnAttach(intake.status)) {
        await updateIntakeStatus(trx, intake.id, intake.status, 'linked', `attached to case ${theCase!.id}`);
        status = 'linked';
      }
      await recordAuditEvent(trx, {
        actor,
        action: 'intake.case.attach',
        target_type: 'intake',
        target_id: intake.id,
        details: { case_id: theCase!.id, created_case: created, from: intake.status, to: status },
      });
    }
    return { ok: true, case: theCase!, created_case: created, linked: Boolean(link?.linked), status } as const;
  });
  if (!out.ok) {
    if (out.reason === 'other_case') throw new ConflictError(`intake ${input.intakeId} is attached to case ${out.case_id}`, { case_id: out.case_id });
    throw new NotFoundError(out.reason === 'no_intake' ? `no intake ${input.intakeId}` : `no case ${'case_id' in input.target ? input.target.case_id : ''}`);
  }
  const policy = maskingFor(principal);
  return { ...out, case: { ...out.case, title: policy.text(out.case.title), description: policy.text(out.case.description) } };
}
