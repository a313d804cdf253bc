// Report schedules (create, list, deactivate) and the report templates. The use cases are in
// services/reports/report-schedule-service.ts.
import type { z } from 'zod';
import type { ReportOptionsSchema, ReportScopeSchema } from '../../../domain/reports/report-request';
import { REPORT_TEMPLATES } from '../../../domain/reports/report-templates';
import { createSchedule, deactivateSchedule, listSchedules, scheduleServiceDeps, type ReportScheduleRow } from '../../../services/reports/report-schedule-service';
import { encodeCursor, pageSchema } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { CreateScheduleSchema, ScheduleListQuery, ScheduleSchema, TemplateListSchema } from './report-schemas';

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
      const row = await createSchedule(scheduleServiceDeps(deps), body, principalName(principal));
      return { status: 201, body: scheduleView(row) };
    },
  }),
  defineRoute<Record<string, never>, { is_active?: boolean; limit: number; cursor?: { ts: string; id: string } }>({
    method: 'get',
    path: '/intelligence/scheduled-reports',
    summary: 'List report schedules, newest first (deactivated ones stay listed for audit)',
    tags: ['scheduled reports'],
    access: { roles: ['admin', 'analyst'] },
    request: { query: ScheduleListQuery },
    responses: { 200: { description: 'A page of schedules', schema: pageSchema(ScheduleSchema, 'ReportSchedulePage') } },
    handler: async ({ query, deps }) => {
      const page = await listSchedules(deps, { isActive: query.is_active, limit: query.limit, after: query.cursor });
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
      const { row } = await deactivateSchedule(scheduleServiceDeps(deps), params.id, principalName(principal));
      return { body: scheduleView(row) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/intelligence/report-templates',
    summary: 'The report templates the platform ships, with the scope keys each understands',
    tags: ['scheduled reports'],
    access: { roles: ['admin', 'analyst'], scopes: ['reports:read', 'reports:write'] },
    responses: { 200: { description: 'Templates', schema: TemplateListSchema } },
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
