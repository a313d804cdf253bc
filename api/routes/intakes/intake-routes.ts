// Evidence intake: submit (multipart), list, read, contact data from the vault (analysts,
// audited), status moves, processing jobs. Who may do what:
// - service keys with intake:write: submit only;
// - analysts and admins: everything, except that only analysts decrypt contact data;
// - reviewers: read intakes and jobs (never contact data), no changes;
// - researchers: nothing (403 on every intake route).
// The use cases are in services/intakes/ (intake-service.ts, intake-job-service.ts); reading the
// multipart form and validating its payload part is HTTP and stays here.
import type { z } from 'zod';
import type { CasePriority } from '../../../domain/cases/case-states';
import { IntakePayloadSchema } from '../../../domain/intakes/intake-payload';
import { allowedUserMoves, type IntakeStatus } from '../../../domain/intakes/intake-status';
import { changeIntakeJob, getIntakeJob } from '../../../services/intakes/intake-job-service';
import { openIntakeFile } from '../../../services/intakes/intake-file-service';
import { attachIntakeToCase, getIntake, listIntakes, moveIntakeStatus, readIntakeContact, submitIntake } from '../../../services/intakes/intake-service';
import { BadRequestError, ValidationError } from '../../errors';
import { IdempotencyHeaders, requestHash } from '../../idempotency-key';
import { assertJsonDepth } from '../../json-depth';
import { parseMultipart } from '../../multipart';
import { encodeCursor } from '../../pagination';
import { defineRoute, type RouteDef } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import {
  AttachBody,
  AttachSchema,
  ContactQuery,
  ContactSchema,
  IntakeCreatedSchema,
  IntakeDetailSchema,
  IntakeFileParams,
  IntakeFileQuery,
  IntakeListQuery,
  IntakePageSchema,
  JobActionBody,
  JobSchema,
  MultipartDoc,
  StatusMoveBody,
  StatusMovedSchema,
  intakeDetailView,
  intakeJobView,
  intakeSummaryView,
} from './intake-schemas';

/**
 * What a stored upload is served with: nothing it holds may run (a sandboxed, empty policy even when
 * a browser opens it directly), and the type is never sniffed: a download is octet-stream, an inline
 * preview the sniffed type of an allowed image or PDF.
 */
const UPLOAD_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const READERS = { roles: ['admin', 'analyst', 'reviewer'] } as const;
const WRITERS = { roles: ['admin', 'analyst'] } as const;

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

