// One-off reports: start one (a task), list the generated reports, download one (whole or a byte
// range). The use cases are in services/reports/report-service.ts.
import type { z } from 'zod';
import { REPORT_CONTENT_TYPES } from '../../../domain/reports/report-content';
import { reportFileName } from '../../../domain/reports/report-file-name';
import { listReports, openReportDownload, startReport } from '../../../services/reports/report-service';
import { IdempotencyHeaders, requestHash } from '../../idempotency-key';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { TaskAcceptedSchema } from '../tasks/task-schemas';
import { GenerateReportSchema, GeneratedReportQuery, GeneratedReportSchema, ReportDownloadHeaders } from './report-schemas';

export const reportRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof GenerateReportSchema>>({
    method: 'post',
    path: '/reports/generate',
    summary: 'Generate a report once (a Temporal workflow); poll /tasks/{task_id}. With Idempotency-Key, a repeat answers the same task',
    tags: ['reports'],
    access: { roles: ['admin', 'analyst'], scopes: ['reports:write'] },
    request: { body: GenerateReportSchema, headers: IdempotencyHeaders },
    responses: {
      202: { description: 'Accepted (or the task an earlier request with the same Idempotency-Key started)', schema: TaskAcceptedSchema },
      400: { description: 'Invalid input (body, or an Idempotency-Key of the wrong form)', schema: ErrorSchema },
      422: { description: 'idempotency_key_reused: the Idempotency-Key was used before with a different body', schema: ErrorSchema },
    },
    handler: async ({ body, headers, principal, deps }) => {
      const key = headers['idempotency-key'];
      const { taskId } = await startReport(deps, principal, body, key === undefined ? undefined : { key, hash: requestHash(body) });
      return { status: 202, body: { task_id: taskId, kind: 'report', status: 'queued', status_url: `/tasks/${taskId}` } };
    },
  }),
  defineRoute<Record<string, never>, { schedule_id?: string; template?: string; limit: number; cursor?: { ts: string; id: string } }>({
    method: 'get',
    path: '/reports/generated',
    summary: 'List generated reports, newest first',
    tags: ['reports'],
    access: { roles: ['admin', 'analyst'], scopes: ['reports:read'] },
    request: { query: GeneratedReportQuery },
    responses: { 200: { description: 'A page of reports', schema: pageSchema(GeneratedReportSchema, 'GeneratedReportPage') } },
    handler: async ({ query, deps }) => {
      const page = await listReports(deps, { scheduleId: query.schedule_id, template: query.template, limit: query.limit, after: query.cursor });
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
    request: { params: UuidParam, headers: ReportDownloadHeaders },
    responses: {
      200: { description: 'The report file; X-Content-SHA256 carries its hash', contentType: Object.values(REPORT_CONTENT_TYPES) },
      206: { description: 'The requested byte range (Content-Range); a Range that is not one satisfiable bytes range is ignored (200)', contentType: Object.values(REPORT_CONTENT_TYPES) },
      404: { description: 'No such report', schema: ErrorSchema },
    },
    handler: async ({ params, headers, deps, ctx }) => {
      const { report, range, body } = await openReportDownload(deps, params.id, headers.range);
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
