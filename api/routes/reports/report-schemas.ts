// The reports' request and response schemas: one-off reports and their downloads, report
// schedules, and the report templates.
import { z } from 'zod';
import { CADENCES } from '../../../domain/reports/cadence';
import {
  RecipientsSchema,
  ReportOptionsSchema,
  ReportScopeSchema,
  TemplateNameSchema,
  checkScopeAgainstTemplate,
} from '../../../domain/reports/report-request';
import { pageQueryShape } from '../../pagination';

// One-off reports and downloads.

export const GenerateReportSchema = z
  .object({
    template: TemplateNameSchema,
    scope: ReportScopeSchema,
    options: ReportOptionsSchema,
    recipients: z.array(z.email()).max(50).default([]).describe('Optional: e-mail the report to these addresses'),
  })
  .strict()
  .superRefine((v, ctx) => checkScopeAgainstTemplate(v.template, v.scope, ctx, ['scope']));


export const GeneratedReportSchema = z
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

export const GeneratedReportQuery = z.object({ schedule_id: z.string().uuid().optional(), template: z.string().max(100).optional(), ...pageQueryShape });

export const ReportDownloadHeaders = z.object({ range: z.string().optional() });

// Report schedules.

export const ScheduleSchema = z
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

export const CreateScheduleSchema = z
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

export const ScheduleListQuery = z.object({
  is_active: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')),
  ...pageQueryShape,
});

// Report templates.

export const TemplateSchema = z
  .object({
    name: z.string(),
    title: z.string(),
    description: z.string(),
    default_entity_types: z.array(z.string()),
    scope_keys: z.array(z.object({ key: z.string(), description: z.string() })),
    formats: z.array(z.string()),
  })
  .meta({ id: 'ReportTemplate' });

export const TemplateListSchema = z.object({ items: z.array(TemplateSchema) });
