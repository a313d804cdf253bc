import { z } from 'zod';
import { listReportSchedules, type ReportScheduleRow } from '../../../db/repositories/reports/report-schedule-repository';
import { CADENCES } from '../../../domain/reports/cadence';
import {
  RecipientsSchema,
  ReportOptionsSchema,
  ReportScopeSchema,
  TemplateNameSchema,
  checkScopeAgainstTemplate,
} from '../../../domain/reports/report-request';
import { REPORT_TEMPLATES } from '../../../domain/reports/report-templates';
import { ScheduleWorkflowStartError, createSchedule, deactivateSchedule, type ScheduleServiceDeps } from '../../../services/reports/report-schedule-service';
import type { AppDeps } from '../../app-deps';
import { NotFoundError, ServiceUnavailableError } from '../../errors';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';

const ScheduleSchema = z
  .object({
    id: z.string().uuid(),
    template: z.string(),
    cadence: z.enum(CADENCES),
    scope: ReportScopeSchema,
    options: ReportOptionsSchema,
    recipients: z.array(z.string()),
    is_active: z.boolean(),
    next_run_at: z.string().describe('ISO 8601 UTC'),
    last_run_at: z.string().nullable().describe('due time of the last completed run'),
    created_at: z.string(),
    created_by: z.string(),
    deactivated_at: z.string().nullable(),
    deactivated_by: z.string().nullable(),
    workflow_id: z.string().describe('Temporal workflow id: report-schedule-<id>'),
    last_error: z
      .string()
      .nullable()
      .describe('Why the last due time produced no report (e.g. its stored template or scope no longer validates); null after a completed run'),
  })
  .meta({ id: 'ReportSchedule' });

const CreateScheduleSchema = z
  .object({
    template: TemplateNameSchema,
    cadence: z.enum(CADENCES),
    scope: ReportScopeSchema,
    options: ReportOptionsSchema,
    recipients: RecipientsSchema,
    next_run_at: z.iso.datetime({ offset: true }).optional().describe('First run (ISO 8601); past means due now; default one cadence period after creation'),
  })
  .strict()
  .superRefine((v, ctx) => checkScopeAgainstTemplate(v.template, v.scope, ctx, ['scope']));

const scheduleServiceDeps = (deps: AppDeps): ScheduleServiceDeps => ({ knex: deps.knex, temporal: deps.temporal, taskQueue: deps.config.temporal.task_queue });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function scheduleView(r: ReportScheduleRow): z.infer<typeof ScheduleSchema> {
  return {
    id: r.id,
    template: r.template,
    cadence: r.cadence,
    scope: r.scope as z.infer<typeof ReportScopeSchema>,
    options: r.options as z.infer<typeof ReportOptionsSchema>,
    recipients: r.recipients,
    is_active: r.is_active,
    next_run_at: r.next_run_at.toISOString(),
    last_run_at: iso(r.last_run_at),
    created_at: r.created_at.toISOString(),
    created_by: r.created_by,
    deactivated_at: iso(r.deactivated_at),
    deactivated_by: r.deactivated_by,
    workflow_id: r.workflow_id,
    last_error: r.last_error ?? null,
  };
}

const TemplateSchema = z
  .object({
    name: z.string(),
    title: z.string(),
    description: z.string(),
    default_entity_types: z.array(z.string()),
    scope_keys: z.array(z.object({ key: z.string(), description: z.string() })),
    formats: z.array(z.string()),
  })
  .meta({ id: 'ReportTemplate' });

export const scheduledReportRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof CreateScheduleSchema>>({
    method: 'post',
    path: '/intelligence/scheduled-reports',
    summary: 'Create a report schedule (starts its Temporal workflow report-schedule-<id>)',
    tags: ['scheduled reports'],
    access: { roles: ['admin'] },
    request: { body: CreateScheduleSchema },
    responses: {
      201: { description: 'The schedule', schema: ScheduleSchema },
      400: { description: 'Invalid input; nothing stored', schema: ErrorSchema },
      503: { description: 'Temporal did not accept the workflow; nothing stored', schema: ErrorSchema },
    },
    handler: async ({ body, principal, deps }) => {
      try {
        const row = await createSchedule(scheduleServiceDeps(deps), body, principalName(principal));
        return { status: 201, body: scheduleView(row) };
      } catch (err) {
        if (err instanceof ScheduleWorkflowStartError) throw new ServiceUnavailableError('the workflow engine did not accept the schedule; nothing was stored, try again');
        throw err;
      }
    },
  }),
  defineRoute<Record<string, never>, { is_active?: boolean; limit: number; cursor?: { ts: string; id: string } }>({
    method: 'get',
    path: '/intelligence/scheduled-reports',
    summary: 'List report schedules, newest first (deactivated ones stay listed for audit)',
    tags: ['scheduled reports'],
    access: { roles: ['admin', 'analyst'] },
    request: {
      query: z.object({
        is_active: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')),
        ...pageQueryShape,
      }),
    },
    responses: { 200: { description: 'A page of schedules', schema: pageSchema(ScheduleSchema, 'ReportSchedulePage') } },
    handler: async ({ query, deps }) => {
      const page = await listReportSchedules(deps.knex, { isActive: query.is_active, limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map(scheduleView), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'put',
    path: '/intelligence/scheduled-reports/{id}/deactivate',
    summary: 'Deactivate a schedule: cancels its workflow (and a run in progress); the record stays for audit. Idempotent: again answers 200 with the record unchanged',
    tags: ['scheduled reports'],
    access: { roles: ['admin'] },
    request: { params: UuidParam },
    responses: { 200: { description: 'The deactivated schedule', schema: ScheduleSchema }, 404: { description: 'No such schedule', schema: ErrorSchema } },
    handler: async ({ params, principal, deps }) => {
      const result = await deactivateSchedule(scheduleServiceDeps(deps), params.id, principalName(principal));
      if (!result) throw new NotFoundError(`no report schedule ${params.id}`);
      return { body: scheduleView(result.row) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/intelligence/report-templates',
    summary: 'The report templates the platform ships, with the scope keys each understands',
    tags: ['scheduled reports'],
    access: { roles: ['admin', 'analyst'], scopes: ['reports:read', 'reports:write'] },
    responses: { 200: { description: 'Templates', schema: z.object({ items: z.array(TemplateSchema) }) } },
    handler: async () => ({
      body: {
        items: REPORT_TEMPLATES.map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          default_entity_types: t.defaultEntityTypes,
          scope_keys: t.scopeKeys,
          formats: ['pdf', 'csv', 'xlsx', 'json'],
        })),
      },
    }),
  }),
];