const submitRoute = (path: string): RouteDef =>
  defineRoute({
    method: 'post',
    path,
    summary: 'Submit evidence: a JSON `payload` part and zero or more `files` parts. With Idempotency-Key, a repeat answers the first intake (200)',
    tags: ['intakes'],
    access: { roles: ['admin', 'analyst'], scopes: ['intake:write'] },
    request: { multipart: MultipartDoc, headers: IdempotencyHeaders },
    responses: {
      200: { description: 'A repeat with the same Idempotency-Key: the first intake', schema: IntakeCreatedSchema },
      201: { description: 'Stored; processing started (task_id)', schema: IntakeCreatedSchema },
      400: { description: 'Invalid form: no payload part, payload not JSON or not valid (details name each field path, e.g. body.payload.summary), unexpected parts', schema: ErrorSchema },
      413: { description: 'Over a limit (file size, file count, total size); the message names it; nothing is stored', schema: ErrorSchema },
      415: { description: 'Not multipart/form-data, or a payload part typed other than application/json', schema: ErrorSchema },
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
        { jsonFields: ['payload'] },
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
        assertJsonDepth(json, deps.config.api.json_max_depth, 'body.payload');
        // PostgreSQL text cannot hold U+0000: refuse it with the field named instead of failing later.
        const nul = pathWithNul(json);
        if (nul) throw new ValidationError(`invalid payload: ${nul}: contains a NUL character`, [{ path: nul, message: 'contains a NUL character' }]);
        const parsed = IntakePayloadSchema.safeParse(json);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => ({ path: ['body', 'payload', ...i.path.map(String)].join('.'), message: i.message }));
          throw new ValidationError(`invalid payload: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
        }
        const key = headers['idempotency-key'];
        const idempotency = key === undefined
          ? undefined
          : { key, hash: requestHash({ payload: parsed.data, files: form.files.map((f) => ({ sha256: f.sha256, name: f.originalName, type: f.declaredType })) }) };
        const result = await submitIntake(deps, principal, { payload: parsed.data, files: form.files, idempotency });
        return { status: result.created ? 201 : 200, body: result.intake };
      } finally {
        await form.cleanup();
      }
    },
  });

export const intakeRoutes: RouteDef[] = [
  submitRoute('/intakes'),
  submitRoute('/intakes/'),
  defineRoute<Record<string, never>, { status?: IntakeStatus; source?: string; since?: string; until?: string; has_files?: 'true' | 'false'; q?: string; limit: number; cursor?: { ts: string; id: string } }>({
    method: 'get',
    path: '/intakes/',
    summary: 'List intakes, newest first (never contact data)',
    tags: ['intakes'],
    access: READERS,
    request: { query: IntakeListQuery },
    responses: { 200: { description: 'A page of intakes', schema: IntakePageSchema } },
    handler: async ({ query, principal, deps }) => {
      const page = await listIntakes(deps, principal, {
        status: query.status,
        source: query.source,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
        has_files: query.has_files === undefined ? undefined : query.has_files === 'true',
        q: query.q || undefined,
        limit: query.limit,
        after: query.cursor,
      });
      return { body: { items: page.rows.map(intakeSummaryView), next_cursor: encodeCursor(page.next) } };
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
    handler: async ({ params, principal, deps }) => ({ body: intakeDetailView(await getIntake(deps, principal, params.id)) }),
  }),
  defineRoute<{ id: string }, { purpose: string }>({
    method: 'get',
    path: '/intakes/{id}/contact',
    summary: 'Decrypt the reporter\'s contact data (analysts only); every read is an audit event with its purpose',
    tags: ['intakes'],
    access: { roles: ['analyst'] },
    request: { params: UuidParam, query: ContactQuery },
    responses: {
      200: { description: 'The contact data (fields absent when not given)', schema: ContactSchema },
      404: { description: 'No such intake', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const contact = await readIntakeContact(deps, principal, { intakeId: params.id, purpose: query.purpose });
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
  defineRoute<z.infer<typeof IntakeFileParams>, z.infer<typeof IntakeFileQuery>>({
    method: 'get',
    path: '/intakes/{id}/files/{file_id}',
    summary: 'One file of an intake (analysts only), streamed: a download (Content-Disposition attachment, application/octet-stream) or, with disposition=inline, a preview of an image or PDF; X-Content-SHA256 carries its hash; every read is an audit event with its purpose',
    tags: ['intakes'],
    access: { roles: ['analyst'] },
    request: { params: IntakeFileParams, query: IntakeFileQuery },
    responses: {
      200: { description: 'The file\'s bytes (Content-Security-Policy: sandbox; X-Content-Type-Options: nosniff)', contentType: 'application/octet-stream' },
      404: { description: 'No such intake, or no such file of it', schema: ErrorSchema },
      422: { description: 'not_previewable: inline asked of a type that is served as a download only', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const opened = await openIntakeFile(deps, principal, { intakeId: params.id, fileId: params.file_id, disposition: query.disposition, purpose: query.purpose });
      ctx.type = opened.disposition === 'inline' ? opened.file.content_type : 'application/octet-stream';
      ctx.attachment(opened.file.filename, { type: opened.disposition });
      ctx.set('X-Content-SHA256', opened.file.sha256);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Security-Policy', UPLOAD_CSP);
      ctx.set('Cache-Control', 'private, no-store');
      ctx.length = Number(opened.file.size);
      return { body: opened.body };
    },
  }),
  defineRoute<{ id: string }, Record<string, never>, { status: IntakeStatus; reason?: string }>({
    method: 'post',
    path: '/intakes/{id}/status',
    summary: 'Move an intake (state machine: processed -> triaged -> linked | rejected | closed; see README); an illegal move is 409 naming the allowed ones',
    tags: ['intakes'],
    access: WRITERS,
    request: { params: UuidParam, body: StatusMoveBody },
    responses: {
      200: { description: 'Moved', schema: StatusMovedSchema },
      404: { description: 'No such intake', schema: ErrorSchema },
      409: { description: 'Not allowed from the current status; details.allowed lists the moves that are', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const moved = await moveIntakeStatus(deps, principal, params.id, body);
      return { body: { ...moved, allowed_status_moves: allowedUserMoves(moved.status) } };
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
    handler: async ({ params, principal, deps }) => ({ body: intakeJobView(await getIntakeJob(deps, principal, params.id)) }),
  }),
  defineRoute<{ id: string }, Record<string, never>, z.infer<typeof JobActionBody>>({
    method: 'post',
    path: '/intakes/jobs/{id}',
    summary: 'Retry a failed or cancelled job (and the steps after it), or cancel the intake\'s open jobs',
    tags: ['intakes'],
    access: WRITERS,
    request: { params: UuidParam, body: JobActionBody },
    responses: {
      202: { description: 'Retry started, or cancellation requested', schema: JobSchema },
      404: { description: 'No such job', schema: ErrorSchema },
      409: { description: 'The job is not in a state that allows this (retry: failed or cancelled, a repeat on a queued or running job is a no-op; cancel: queued or running, a repeat on a cancelled job is a no-op)', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => ({ status: 202, body: intakeJobView(await changeIntakeJob(deps, principal, params.id, body.action)) }),
  }),
  defineRoute<{ id: string }, Record<string, never>, { case_id?: string; create?: { title: string; description?: string; priority?: CasePriority; assignee?: string } }>({
    method: 'post',
    path: '/intakes/{id}/case',
    summary: 'Attach the intake to an existing case ({"case_id"}) or to a new one ({"create": {"title", ...}}); moves it to linked when its status allows',
    tags: ['intakes'],
    access: WRITERS,
    request: { params: UuidParam, body: AttachBody },
    responses: {
      200: { description: 'Attached to the existing case (or already was)', schema: AttachSchema },
      201: { description: 'A new case was created and the intake attached', schema: AttachSchema },
      404: { description: 'No such intake or case', schema: ErrorSchema },
      409: { description: 'The intake is attached to another case', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const target = body.case_id !== undefined ? { case_id: body.case_id } : { create: body.create! };
      const out = await attachIntakeToCase(deps, principal, { intakeId: params.id, target });
      return {
        status: out.created_case ? 201 : 200,
        body: { intake_id: params.id, case_id: out.case.id, case_title: out.case.title, created_case: out.created_case, linked: out.linked, status: out.status },
      };
    },
  }),
];
