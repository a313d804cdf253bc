// Scam-site investigations: start one (POST /investigations/ssi, a `ssi-<scan_id>` workflow), read
// its detail, download its artifacts (streamed), and list ended and active scans.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { claimIdempotencyKey } from '../../../db/repositories/idempotency-key-repository';
import { findPlaybook } from '../../../db/repositories/investigations/playbook-repository';
import {
  findInvestigation,
  findPage,
  listActions,
  listBlockedRequests,
  listInvestigations,
  listPages,
  listPii,
  listScanWallets,
  type InvestigationRow,
  type InvestigationStatus,
  type PageRow,
} from '../../../db/repositories/investigations/investigation-repository';
import { InvestigationRequestSchema, investigationTaskId, type InvestigationRequest } from '../../../domain/investigations/investigation-request';
import { BlobNotFoundError } from '../../../infra/blob-store';
import { startInvestigation } from '../../../services/investigations/investigation-service';
import { describeTask, findPlatformTask } from '../../../services/tasks/task-service';
import { NotFoundError, UnprocessableError } from '../../errors';
import { IdempotencyKeySchema, requestHash } from '../../idempotency-key';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';

const READ = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] } as const;
const WRITE = { roles: ['admin', 'analyst'], scopes: ['investigations:write'] } as const;
const STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

const ScanParam = z.object({ scan_id: z.string().uuid() });
const ArtifactParam = z.object({ scan_id: z.string().uuid(), page_id: z.string().uuid(), artifact: z.enum(['screenshot', 'dom', 'har']) });

const AcceptedSchema = z
  .object({ scan_id: z.string().uuid(), task_id: z.string(), status_url: z.string(), status: z.literal('queued'), detail_url: z.string() })
  .meta({ id: 'InvestigationAccepted' });

const ArtifactSchema = z.object({ download_path: z.string(), sha256: z.string(), size_bytes: z.number().int() });

/** The fields every view of a scan has (lists and detail). */
const ScanFields = z.object({
  scan_id: z.string().uuid(),
  url: z.string(),
  final_url: z.string().nullable(),
  label: z.string().nullable(),
  status: z.enum(STATUSES),
  state: z.string(),
  requested_by: z.string(),
  case_id: z.string().nullable(),
  wallet_count: z.number().int().describe('wallets stored for this scan (counted when it ended)'),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  task_id: z.string(),
});

const DetailSchema = ScanFields.extend({
  error: z.string().nullable(),
  playbook_id: z.string().nullable(),
  options: z.record(z.string(), z.unknown()),
  redirect_chain: z.array(z.object({ url: z.string(), status: z.number().int().nullable(), kind: z.string() })),
  pages: z.array(
    z.object({
      id: z.string().uuid(),
      url: z.string(),
      title: z.string().nullable(),
      http_status: z.number().int().nullable(),
      server_ip: z.string().nullable(),
      tls: z.record(z.string(), z.unknown()).nullable(),
      response_headers: z.record(z.string(), z.string()),
      found_in_state: z.string(),
      captured_at: z.string(),
      artifacts: z.object({ screenshot: ArtifactSchema, dom: ArtifactSchema, har: ArtifactSchema }),
    }),
  ),
  wallets: z.array(
    z.object({
      address: z.string(), token: z.string(), network: z.string(), confidence: z.string(), source: z.string(),
      page_url: z.string().nullable(), found_in_state: z.string().nullable(), first_seen_at: z.string(),
    }),
  ),
  pii: z.array(z.object({ kind: z.string(), value: z.string(), page_url: z.string() })),
  agent_actions: z.array(z.object({ at: z.string(), state: z.string(), action: z.string(), target: z.string(), outcome: z.string(), wallets_found: z.number().int() })),
  blocked_requests: z.array(z.object({ url: z.string(), resource_type: z.string(), reason: z.string(), category: z.string().nullable(), at: z.string() })),
}).meta({ id: 'InvestigationDetail' });

const SummarySchema = ScanFields.extend({
  progress: z.object({ stage: z.string(), percent: z.number().nullable(), detail: z.record(z.string(), z.unknown()) }).nullable().optional(),
}).meta({ id: 'InvestigationSummary' });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const ListQuery = z
  .object({
    status: z.enum(STATUSES).optional(),
    domain: z.string().min(1).max(253).optional().describe('Substring of the host name'),
    requested_by: z.string().min(1).max(320).optional(),
    since: z.iso.datetime({ offset: true }).optional().describe('Created at or after (ISO 8601)'),
    until: z.iso.datetime({ offset: true }).optional().describe('Created before (ISO 8601)'),
    token: z.string().min(1).max(20).optional(),
    network: z.string().min(1).max(50).optional(),
    has_wallets: z.enum(['true', 'false']).optional(),
    ...pageQueryShape,
  })
  .strict();
