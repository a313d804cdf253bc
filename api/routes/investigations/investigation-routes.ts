// Scam-site investigations: start one (POST /investigations/ssi, a `ssi-<scan_id>` workflow), read
// its detail (each finding with the WARC record that holds it), download its artifacts and
// after-reveal records (streamed), and list ended and active scans. The use cases are
// services/investigations/investigation-service.ts; the schemas ./investigation-schemas.ts.
import {
  getInvestigation,
  listActiveInvestigations,
  listInvestigationHistory,
  openPageArtifact,
  openRevealRecord,
  requestInvestigation,
  type InvestigationListFilter,
  type InvestigationRow,
  type PageRow,
} from '../../../services/investigations/investigation-service';
import { InvestigationRequestSchema, investigationTaskId, type InvestigationRequest } from '../../../domain/investigations/investigation-request';
import { IdempotencyHeaders, requestHash } from '../../idempotency-key';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import { AcceptedSchema, ArtifactParam, DetailSchema, ListQuery, PersonaQuery, PersonaSchema, RevealParam, ScanParam, SummarySchema, type ListQueryT, type PersonaQueryT } from './investigation-schemas';
import { readScanPersona } from '../../../services/investigations/persona-service';
import { PurposeQuery, type PurposeQueryT } from '../evidence/evidence-schemas';

const READ = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] } as const;
const WRITE = { roles: ['admin', 'analyst'], scopes: ['investigations:write'] } as const;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

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

function listFilter(query: ListQueryT): InvestigationListFilter {
  return {
    status: query.status, domain: query.domain, requestedBy: query.requested_by,
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
    request: { body: InvestigationRequestSchema, headers: IdempotencyHeaders },
    responses: {
      202: { description: 'Accepted: the investigation is queued', schema: AcceptedSchema },
      400: { description: 'Invalid input (field paths in details)', schema: ErrorSchema },
      422: { description: 'idempotency_key_reused (the Idempotency-Key was used before with a different body), or unknown_playbook', schema: ErrorSchema },
    },
    handler: async ({ body, headers, principal, deps }) => {
      const key = headers['idempotency-key'];
      const { scanId, taskId } = await requestInvestigation(deps, principal, body, key === undefined ? undefined : { key, hash: requestHash(body) });
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
      const page = await listInvestigationHistory(deps, listFilter(query));
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
      const page = await listActiveInvestigations(deps, listFilter(query), { requestId: ctx.state.requestId, log: ctx.state.log });
      const items = page.rows.map(({ investigation, progress: p }) => ({
        ...summary(investigation),
        progress: p ? { stage: p.stage, percent: p.percent, detail: p.detail } : null,
      }));
      return { body: { items, next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<{ scan_id: string }>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}',
    summary: 'An investigation: state, redirect chain, pages with artifacts, wallets, PII, agent actions, blocked requests, the mail its personas received (no bodies)',
    tags: ['investigations'],
    access: READ,
    request: { params: ScanParam },
    responses: { 200: { description: 'The investigation', schema: DetailSchema }, 404: { description: 'No such investigation', schema: ErrorSchema } },
    handler: async ({ params, deps }) => {
      const { investigation: inv, pages, wallets, pii, piiExposures, actions, blocked, mail, classification } = await getInvestigation(deps, params.scan_id);
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
          pii_exposures: piiExposures,
          agent_actions: actions.map((a) => ({ ...a, at: a.at.toISOString() })),
          blocked_requests: blocked.map((b) => ({ ...b, at: b.at.toISOString() })),
          mail: mail.map((m) => ({
            id: m.id, from: m.from, subject: m.subject, received_at: m.received_at.toISOString(), sha256: m.sha256,
            download_path: `/investigations/ssi/${m.scan_id}/mail/${m.id}`,
          })),
          classification,
        },
      };
    },
  }),
  defineRoute<{ scan_id: string; page_id: string; artifact: 'screenshot' | 'dom' | 'har' }, PurposeQueryT>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/pages/{page_id}/{artifact}',
    summary: 'Download a captured artifact of a page (screenshot PNG, DOM HTML, HAR JSON), streamed; X-Content-SHA256 is its hash at capture time; `purpose` goes into the chain of custody',
    tags: ['investigations'],
    access: READ,
    request: { params: ArtifactParam, query: PurposeQuery },
    responses: {
      200: { description: 'The artifact', contentType: 'application/octet-stream' },
      404: { description: 'No such page or artifact', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const file = await openPageArtifact(deps, principal, params.scan_id, params.page_id, params.artifact, query.purpose);
      const [type, ext] = ARTIFACT_TYPES[params.artifact];
      ctx.type = type;
      ctx.length = file.sizeBytes;
      ctx.attachment(`ssi-${params.scan_id}-page-${file.pageSeq}-${params.artifact}.${ext}`);
      ctx.set('X-Content-SHA256', file.sha256);
      return { body: file.stream };
    },
  }),
  defineRoute<{ scan_id: string; name: string }, PurposeQueryT>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/reveals/{name}',
    summary: 'Download an after-reveal record (the screenshot, DOM snapshot or exchanges taken after a coin-tab click or a playbook step), streamed; X-Content-SHA256 is its hash at capture time; `purpose` goes into the chain of custody',
    tags: ['investigations'],
    access: READ,
    request: { params: RevealParam, query: PurposeQuery },
    responses: {
      200: { description: 'The record', contentType: 'application/octet-stream' },
      400: { description: 'Not a record name (details say where)', schema: ErrorSchema },
      404: { description: 'No such investigation or record', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const file = await openRevealRecord(deps, principal, params.scan_id, params.name, query.purpose);
      ctx.type = file.contentType === 'text/html' ? 'text/html; charset=utf-8' : file.contentType === 'application/har+json' ? 'application/json' : file.contentType;
      ctx.attachment(`ssi-${params.scan_id}-${params.name}`);
      ctx.set('X-Content-SHA256', file.sha256);
      return { body: file.stream };
    },
  }),
  defineRoute<{ scan_id: string }, PersonaQueryT>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/persona',
    summary: 'The synthetic persona the funnel agent used on the site (analysts only); every read is an audit event with its purpose',
    tags: ['investigations'],
    access: { roles: ['analyst'] },
    request: { params: ScanParam, query: PersonaQuery },
    responses: {
      200: { description: 'The persona and its values (all made up)', schema: PersonaSchema },
      404: { description: 'No such investigation, or it used no persona', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const persona = await readScanPersona(deps, principal, { scanId: params.scan_id, purpose: query.purpose });
      ctx.set('Cache-Control', 'no-store');
      return { body: persona };
    },
  }),
];
