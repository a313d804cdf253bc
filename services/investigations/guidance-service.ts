// The funnel agent's questions to a human, as use cases:
//   openGuidance          (activity) record a question once per request id; answers its screenshot URL and the wait's timeout
//   closeGuidance         (activity) the workflow stopped waiting: answered, aborted or expired
//   pendingGuidance       GET /investigations/ssi/{scan_id}/guidance: the newest pending question (404 when none)
//   replyToGuidanceRequest POST the same path: seal the answer in the vault (or abort), audit, signal the workflow a reference
//   openGuidanceScreenshot the question's screenshot, streamed (audited)
//   resolveGuidanceText   (activity side) the answer a reference stands for, read from the vault, for typing into the page
// The answer is never logged, never stored in the clear and never enters a workflow history.
import type { Readable } from 'node:stream';
import { WorkflowNotFoundError } from '@temporalio/client';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import {
  closeGuidance as closeGuidanceRow,
  findGuidanceRequest,
  findPendingGuidance,
  insertGuidanceRequest,
  replyToGuidance,
  type GuidanceRequestRow,
  type GuidanceStatus,
} from '../../db/repositories/investigations/guidance-repository';
import { findInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { findVaultSecret, insertVaultSecret } from '../../db/repositories/vault/vault-secret-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import type { GuidanceAnswer, GuidanceKind, GuidanceRequest } from '../../domain/investigations/funnel';
import { guidanceAnswerRef, guidanceRefRequestId, guidanceScreenshotUrl, guidanceVaultContext, guidanceVaultOwner } from '../../domain/investigations/guidance';
import { investigationTaskId } from '../../domain/investigations/investigation-request';
import { BlobNotFoundError } from '../../infra/blob-store';
import { vaultFor } from '../../infra/vault';
import { ConflictError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { guidanceAnswerSignal } from '../../workflows/investigations/funnel-signals';

export interface OpenGuidance {
  requestId: string;
  scanId: string;
  kind: GuidanceKind;
  question: string;
  field?: string | null;
  screenshotKey?: string | null;
}

/** Records the question (idempotent on its request id). `timeout_ms`: SVC_SSI__GUIDANCE_TIMEOUT_MINUTES. */
export async function openGuidance(deps: Pick<ServiceDeps, 'knex' | 'config'>, input: OpenGuidance): Promise<{ request_id: string; screenshot_url: string; timeout_ms: number }> {
  const row = await insertGuidanceRequest(deps.knex, {
    request_id: input.requestId, scan_id: input.scanId, kind: input.kind, question: input.question.slice(0, 2000),
    field: input.field ?? null, screenshot_key: input.screenshotKey ?? null,
  });
  return { request_id: row.request_id, screenshot_url: guidanceScreenshotUrl(row.scan_id, row.request_id), timeout_ms: deps.config.ssi.guidance_timeout_minutes * 60_000 };
}

/** The workflow closes its request; a human's reply already recorded keeps its status. Answers the final status. */
export async function closeGuidance(deps: Pick<ServiceDeps, 'knex'>, input: { scanId: string; requestId: string; status: GuidanceStatus }): Promise<GuidanceStatus> {
  const row = await closeGuidanceRow(deps.knex, input.scanId, input.requestId, input.status);
  if (!row) throw new NotFoundError(`no guidance request ${input.requestId} of investigation ${input.scanId}`);
  return row.status;
}

function view(row: GuidanceRequestRow): GuidanceRequest {
  return {
    request_id: row.request_id, kind: row.kind, question: row.question, screenshot_url: guidanceScreenshotUrl(row.scan_id, row.request_id),
    ...(row.field ? { field: row.field } : {}),
  };
}

/** The scan's pending question; 404 for an unknown scan or when nothing is pending. */
export async function pendingGuidance(deps: Pick<ServiceDeps, 'knex'>, scanId: string): Promise<GuidanceRequest> {
  if (!(await findInvestigation(deps.knex, scanId))) throw new NotFoundError(`no investigation ${scanId}`);
  const row = await findPendingGuidance(deps.knex, scanId);
  if (!row) throw new NotFoundError(`investigation ${scanId} is not waiting for guidance`);
  return view(row);
}

export type GuidanceReply = { request_id: string; answer: string } | { request_id: string; action: 'abort' };

/**
 * A human answers (or aborts) a pending question. In one transaction: the request becomes answered
 * or aborted (409 when it is not pending any more, 404 when unknown), the answer is sealed in the
 * vault, the audit event is written (never the answer), and the workflow gets
 * `guidanceAnswerSignal` carrying a reference to the sealed answer; a workflow that has ended
 * rolls it all back (409).
 */
export async function replyToGuidanceRequest(
  deps: Pick<ServiceDeps, 'knex' | 'temporal' | 'config'>,
  principal: Principal | null,
  scanId: string,
  reply: GuidanceReply,
): Promise<{ request_id: string; status: 'answered' | 'aborted' }> {
  const actor = principalName(principal);
  const status = 'answer' in reply ? 'answered' : 'aborted';
  return deps.knex.transaction(async (trx) => {
    const row = await findGuidanceRequest(trx, scanId, reply.request_id, true);
    if (!row) throw new NotFoundError(`no guidance request ${reply.request_id} of investigation ${scanId}`);
    if (row.status !== 'pending' || !(await replyToGuidance(trx, row.request_id, status, actor))) {
      throw new ConflictError(`guidance request ${row.request_id} is ${row.status}, not pending`);
    }
    if ('answer' in reply) {
      const sealed = vaultFor(deps.config).seal(Buffer.from(reply.answer, 'utf8'), guidanceVaultContext(scanId, row.request_id));
      await insertVaultSecret(trx, guidanceVaultOwner(row.request_id), sealed);
    }
    await recordAuditEvent(trx, {
      actor, action: 'investigation.guidance_reply', target_type: 'investigation', target_id: scanId,
      details: { request_id: row.request_id, kind: row.kind, reply: status },
    });
    const signal: GuidanceAnswer = 'answer' in reply ? { request_id: row.request_id, answer: guidanceAnswerRef(row.request_id) } : { request_id: row.request_id, action: 'abort' };
    try {
      await deps.temporal.workflow.getHandle(investigationTaskId(scanId)).signal(guidanceAnswerSignal, signal);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new ConflictError(`investigation ${scanId} is no longer running`);
      throw err;
    }
    return { request_id: row.request_id, status };
  });
}

/** The question's screenshot (PNG), streamed; an audit event `investigation.guidance_screenshot` first. */
export async function openGuidanceScreenshot(deps: Pick<ServiceDeps, 'knex' | 'blobs'>, principal: Principal | null, scanId: string, requestId: string): Promise<Readable> {
  const row = await findGuidanceRequest(deps.knex, scanId, requestId);
  const missing = () => new NotFoundError(`no screenshot for guidance request ${requestId} of investigation ${scanId}`);
  if (!row?.screenshot_key) throw missing();
  const stream = await deps.blobs.get(row.screenshot_key).catch((err: unknown) => {
    throw err instanceof BlobNotFoundError ? missing() : err;
  });
  await recordAuditEvent(deps.knex, {
    actor: principalName(principal), action: 'investigation.guidance_screenshot', target_type: 'investigation', target_id: scanId, details: { request_id: requestId },
  }).catch((err: unknown) => {
    stream.destroy();
    throw err;
  });
  return stream;
}

/**
 * The text to type: `text` itself, or, when it is a reference to a sealed answer of this scan
 * (what `askHuman` answers), the answer read from the vault. 404 when the reference names no answer.
 */
export async function resolveGuidanceText(deps: Pick<ServiceDeps, 'knex' | 'config'>, scanId: string, text: string): Promise<string> {
  const requestId = guidanceRefRequestId(text);
  if (!requestId) return text;
  const secret = await findVaultSecret(deps.knex, guidanceVaultOwner(requestId));
  if (!secret) throw new NotFoundError(`no answer to guidance request ${requestId}`);
  return vaultFor(deps.config).open(secret, guidanceVaultContext(scanId, requestId)).toString('utf8');
}