type ListQueryT = z.infer<typeof ListQuery>;

function summary(r: InvestigationRow) {
  return {
    scan_id: r.scan_id, url: r.url, final_url: r.final_url, label: r.label, status: r.status, state: r.state, requested_by: r.requested_by,
    case_id: r.case_id, wallet_count: r.wallet_count, created_at: r.created_at.toISOString(), started_at: iso(r.started_at),
    completed_at: iso(r.completed_at), task_id: investigationTaskId(r.scan_id),
  };
}

function artifact(p: PageRow, kind: 'screenshot' | 'dom' | 'har') {
  return { download_path: `/investigations/ssi/${p.scan_id}/pages/${p.id}/${kind}`, sha256: p[`${kind}_sha256`], size_bytes: Number(p[`${kind}_size`]) };
}

const ARTIFACT_TYPES = { screenshot: ['image/png', 'png'], dom: ['text/html; charset=utf-8', 'html'], har: ['application/json', 'har'] } as const;

function listFilter(query: ListQueryT, ended: boolean) {
  return {
    ended, status: query.status as InvestigationStatus | undefined, domain: query.domain, requestedBy: query.requested_by,
    since: query.since ? new Date(query.since) : undefined, until: query.until ? new Date(query.until) : undefined, token: query.token,
    network: query.network, hasWallets: query.has_wallets === undefined ? undefined : query.has_wallets === 'true', limit: query.limit, after: query.cursor,
  };
}

