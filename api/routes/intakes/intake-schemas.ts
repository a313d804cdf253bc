// Request and response schemas of the intake routes (the multipart submission is documented by
// IntakeSubmission; the route reads the form itself), with the views that shape an intake and a
// processing job for them.
import { z } from 'zod';
import { stripUnsafeNameCharacters } from '../../../domain/text-safety';
import { CASE_PRIORITIES } from '../../../domain/cases/case-states';
import { IntakePayloadSchema } from '../../../domain/intakes/intake-payload';
import { INTAKE_FILE_STATUSES } from '../../../domain/intakes/intake-file-status';
import { INTAKE_STATUSES, allowedUserMoves } from '../../../domain/intakes/intake-status';
import { INTAKE_JOB_STATUSES } from '../../../domain/intakes/intake-steps';
import type { IntakeJobRow } from '../../../services/intakes/intake-job-service';
import { intakeFileSummary, type IntakeDetail, type IntakeRow } from '../../../services/intakes/intake-service';
import { pageQueryShape, pageSchema } from '../../pagination';
import { ClassificationSchema } from '../classification/classification-schemas';

const FileSchema = z
  .object({
    id: z.string().uuid(),
    filename: z.string().describe('Sanitized file name'),
    sha256: z.string(),
    size: z.number().int(),
    content_type: z.string().describe('Sniffed from the content (not the declared type)'),
    declared_content_type: z.string().nullable().describe('What the client declared for the part'),
    status: z
      .enum(INTAKE_FILE_STATUSES)
      .describe('What processing made of it: pending, parsing (being read), read, truncated (more text than the bound: the first part read), skipped (a type without text), skipped_too_large (stopped at a parser bound), parse_failed'),
    status_reason: z.string().nullable().describe('Why it was truncated, skipped or not read (the bound and its setting)'),
  })
  .meta({ id: 'IntakeFile' });

export const IntakeFileParams = z.object({ id: z.string().uuid(), file_id: z.string().uuid() });

export const IntakeFileQuery = z.object({
  disposition: z
    .enum(['attachment', 'inline'])
    .default('attachment')
    .describe('attachment (default): a download of any file; inline: a preview, only for PNG, JPEG, GIF, WebP and PDF (422 not_previewable otherwise)'),
  purpose: z.string().trim().min(1).max(500).default('download').describe('Why (recorded in the audit log); default download'),
});

export const IntakeCreatedSchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(INTAKE_STATUSES),
    files: z.array(FileSchema),
    job_id: z.string().uuid().describe('The first processing job (GET /intakes/jobs/{id}); GET /intakes/{id} lists them all'),
    task_id: z.string().describe('The processing workflow, intake-<id> (GET /tasks/{task_id})'),
  })
  .meta({ id: 'IntakeCreated' });

export const JobSchema = z
  .object({
    id: z.string().uuid(),
    intake_id: z.string().uuid(),
    step: z.string(),
    status: z.enum(INTAKE_JOB_STATUSES),
    error: z.string().nullable(),
    attempts: z.number().int(),
    result: z.record(z.string(), z.unknown()).nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    updated_at: z.string(),
  })
  .meta({ id: 'IntakeJob' });

const IntakeSummarySchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(INTAKE_STATUSES),
    source: z.string(),
    summary: z.string(),
    loss_amount: z.string().nullable(),
    loss_currency: z.string().nullable(),
    occurred_at: z.string().nullable(),
    file_count: z.number().int(),
    case_id: z.string().uuid().nullable(),
    task_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'IntakeSummary' });

export const IntakePageSchema = pageSchema(IntakeSummarySchema, 'IntakePage');

export const IntakeDetailSchema = IntakeSummarySchema.extend({
  details: z.string(),
  urls: z.array(z.string()),
  status_reason: z.string().nullable(),
  submitted_by: z.string(),
  has_contact: z.boolean().describe('Whether contact data is in the vault (read it with GET /intakes/{id}/contact)'),
  allowed_status_moves: z.array(z.enum(INTAKE_STATUSES)),
  files: z.array(FileSchema),
  jobs: z.array(JobSchema),
  entities: z.array(z.object({ id: z.string().uuid(), type: z.string(), value: z.string(), display_value: z.string(), context: z.record(z.string(), z.unknown()) })),
  case: z.object({ id: z.string().uuid(), title: z.string(), status: z.string(), priority: z.string() }).nullable().describe('The case it is attached to'),
  classification: ClassificationSchema.nullable().describe('its place in the scam taxonomy (null until classified)'),
}).meta({ id: 'Intake' });

