// Evidence intake: submit (multipart), list, read, contact data from the vault (analysts,
// audited), status moves, processing jobs. Who may do what:
// - service keys with intake:write: submit only;
// - analysts and admins: everything, except that only analysts decrypt contact data;
// - reviewers: read intakes and jobs (never contact data), no changes;
// - researchers: nothing (403 on every intake route).
import { z } from 'zod';
import { findIntake, findIntakeJob, listIntakeFiles, listIntakeJobs, listIntakes, updateIntakeStatus, type IntakeFileRow, type IntakeJobRow } from '../../../db/repositories/intakes/intake-repository';
import { listSourceEntities } from '../../../db/repositories/intelligence/entity-repository';
import { findVaultSecret } from '../../../db/repositories/vault/vault-secret-repository';
import { INTAKE_STATUSES, SYSTEM_STATUSES, allowedUserMoves, canUserMove, type IntakeStatus } from '../../../domain/intakes/intake-status';
import { IntakePayloadSchema } from '../../../domain/intakes/intake-payload';
import { recordAuditEvent } from '../../../db/repositories/audit/audit-event-repository';
import { CASE_PRIORITIES, type CasePriority } from '../../../domain/cases/case-states';
import { findCase } from '../../../db/repositories/cases/case-repository';
import { IdempotencyKeyReusedError, attachIntakeToCase, cancelIntakeJobs, readIntakeContact, retryIntakeJob, submitIntake } from '../../../services/intakes/intake-service';
import { BadRequestError, ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../../errors';
import { IdempotencyKeySchema, requestHash } from '../../idempotency-key';
import { parseMultipart } from '../../multipart';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute, type RouteDef } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';

const READERS = { roles: ['admin', 'analyst', 'reviewer'] } as const;
const WRITERS = { roles: ['admin', 'analyst'] } as const;

const FileSchema = z
  .object({
    id: z.string().uuid(),
    filename: z.string().describe('Sanitized file name'),
    sha256: z.string(),
    size: z.number().int(),
    content_type: z.string().describe('Sniffed from the content (not the declared type)'),
    declared_content_type: z.string().nullable().describe('What the client declared for the part'),
  })
  .meta({ id: 'IntakeFile' });

const IntakeCreatedSchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(INTAKE_STATUSES),
    files: z.array(FileSchema),
    job_id: z.string().uuid().describe('The first processing job (GET /intakes/jobs/{id}); GET /intakes/{id} lists them all'),
    task_id: z.string().describe('The processing workflow, intake-<id> (GET /tasks/{task_id})'),
  })
  .meta({ id: 'IntakeCreated' });