export const investigationRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, InvestigationRequest>({
    method: 'post',
    path: '/investigations/ssi',
    summary: 'Start a scam-site investigation (the `ssi-<scan_id>` workflow); poll /tasks/{task_id}. With Idempotency-Key, a repeat answers the same scan',
    tags: ['investigations'],
    access: WRITE,
    request: { body: InvestigationRequestSchema, headers: z.object({ 'idempotency-key': IdempotencyKeySchema.optional() }) },
    responses: {
      202: { description: 'Accepted: the investigation is queued', schema: AcceptedSchema },
      400: { description: 'Invalid input (field paths in details)', schema: ErrorSchema },
      422: { description: 'idempotency_key_reused (the Idempotency-Key was used before with a different body), or unknown_playbook', schema: ErrorSchema },
    },
    handler: async ({ body, headers, principal, deps }) => {
      const requestedBy = principalName(principal);
      let scanId: string = randomUUID();
      const key = headers['idempotency-key'];
      if (key !== undefined) {
        const hash = requestHash(body);
        const { row } = await claimIdempotencyKey(deps.knex, { scope: 'investigations.ssi', principal: requestedBy, key, requestHash: hash, response: { scan_id: scanId } });
        if (row.request_hash !== hash) throw new UnprocessableError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request body; use a new key');
        scanId = (row.response as { scan_id: string }).scan_id;
      }
      if (body.playbook_id && !(await findPlaybook(deps.knex, body.playbook_id))) {
        throw new UnprocessableError('unknown_playbook', `no playbook ${body.playbook_id}`);
      }
      const { taskId } = await startInvestigation(
        deps,
        { scanId, url: body.url, requestedBy, playbookId: body.playbook_id, caseId: body.case_id ?? null, label: body.label ?? null, options: body.options },
        // A repeat with the same Idempotency-Key answers the scan it started; never a second one.
        key !== undefined,
      );
      return { status: 202, body: { scan_id: scanId, task_id: taskId, status_url: `/tasks/${taskId}`, status: 'queued', detail_url: `/investigations/ssi/${scanId}` } };
    },
  }),
  defineRoute<Record<string, never>, ListQueryT>({
    method: 'get',
    path: '/investigations/ssi/history',
    summary: 'Ended investigations (completed, failed, cancelled), newest first',
    tags: ['investigations'],
    access: READ,
    request: { query: ListQuery },
    responses: { 200: { description: 'A page of investigations', schema: pageSchema(SummarySchema, 'InvestigationHistoryPage') } },
    handler: async ({ query, deps }) => {
      const page = await listInvestigations(deps.knex, listFilter(query, true));
      return { body: { items: page.rows.map(summary), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<Record<string, never>, ListQueryT>({
    method: 'get',
    path: '/investigations/ssi/active',
    summary: 'Queued and running investigations with their state and progress, newest first',
    tags: ['investigations'],
    access: READ,
    request: { query: ListQuery },
    responses: { 200: { description: 'A page of investigations', schema: pageSchema(SummarySchema, 'InvestigationActivePage') } },
    handler: async ({ query, deps, ctx }) => {
      const page = await listInvestigations(deps.knex, listFilter(query, false));
      const items = await Promise.all(
        page.rows.map(async (r) => {
          const task = await findPlatformTask(deps.temporal, investigationTaskId(r.scan_id)).catch(() => null);
          const view = task ? await describeTask(deps.temporal, task, { requestId: ctx.state.requestId, log: ctx.state.log }).catch(() => null) : null;
          const p = view?.progress;
          return { ...summary(r), progress: p ? { stage: p.stage, percent: p.percent, detail: p.detail } : null };
        }),
      );
      return { body: { items, next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<{ scan_id: string }>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}',
    summary: 'An investigation: state, redirect chain, pages with artifacts, wallets, PII, agent actions, blocked requests',
    tags: ['investigations'],
    access: READ,
    request: { params: ScanParam },
    responses: { 200: { description: 'The investigation', schema: DetailSchema }, 404: { description: 'No such investigation', schema: ErrorSchema } },
    handler: async ({ params, deps }) => {
      const inv = await findInvestigation(deps.knex, params.scan_id);
      if (!inv) throw new NotFoundError(`no investigation ${params.scan_id}`);
      const [pages, wallets, pii, actions, blocked] = await Promise.all([
        listPages(deps.knex, inv.scan_id), listScanWallets(deps.knex, inv.scan_id), listPii(deps.knex, inv.scan_id),
        listActions(deps.knex, inv.scan_id), listBlockedRequests(deps.knex, inv.scan_id),
      ]);
      return {
        body: {
          ...summary(inv),
          error: inv.error, playbook_id: inv.playbook_id, options: inv.options, redirect_chain: inv.redirect_chain,
          pages: pages.map((p) => ({
            id: p.id, url: p.url, title: p.title, http_status: p.http_status, server_ip: p.server_ip, tls: p.tls, response_headers: p.response_headers,
            found_in_state: p.state, captured_at: p.captured_at.toISOString(),
            artifacts: { screenshot: artifact(p, 'screenshot'), dom: artifact(p, 'dom'), har: artifact(p, 'har') },
          })),
          wallets: wallets.map((w) => ({ ...w, first_seen_at: new Date(w.first_seen_at).toISOString() })),
          pii,
          agent_actions: actions.map((a) => ({ ...a, at: a.at.toISOString() })),
          blocked_requests: blocked.map((b) => ({ ...b, at: b.at.toISOString() })),
        },
      };
    },
  }),
  defineRoute<{ scan_id: string; page_id: string; artifact: 'screenshot' | 'dom' | 'har' }>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/pages/{page_id}/{artifact}',
    summary: 'Download a captured artifact of a page (screenshot PNG, DOM HTML, HAR JSON), streamed; X-Content-SHA256 is its hash at capture time',
    tags: ['investigations'],
    access: READ,
    request: { params: ArtifactParam },
    responses: {
      200: { description: 'The artifact', contentType: 'application/octet-stream' },
      404: { description: 'No such page or artifact', schema: ErrorSchema },
    },
    handler: async ({ params, deps, ctx }) => {
      const page = await findPage(deps.knex, params.scan_id, params.page_id);
      const key = page?.[`${params.artifact}_key`];
      const missing = () => new NotFoundError(`no ${params.artifact} for page ${params.page_id} of investigation ${params.scan_id}`);
      if (!page || !key) throw missing();
      // Streamed from the platform's blob store (local directory or S3).
      const body = await deps.blobs.get(key).catch((err: unknown) => {
        throw err instanceof BlobNotFoundError ? missing() : err;
      });
      const [type, ext] = ARTIFACT_TYPES[params.artifact];
      ctx.type = type;
      ctx.length = Number(page[`${params.artifact}_size`]);
      ctx.attachment(`ssi-${params.scan_id}-page-${page.seq}-${params.artifact}.${ext}`);
      ctx.set('X-Content-SHA256', page[`${params.artifact}_sha256`]);
      return { body };
    },
  }),
];
