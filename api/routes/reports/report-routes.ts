import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { z } from 'zod';
import { claimIdempotencyKey } from '../../../db/repositories/idempotency-key-repository';
import { findGeneratedReport, listGeneratedReports } from '../../../db/repositories/reports/generated-report-repository';
import { REPORT_CONTENT_TYPES } from '../../../domain/reports/report-content';
import { reportFileName } from '../../../domain/reports/report-file-name';
import {
  ReportOptionsSchema,
  ReportScopeSchema,
  TemplateNameSchema,
  checkScopeAgainstTemplate,
} from '../../../domain/reports/report-request';
import { BlobNotFoundError } from '../../../infra/blob-store';
import { startPlatformWorkflow } from '../../../services/tasks/platform-workflows';
import { NotFoundError, UnprocessableError } from '../../errors';
import { IdempotencyKeySchema, requestHash } from '../../idempotency-key';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { TaskAcceptedSchema } from '../tasks/task-schemas';
import { generateReportWorkflow } from '../../../workflows/reports/generate-report-workflow';

const GenerateSchema = z
  .object({
    template: TemplateNameSchema,
    scope: ReportScopeSchema,
    options: ReportOptionsSchema,
    recipients: z.array(z.email()).max(50).default([]).describe('Optional: e-mail the report to these addresses'),
  })
  .strict()
  .superRefine((v, ctx) => checkScopeAgainstTemplate(v.template, v.scope, ctx, ['scope']));

const GeneratedReportSchema = z
  .object({
    id: z.string().uuid(),
    schedule_id: z.string().uuid().nullable(),
    due_at: z.string().describe('due time (scheduled) or request time (one-off), ISO 8601 UTC'),
    template: z.string(),
    format: z.string(),
    title: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    task_id: z.string().nullable(),
    requested_by: z.string().nullable(),
    delivery_status: z.string().nullable().describe('pending, sent, skipped, failed, or null when not e-mailed'),
    created_at: z.string(),
    download_path: z.string(),
  })
  .meta({ id: 'GeneratedReport' });

export const reportRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof GenerateSchema>>({
    method: 'post',
    path: '/reports/generate',
    summary: 'Generate a report once (a Temporal workflow); poll /tasks/{task_id}. With Idempotency-Key, a repeat answers the same task',
    tags: ['reports'],
    access: { roles: ['admin', 'analyst'], scopes: ['reports:write'] },
    request: { body: GenerateSchema, headers: z.object({ 'idempotency-key': IdempotencyKeySchema.optional() }) },
    responses: {
      202: { description: 'Accepted (or the task an earlier request with the same Idempotency-Key started)', schema: TaskAcceptedSchema },
      400: { description: 'Invalid input (body, or an Idempotency-Key of the wrong form)', schema: ErrorSchema },
      422: { description: 'idempotency_key_reused: the Idempotency-Key was used before with a different body', schema: ErrorSchema },
    },
    handler: async ({ body, headers, principal, deps }) => {
      const requestedBy = principalName(principal);
      let taskId = `report-${randomUUID()}`;
      const key = headers['idempotency-key'];
      if (key !== undefined) {
        const hash = requestHash(body);
        const { row } = await claimIdempotencyKey(deps.knex, { scope: 'reports.generate', principal: requestedBy, key, requestHash: hash, response: { task_id: taskId } });
        if (row.request_hash !== hash) {
          throw new UnprocessableError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request body; use a new key');
        }
        taskId = row.response.task_id;
      }
      try {
        await startPlatformWorkflow(deps.temporal, {
          workflow: generateReportWorkflow,
          workflowId: taskId,
          taskQueue: deps.config.temporal.task_queue,
          args: [{ ...body, requestedAt: new Date().toISOString(), requestedBy }],
          recordId: taskId,
          title: `One-off report: ${body.template} (${body.options.format})`,
          // A task id is used once: a repeat after the task ended must not start it again.
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        });
      } catch (err) {
        // A repeat with the same Idempotency-Key: the task exists (running or done); never a second one.
        if (!(key !== undefined && err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
      return { status: 202, body: { task_id: taskId, kind: 'report', status: 'queued', status_url: `/tasks/${taskId}` } };
    },
  }),
  defineRoute<Record<string, never>, { schedule_id?: string; template?: string; limit: number; cursor?: { ts: string; id: string } }>({
    method: 'get',
    path: '/reports/generated',
    summary: 'List generated reports, newest first',
    tags: ['reports'],
    access: { roles: ['admin', 'analyst'], scopes: ['reports:read'] },
    request: { query: z.object({ schedule_id: z.string().uuid().optional(), template: z.string().max(100).optional(), ...pageQueryShape }) },
    responses: { 200: { description: 'A page of reports', schema: pageSchema(GeneratedReportSchema, 'GeneratedReportPage') } },
    handler: async ({ query, deps }) => {
      const page = await listGeneratedReports(deps.knex, { scheduleId: query.schedule_id, template: query.template, limit: query.limit, after: query.cursor });
      return {
        body: {
          items: page.rows.map((r) => ({
            id: r.id,
            schedule_id: r.schedule_id,
            due_at: r.due_at.toISOString(),
            template: r.template,
            format: r.format,
            title: r.title,
            size_bytes: r.size_bytes,
            sha256: r.sha256,
            task_id: r.task_id,
            requested_by: r.requested_by,
            delivery_status: r.delivery_status,
            created_at: r.created_at.toISOString(),
            download_path: `/reports/generated/${r.id}/download`,
          })),
          next_cursor: encodeCursor(page.next),
        },
      };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'get',
    path: '/reports/generated/{id}/download',
    summary: 'Download a generated report (streamed from the blob store; one byte range with Range: bytes=start-end)',
    tags: ['reports'],
    access: { roles: ['admin', 'analyst'], scopes: ['reports:read'] },
    request: { params: UuidParam, headers: z.object({ range: z.string().optional() }) },
    responses: {
      200: { description: 'The report file; X-Content-SHA256 carries its hash', contentType: Object.values(REPORT_CONTENT_TYPES) },
      206: { description: 'The requested byte range (Content-Range); a Range that is not one satisfiable bytes range is ignored (200)', contentType: Object.values(REPORT_CONTENT_TYPES) },
      404: { description: 'No such report', schema: ErrorSchema },
    },
    handler: async ({ params, headers, deps, ctx }) => {
      const report = await findGeneratedReport(deps.knex, params.id);
      if (!report) throw new NotFoundError(`no generated report ${params.id}`);
      const range = singleByteRange(headers.range, report.size_bytes);
      // Streamed from the blob store (local directory or S3) through the API; no presigned URLs.
      const body = await deps.blobs.get(report.blob_key, range ?? undefined).catch((err: unknown) => {
        if (err instanceof BlobNotFoundError) throw new NotFoundError(`no generated report ${params.id}`);
        throw err;
      });
      ctx.type = REPORT_CONTENT_TYPES[report.format];
      ctx.attachment(reportFileName(report.template, report.due_at, report.format));
      ctx.set('X-Content-SHA256', report.sha256);
      ctx.set('Accept-Ranges', 'bytes');
      if (!range) {
        ctx.length = report.size_bytes;
        return { body };
      }
      ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${report.size_bytes}`);
      ctx.length = range.end - range.start + 1;
      return { status: 206, body };
    },
  }),
];

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` within the size, else null (the whole file is sent). */
function singleByteRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '') || size === 0) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || start > end || start >= size) return null;
  return { start, end };
}