const JobSchema = z
  .object({
    id: z.string().uuid(),
    intake_id: z.string().uuid(),
    step: z.string(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
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

const IntakeDetailSchema = IntakeSummarySchema.extend({
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
}).meta({ id: 'Intake' });

const AttachSchema = z
  .object({
    intake_id: z.string().uuid(),
    case_id: z.string().uuid(),
    case_title: z.string(),
    created_case: z.boolean(),
    linked: z.boolean().describe('false when the intake was already linked to this case'),
    status: z.enum(INTAKE_STATUSES).describe('The intake\'s status after attaching'),
  })
  .meta({ id: 'IntakeCaseAttachment' });

/** The path (`body.payload.x.0`) of the first string or key holding U+0000, or null. */
function pathWithNul(value: unknown, at = 'body.payload'): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? at : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = pathWithNul(v, `${at}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return at;
      const found = pathWithNul(v, `${at}.${k}`);
      if (found) return found;
    }
  }
  return null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function fileOut(f: IntakeFileRow) {
  return { id: f.id, filename: f.filename, sha256: f.sha256, size: Number(f.size), content_type: f.content_type, declared_content_type: f.declared_content_type };
}

export function jobOut(j: IntakeJobRow) {
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

const MultipartDoc = z
  .object({
    payload: z.string().describe(`JSON text of the submission: ${JSON.stringify(Object.keys(IntakePayloadSchema.shape ?? {}))}`),
    files: z.array(z.string().meta({ format: 'binary' })).optional().describe('Zero or more files (evidence: screenshots, e-mails, PDFs, chat exports)'),
  })
  .meta({ id: 'IntakeSubmission' });

const submitRoute = (path: string): RouteDef =>
  defineRoute({
    method: 'post',
    path,
    summary: 'Submit evidence: a JSON `payload` part and zero or more `files` parts. With Idempotency-Key, a repeat answers the first intake (200)',
    tags: ['intakes'],
    access: { roles: ['admin', 'analyst'], scopes: ['intake:write'] },
    request: { multipart: MultipartDoc, headers: z.object({ 'idempotency-key': IdempotencyKeySchema.optional() }) },
    responses: {
      200: { description: 'A repeat with the same Idempotency-Key: the first intake', schema: IntakeCreatedSchema },
      201: { description: 'Stored; processing started (task_id)', schema: IntakeCreatedSchema },
      400: { description: 'Invalid form: no payload part, payload not JSON or not valid (details name each field path, e.g. body.payload.summary), unexpected parts', schema: ErrorSchema },
      413: { description: 'Over a limit (file size, file count, total size); the message names it; nothing is stored', schema: ErrorSchema },
      415: { description: 'Not multipart/form-data', schema: ErrorSchema },
      422: { description: 'idempotency_key_reused: the key was used before with a different request', schema: ErrorSchema },
    },
    handler: async ({ headers, principal, deps, ctx }) => {
      const limits = deps.config.intake;
      const form = await parseMultipart(
        ctx,
        {
          maxFileBytes: limits.max_file_mb * 1024 * 1024,
          maxFiles: limits.max_files,
          maxTotalBytes: limits.max_total_mb * 1024 * 1024,
          maxFieldBytes: deps.config.api.body_limit_mb * 1024 * 1024,
        },
        'files',
      );
      try {
        const unknown = Object.keys(form.fields).filter((k) => k !== 'payload');
        if (unknown.length) {
          throw new ValidationError(`unexpected form fields: ${unknown.join(', ')}`, unknown.map((k) => ({ path: `body.${k}`, message: 'unexpected field; the form has a payload part and files parts' })));
        }
        const raw = form.fields.payload ?? [];
        if (raw.length !== 1) {
          throw new ValidationError('the form needs exactly one payload part (JSON)', [{ path: 'body.payload', message: raw.length ? 'given more than once' : 'required: a part named payload holding JSON' }]);
        }
        let json: unknown;
        try {
          json = JSON.parse(raw[0]);
        } catch {
          throw new BadRequestError('invalid_json', 'the payload part is not valid JSON', [{ path: 'body.payload', message: 'not valid JSON' }]);
        }
        // PostgreSQL text cannot hold U+0000: refuse it with the field named instead of failing later.
        const nul = pathWithNul(json);
        if (nul) throw new ValidationError(`invalid payload: ${nul}: contains a NUL character`, [{ path: nul, message: 'contains a NUL character' }]);
        const parsed = IntakePayloadSchema.safeParse(json);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => ({ path: ['body', 'payload', ...i.path.map(String)].join('.'), message: i.message }));
          throw new ValidationError(`invalid payload: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
        }
        const key = headers['idempotency-key'];
        const submittedBy = principalName(principal);
        const idempotency = key === undefined
          ? undefined
          : { key, hash: requestHash({ payload: parsed.data, files: form.files.map((f) => ({ sha256: f.sha256, name: f.originalName, type: f.declaredType })) }) };
        let result;
        try {
          result = await submitIntake(deps, { payload: parsed.data, files: form.files, submittedBy, idempotency });
        } catch (err) {
          if (err instanceof IdempotencyKeyReusedError) throw new UnprocessableError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request; use a new key');
          throw err;
        }
        return { status: result.created ? 201 : 200, body: result.intake };
      } finally {
        await form.cleanup();
      }
    },
  });

