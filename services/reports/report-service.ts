// One-off reports and the generated reports (one-off and scheduled) with their downloads.
//
// Use cases:
// - startReport: start a one-off report task (`report-<uuid>`); with an Idempotency-Key a repeat answers the same task
// - listReports: generated reports with their delivery status, newest first
// - openReportDownload: a generated report's bytes from the blob store, whole or one byte range
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { findGeneratedReport, listGeneratedReports, type GeneratedReportRow } from '../../db/repositories/reports/generated-report-repository';
import type { Principal } from '../../domain/accounts/roles';
import { principalName } from '../../domain/accounts/principal-name';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { singleByteRange } from '../../domain/reports/byte-range';
import type { ReportOptions, ReportScope } from '../../domain/reports/report-request';
import { BlobNotFoundError } from '../../infra/blob-store';
import { generateReportWorkflow } from '../../workflows/reports/generate-report-workflow';
import { NotFoundError } from '../errors';
import { claimIdempotentResponse, type IdempotencyKey } from '../idempotency';
import type { ServiceDeps } from '../service-deps';
import { startPlatformWorkflow } from '../tasks/platform-workflows';

export type { GeneratedReportRow };

/** A one-off report request (validated against its template). */
export interface OneOffReportInput {
  template: string;
  scope: ReportScope;
  options: ReportOptions;
  recipients: string[];
}

/**
 * Starts the report's workflow and answers its task id. With an Idempotency-Key the first request
 * records its task id; a repeat with the same body answers that task (running or done) and never
 * starts a second one; the same key with another body is a 422.
 */
export async function startReport(
  deps: Pick<ServiceDeps, 'knex' | 'temporal' | 'config'>,
  principal: Principal | null,
  input: OneOffReportInput,
  idempotency?: IdempotencyKey,
): Promise<{ taskId: string }> {
  const requestedBy = principalName(principal);
  let taskId = `report-${randomUUID()}`;
  if (idempotency) {
    const claimed = await claimIdempotentResponse(deps.knex, 'reports.generate', requestedBy, idempotency, { task_id: taskId });
    taskId = claimed.response.task_id;
  }
  try {
    await startPlatformWorkflow(deps.temporal, {
      workflow: generateReportWorkflow,
      workflowId: taskId,
      taskQueue: deps.config.temporal.task_queue,
      args: [{ ...input, requestedAt: new Date().toISOString(), requestedBy }],
      recordId: taskId,
      title: `One-off report: ${input.template} (${input.options.format})`,
      // A task id is used once: a repeat after the task ended must not start it again.
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (err) {
    // A repeat with the same Idempotency-Key: the task exists (running or done); never a second one.
    if (!(idempotency && err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return { taskId };
}

/** Generated reports (one-off and scheduled), newest first, each with its e-mail delivery status. */
export async function listReports(
  deps: Pick<ServiceDeps, 'knex'>,
  filter: { scheduleId?: string; template?: string; limit: number; after?: Keyset },
): Promise<KeysetPage<GeneratedReportRow & { delivery_status: string | null }>> {
  return listGeneratedReports(deps.knex, filter);
}

/** A report's bytes as the download serves them: `range` is null when the whole file is sent. */
export interface ReportDownload {
  report: GeneratedReportRow;
  range: { start: number; end: number } | null;
  body: Readable;
}

/**
 * The report's bytes streamed from the blob store (local directory or S3; no presigned URLs): the
 * one byte range `rangeHeader` asks for, or the whole file when it asks for none or for one that
 * cannot be served. 404 when the report, or its blob, does not exist.
 */
export async function openReportDownload(deps: Pick<ServiceDeps, 'knex' | 'blobs'>, id: string, rangeHeader: string | undefined): Promise<ReportDownload> {
  const report = await findGeneratedReport(deps.knex, id);
  if (!report) throw new NotFoundError(`no generated report ${id}`);
  const range = singleByteRange(rangeHeader, report.size_bytes);
  const body = await deps.blobs.get(report.blob_key, range ?? undefined).catch((err: unknown) => {
    if (err instanceof BlobNotFoundError) throw new NotFoundError(`no generated report ${id}`);
    throw err;
  });
  return { report, range, body };
}