export const AttachSchema = z
  .object({
    intake_id: z.string().uuid(),
    case_id: z.string().uuid(),
    case_title: z.string(),
    created_case: z.boolean(),
    linked: z.boolean().describe('false when the intake was already linked to this case'),
    status: z.enum(INTAKE_STATUSES).describe('The intake\'s status after attaching'),
  })
  .meta({ id: 'IntakeCaseAttachment' });

export const MultipartDoc = z
  .object({
    payload: z.string().describe(`JSON text of the submission: ${JSON.stringify(Object.keys(IntakePayloadSchema.shape ?? {}))}`),
    files: z.array(z.string().meta({ format: 'binary' })).optional().describe('Zero or more files (evidence: screenshots, e-mails, PDFs, chat exports)'),
  })
  .meta({ id: 'IntakeSubmission' });


const dateTime = z.iso.datetime({ offset: true });

export const IntakeListQuery = z.object({
  status: z.enum(INTAKE_STATUSES).optional(),
  source: z.string().max(100).optional(),
  since: dateTime.optional().describe('Submitted at or after (ISO 8601)'),
  until: dateTime.optional().describe('Submitted before (ISO 8601)'),
  has_files: z.enum(['true', 'false']).optional(),
  q: z.string().max(200).optional().describe('Text in the summary or details'),
  ...pageQueryShape,
});

export const ContactQuery = z.object({ purpose: z.string().trim().min(3).max(500).describe('Why you read it (recorded in the audit log)') });

export const ContactSchema = z
  .object({ intake_id: z.string().uuid(), reporter_name: z.string().nullable(), contact_email: z.string().nullable(), contact_phone: z.string().nullable() })
  .meta({ id: 'IntakeContact' });

export const StatusMoveBody = z.strictObject({ status: z.enum(INTAKE_STATUSES), reason: z.string().trim().max(2000).optional() });

export const StatusMovedSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(INTAKE_STATUSES),
  previous_status: z.enum(INTAKE_STATUSES),
  allowed_status_moves: z.array(z.enum(INTAKE_STATUSES)),
});

export const JobActionBody = z.strictObject({ action: z.enum(['retry', 'cancel']) });

export const AttachBody = z
  .strictObject({
    case_id: z.string().uuid().optional(),
    create: z
      .strictObject({
        title: z.string().overwrite(stripUnsafeNameCharacters).trim().min(1).max(300),
        description: z.string().max(20_000).optional(),
        priority: z.enum(CASE_PRIORITIES).optional(),
        assignee: z.email().optional(),
      })
      .optional(),
  })
  .refine((b) => (b.case_id === undefined) !== (b.create === undefined), { message: 'give exactly one of case_id and create' });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function intakeJobView(j: IntakeJobRow): z.infer<typeof JobSchema> {
  return {
    id: j.id,
    intake_id: j.intake_id,
    step: j.step,
    status: j.status,
    error: j.error,
    attempts: j.attempts,
    result: j.result,
    started_at: iso(j.started_at),
    finished_at: iso(j.finished_at),
    updated_at: j.updated_at.toISOString(),
  };
}

export function intakeSummaryView(r: IntakeRow): z.infer<typeof IntakeSummarySchema> {
  return {
    id: r.id,
    status: r.status,
    source: r.source,
    summary: r.summary,
    loss_amount: r.loss_amount,
    loss_currency: r.loss_currency,
    occurred_at: iso(r.occurred_at),
    file_count: r.file_count,
    case_id: r.case_id,
    task_id: r.task_id,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function intakeDetailView(d: IntakeDetail): z.infer<typeof IntakeDetailSchema> {
  const { intake: r, linkedCase } = d;
  return {
    id: r.id,
    status: r.status,
    status_reason: r.status_reason,
    allowed_status_moves: allowedUserMoves(r.status),
    source: r.source,
    summary: r.summary,
    details: r.details,
    urls: r.urls,
    loss_amount: r.loss_amount,
    loss_currency: r.loss_currency,
    occurred_at: iso(r.occurred_at),
    file_count: r.file_count,
    submitted_by: r.submitted_by,
    has_contact: d.hasContact,
    case_id: r.case_id,
    case: linkedCase ? { id: linkedCase.id, title: linkedCase.title, status: linkedCase.status, priority: linkedCase.priority } : null,
    task_id: r.task_id,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    files: d.files.map(intakeFileSummary),
    jobs: d.jobs.map(intakeJobView),
    entities: d.entities.map((e) => ({ id: e.id, type: e.type, value: e.value, display_value: e.display_value, context: e.context })),
    classification: d.classification,
  };
}