const dateTime = z.iso.datetime({ offset: true });

export const intakeRoutes: RouteDef[] = [
  submitRoute('/intakes'),
  submitRoute('/intakes/'),
  defineRoute<Record<string, never>, { status?: IntakeStatus; source?: string; since?: string; until?: string; has_files?: 'true' | 'false'; q?: string; limit: number; cursor?: { ts: string; id: string } }>({
    method: 'get',
    path: '/intakes/',
    summary: 'List intakes, newest first (never contact data)',
    tags: ['intakes'],
    access: READERS,
    request: {
      query: z.object({
        status: z.enum(INTAKE_STATUSES).optional(),
        source: z.string().max(100).optional(),
        since: dateTime.optional().describe('Submitted at or after (ISO 8601)'),
        until: dateTime.optional().describe('Submitted before (ISO 8601)'),
        has_files: z.enum(['true', 'false']).optional(),
        q: z.string().max(200).optional().describe('Text in the summary or details'),
        ...pageQueryShape,
      }),
    },
    responses: { 200: { description: 'A page of intakes', schema: pageSchema(IntakeSummarySchema, 'IntakePage') } },
    handler: async ({ query, deps }) => {
      const page = await listIntakes(deps.knex, {
        status: query.status,
        source: query.source,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
        has_files: query.has_files === undefined ? undefined : query.has_files === 'true',
        q: query.q || undefined,
        limit: query.limit,
        after: query.cursor,
      });
      return {
        body: {
          items: page.rows.map((r) => ({
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
          })),
          next_cursor: encodeCursor(page.next),
        },
      };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'get',
    path: '/intakes/{id}',
    summary: 'One intake with its files, jobs, entities found and linked case (never contact data)',
    tags: ['intakes'],
    access: READERS,
    request: { params: UuidParam },
    responses: { 200: { description: 'The intake', schema: IntakeDetailSchema }, 404: { description: 'No such intake', schema: ErrorSchema } },
    handler: async ({ params, deps }) => {
      const r = await findIntake(deps.knex, params.id);
      if (!r) throw new NotFoundError(`no intake ${params.id}`);
      const [files, jobs, entities, secret, linkedCase] = await Promise.all([
        listIntakeFiles(deps.knex, r.id),
        listIntakeJobs(deps.knex, r.id),
        listSourceEntities(deps.knex, 'intake', r.id),
        findVaultSecret(deps.knex, { kind: 'intake', id: r.id }),
        r.case_id ? findCase(deps.knex, r.case_id) : Promise.resolve(undefined),
      ]);
      return {
        body: {
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
          has_contact: Boolean(secret),
          case_id: r.case_id,
          case: linkedCase ? { id: linkedCase.id, title: linkedCase.title, status: linkedCase.status, priority: linkedCase.priority } : null,
          task_id: r.task_id,
          created_at: r.created_at.toISOString(),
          updated_at: r.updated_at.toISOString(),
          files: files.map(fileOut),
          jobs: jobs.map(jobOut),
          entities: entities.map((e) => ({ id: e.id, type: e.type, value: e.value, display_value: e.display_value, context: e.context })),
        },
      };
    },
  }),
  defineRoute<{ id: string }, { purpose: string }>({
    method: 'get',
    path: '/intakes/{id}/contact',
    summary: 'Decrypt the reporter\'s contact data (analysts only); every read is an audit event with its purpose',
    tags: ['intakes'],
    access: { roles: ['analyst'] },
    request: {
      params: UuidParam,
      query: z.object({ purpose: z.string().trim().min(3).max(500).describe('Why you read it (recorded in the audit log)') }),
    },
    responses: {
      200: {
        description: 'The contact data (fields absent when not given)',
        schema: z.object({ intake_id: z.string().uuid(), reporter_name: z.string().nullable(), contact_email: z.string().nullable(), contact_phone: z.string().nullable() }).meta({ id: 'IntakeContact' }),
      },
      404: { description: 'No such intake', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      if (!(await findIntake(deps.knex, params.id))) throw new NotFoundError(`no intake ${params.id}`);
      const contact = await readIntakeContact(deps.knex, deps.config, { intakeId: params.id, actor: principalName(principal), purpose: query.purpose });
      ctx.set('Cache-Control', 'no-store');
      return {
        body: {
          intake_id: params.id,
          reporter_name: contact?.reporter_name ?? null,
          contact_email: contact?.contact_email ?? null,
          contact_phone: contact?.contact_phone ?? null,
        },
      };
    },
  }),
  defineRoute<{ id: string }, Record<string, never>, { status: IntakeStatus; reason?: string }>({
    method: 'post',
    path: '/intakes/{id}/status',
    summary: 'Move an intake (state machine: processed -> triaged -> linked | rejected | closed; see README); an illegal move is 409 naming the allowed ones',
    tags: ['intakes'],
    access: WRITERS,
    request: {
      params: UuidParam,
      body: z.strictObject({ status: z.enum(INTAKE_STATUSES), reason: z.string().trim().max(2000).optional() }),
    },
    responses: {
      200: { description: 'Moved', schema: z.object({ id: z.string().uuid(), status: z.enum(INTAKE_STATUSES), previous_status: z.enum(INTAKE_STATUSES), allowed_status_moves: z.array(z.enum(INTAKE_STATUSES)) }) },
      404: { description: 'No such intake', schema: ErrorSchema },
      409: { description: 'Not allowed from the current status; details.allowed lists the moves that are', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const intake = await findIntake(deps.knex, params.id);
      if (!intake) throw new NotFoundError(`no intake ${params.id}`);
      const allowed = allowedUserMoves(intake.status);
      // A repeat of a move that already happened (a retried request) changes nothing.
      if (body.status === intake.status && !SYSTEM_STATUSES.has(body.status)) {
        return { body: { id: intake.id, status: intake.status, previous_status: intake.status, allowed_status_moves: allowed } };
      }
      if (!canUserMove(intake.status, body.status)) {
        const why = SYSTEM_STATUSES.has(body.status) ? ` (${body.status} is set by processing, not by hand)` : '';
        throw new ConflictError(`cannot move intake from ${intake.status} to ${body.status}${why}; allowed: ${allowed.length ? allowed.join(', ') : 'none (final)'}`, {
          current: intake.status,
          requested: body.status,
          allowed,
        });
      }
      const moved = await deps.knex.transaction(async (trx) => {
        if (!(await updateIntakeStatus(trx, intake.id, intake.status, body.status, body.reason ?? null))) return false;
        await recordAuditEvent(trx, {
          actor: principalName(principal),
          action: 'intake.status',
          target_type: 'intake',
          target_id: intake.id,
          purpose: body.reason ?? null,
          details: { from: intake.status, to: body.status },
        });
        return true;
      });
      if (!moved) throw new ConflictError('the intake changed status meanwhile; read it again', { current: (await findIntake(deps.knex, intake.id))?.status });
      return { body: { id: intake.id, status: body.status, previous_status: intake.status, allowed_status_moves: allowedUserMoves(body.status) } };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'get',
    path: '/intakes/jobs/{id}',
    summary: 'One processing job of an intake: step, status, error',
    tags: ['intakes'],
    access: READERS,
    request: { params: UuidParam },
    responses: { 200: { description: 'The job', schema: JobSchema }, 404: { description: 'No such job', schema: ErrorSchema } },
    handler: async ({ params, deps }) => {
      const job = await findIntakeJob(deps.knex, params.id);
      if (!job) throw new NotFoundError(`no intake job ${params.id}`);
      return { body: jobOut(job) };
    },
  }),
  defineRoute<{ id: string }, Record<string, never>, { action: 'retry' | 'cancel' }>({
    method: 'post',
    path: '/intakes/jobs/{id}',
    summary: 'Retry a failed or cancelled job (and the steps after it), or cancel the intake\'s open jobs',
    tags: ['intakes'],
    access: WRITERS,
    request: { params: UuidParam, body: z.strictObject({ action: z.enum(['retry', 'cancel']) }) },
    responses: {
      202: { description: 'Retry started, or cancellation requested', schema: JobSchema },
      404: { description: 'No such job', schema: ErrorSchema },
      409: { description: 'The job is not in a state that allows this (retry: failed or cancelled, a repeat on a queued or running job is a no-op; cancel: queued or running, a repeat on a cancelled job is a no-op)', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const job = await findIntakeJob(deps.knex, params.id);
      if (!job) throw new NotFoundError(`no intake job ${params.id}`);
      // Repeats are no-ops: retrying a job that is queued or running again, cancelling a cancelled one.
      if (body.action === 'retry') {
        if (job.status === 'succeeded') throw new ConflictError('job succeeded; only a failed or cancelled job can be retried', { status: job.status });
        if (job.status === 'queued' || job.status === 'running') return { status: 202, body: jobOut(job) };
        await retryIntakeJob(deps, job);
      } else {
        if (job.status === 'succeeded' || job.status === 'failed') throw new ConflictError(`job ${job.status}; only a queued or running job can be cancelled`, { status: job.status });
        if (job.status === 'cancelled') return { status: 202, body: jobOut(job) };
        await cancelIntakeJobs(deps, job);
      }
      await recordAuditEvent(deps.knex, { actor: principalName(principal), action: `intake.job.${body.action}`, target_type: 'intake_job', target_id: job.id, details: { intake_id: job.intake_id, step: job.step } });
      return { status: 202, body: jobOut((await findIntakeJob(deps.knex, job.id))!) };
    },
  }),
  defineRoute<{ id: string }, Record<string, never>, { case_id?: string; create?: { title: string; description?: string; priority?: CasePriority; assignee?: string } }>({
    method: 'post',
    path: '/intakes/{id}/case',
    summary: 'Attach the intake to an existing case ({"case_id"}) or to a new one ({"create": {"title", ...}}); moves it to linked when its status allows',
    tags: ['intakes'],
    access: WRITERS,
    request: {
      params: UuidParam,
      body: z
        .strictObject({
          case_id: z.string().uuid().optional(),
          create: z
            .strictObject({
              title: z.string().trim().min(1).max(300),
              description: z.string().max(20_000).optional(),
              priority: z.enum(CASE_PRIORITIES).optional(),
              assignee: z.email().optional(),
            })
            .optional(),
        })
        .refine((b) => (b.case_id === undefined) !== (b.create === undefined), { message: 'give exactly one of case_id and create' }),
    },
    responses: {
      200: { description: 'Attached to the existing case (or already was)', schema: AttachSchema },
      201: { description: 'A new case was created and the intake attached', schema: AttachSchema },
      404: { description: 'No such intake or case', schema: ErrorSchema },
      409: { description: 'The intake is attached to another case', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const target = body.case_id !== undefined ? { case_id: body.case_id } : { create: body.create! };
      const out = await attachIntakeToCase(deps.knex, { intakeId: params.id, actor: principalName(principal), target });
      if (!out.ok) {
        if (out.reason !== 'other_case') throw new NotFoundError(out.reason === 'no_intake' ? `no intake ${params.id}` : `no case ${body.case_id}`);
        throw new ConflictError(`intake ${params.id} is attached to case ${out.case_id}`, { case_id: out.case_id });
      }
      return {
        status: out.created_case ? 201 : 200,
        body: { intake_id: params.id, case_id: out.case.id, case_title: out.case.title, created_case: out.created_case, linked: out.linked, status: out.status },
      };
    },
  }),
];
