// Takedown use cases (the API's /takedowns*):
// - createTakedown: a draft about a finished investigation: its recipients from RDAP (the domain's
//   registrar, the hosting network of the address the site answered from; a bare IP has only the
//   latter) plus any the analyst names, its XARF report (validated) and text, and the site's answer
//   now (the baseline a later check compares with)
// - approveTakedown: a second person approves (the creator cannot)
// - sendTakedown: starts the send workflow (`takedown-send-<id>`): each recipient mailed once
// - listTakedowns / getTakedown: the takedowns, one with its recipients and history
// Every change is audited and written in one transaction with its history row.
import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Knex } from 'knex';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { findCase } from '../../db/repositories/cases/case-repository';
import { findInvestigation, listPages, listScanWallets } from '../../db/repositories/investigations/investigation-repository';
import {
  appendTakedownEvent,
  findTakedown,
  insertTakedown,
  listRecipients,
  listTakedownEvents,
  listTakedowns as listTakedownRows,
  updateTakedown,
  type RecipientRole,
  type RecipientRow,
  type SiteStatus,
  type TakedownEventRow,
  type TakedownRow,
  type TakedownStatus,
} from '../../db/repositories/takedowns/takedown-repository';
import type { Principal } from '../../domain/accounts/roles';
import { principalName } from '../../domain/accounts/principal-name';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { rdapQueryOfHost } from '../../domain/takedowns/rdap';
import { buildXarfReport, takedownText, type TakedownFacts } from '../../domain/takedowns/xarf-report';
import { validateXarf } from '../../domain/takedowns/xarf-validation';
import { sendTakedownWorkflow } from '../../workflows/takedowns/send-takedown-workflow';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { rdapLookup } from './rdap-lookup';
import { probeSite } from './site-probe';

export type { RecipientRow, TakedownEventRow, TakedownRow } from '../../db/repositories/takedowns/takedown-repository';

export interface TakedownDetail extends TakedownRow {
  recipients: RecipientRow[];
  history: TakedownEventRow[];
}

export interface NewTakedownInput {
  scan_id: string;
  /** Further recipients the analyst names (role `other` unless given). */
  recipients?: Array<{ email: string; role?: RecipientRole }>;
}

const PAGE_ARTIFACTS = ['screenshot', 'dom', 'har'] as const;

async function siteFacts(deps: Pick<ServiceDeps, 'knex' | 'config'>, scanId: string, reportId: string): Promise<{ facts: Omit<TakedownFacts, 'registrar' | 'hostingProvider'>; host: string }> {
  const inv = await findInvestigation(deps.knex, scanId);
  if (!inv) throw new NotFoundError(`no investigation ${scanId}`);
  if (inv.status !== 'completed') throw new ConflictError(`investigation ${scanId} is ${inv.status}: a takedown reports a finished (completed) investigation`);
  const pages = await listPages(deps.knex, scanId);
  const wallets = await listScanWallets(deps.knex, scanId);
  const scamType = inv.case_id ? ((await findCase(deps.knex, inv.case_id))?.taxonomy ?? null) : null;
  const host = new URL(inv.final_url ?? inv.url).hostname.replace(/^\[|\]$/g, '');
  const base = deps.config.takedown.public_base_url?.replace(/\/$/, '');
  const shot = pages[0];
  return {
    host,
    facts: {
      reportId,
      scanId,
      url: inv.url,
      host,
      serverIp: pages.find((p) => p.server_ip)?.server_ip ?? null,
      scamType,
      firstSeen: pages[0]?.captured_at ?? inv.started_at ?? inv.created_at,
      lastSeen: pages.at(-1)?.captured_at ?? inv.completed_at ?? inv.created_at,
      files: pages.flatMap((p) =>
        PAGE_ARTIFACTS.map((kind) => ({ path: `${kind}/page-${String(p.seq).padStart(4, '0')}`, sha256: String(p[`${kind}_sha256` as const]) })),
      ),
      screenshotUrl: base && shot ? `${base}/investigations/ssi/${scanId}/pages/${shot.id}/screenshot` : null,
      wallets: wallets.map((w) => ({ network: w.network, token: w.token, address: w.address })),
      reporter: { org: deps.config.takedown.reporter_org, contact: deps.config.takedown.reporter_contact, domain: deps.config.takedown.reporter_domain },
    },
  };
}

export async function createTakedown(deps: Pick<ServiceDeps, 'knex' | 'config'>, principal: Principal | null, input: NewTakedownInput): Promise<TakedownDetail> {
  const actor = principalName(principal);
  const reportId = randomUUID();
  const { facts, host } = await siteFacts(deps, input.scan_id, reportId);
  const recipients: Array<{ role: RecipientRole; email: string; source: string; organization: string | null }> = [];
  const problems: string[] = [];
  let registrar: string | null = null;
  let hostingProvider: string | null = null;
  const add = (role: RecipientRole, email: string, source: string, organization: string | null) => {
    const e = email.toLowerCase();
    if (!recipients.some((r) => r.email === e)) recipients.push({ role, email: e, source, organization });
  };
  const siteQuery = rdapQueryOfHost(host);
  // A bare IP has no registrar: its network's abuse contact is the recipient.
  const ipOfSite = siteQuery.kind === 'ip' ? siteQuery.address : facts.serverIp;
  const lookups = [...(siteQuery.kind === 'domain' ? [siteQuery] : []), ...(ipOfSite ? [rdapQueryOfHost(ipOfSite)] : [])];
  for (const q of lookups) {
    const r = await rdapLookup(deps, q);
    if (r.problem) problems.push(r.problem);
    for (const party of r.parties) {
      if (party.role === 'registrar') registrar ??= party.organization;
      else hostingProvider ??= party.organization;
      if (party.emails.length === 0) problems.push(`RDAP names no abuse contact for the ${party.role} ${party.organization ?? ''} of ${q.kind === 'domain' ? q.name : q.address}`.trim());
      for (const email of party.emails) add(party.role, email, `rdap:${r.server}`, party.organization);
    }
  }
  for (const r of input.recipients ?? []) add(r.role ?? 'other', r.email, `analyst:${actor}`, null);
  const full: TakedownFacts = { ...facts, registrar, hostingProvider };
  const xarf = buildXarfReport(full);
  const invalid = validateXarf(xarf);
  if (invalid.length) throw new UnprocessableError('xarf_invalid', 'the XARF report does not validate against the pinned xarf-spec schema', invalid);
  const probe = await probeSite(deps.config, facts.url);
  const baseline = probe.kind === 'answered' ? { status: probe.status, sha256: probe.sha256 } : {};
  const row = await deps.knex.transaction(async (trx) => {
    const created = await insertTakedown(trx, { scanId: input.scan_id, url: facts.url, domain: host, createdBy: actor, xarf, summary: takedownText(full), baseline, recipients });
    await appendTakedownEvent(trx, { takedownId: created.id, kind: 'created', actor, detail: { recipients: recipients.length, rdap_problems: problems } });
    await recordAuditEvent(trx, { actor, action: 'takedown.create', target_type: 'takedown', target_id: created.id, details: { scan_id: input.scan_id, recipients: recipients.map((r) => r.email) } });
    return created;
  });
  return getTakedown(deps, row.id);
}

export async function getTakedown(deps: Pick<ServiceDeps, 'knex'>, id: string): Promise<TakedownDetail> {
  const row = await findTakedown(deps.knex, id);
  if (!row) throw new NotFoundError(`no takedown ${id}`);
  return { ...row, recipients: await listRecipients(deps.knex, id), history: await listTakedownEvents(deps.knex, id) };
}

export async function listTakedowns(
  deps: Pick<ServiceDeps, 'knex'>,
  filter: { status?: TakedownStatus; siteStatus?: SiteStatus; scanId?: string; limit: number; after?: Keyset },
): Promise<KeysetPage<TakedownRow>> {
  return listTakedownRows(deps.knex, filter);
}

export async function approveTakedown(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string): Promise<TakedownDetail> {
  const actor = principalName(principal);
  await deps.knex.transaction(async (trx: Knex.Transaction) => {
    const row = await findTakedown(trx, id, true);
    if (!row) throw new NotFoundError(`no takedown ${id}`);
    if (!principal || principal.kind !== 'user') throw new ForbiddenError('a takedown is approved by a person');
    if (row.created_by === actor) throw new ForbiddenError(`${actor} created this takedown and cannot approve it: another analyst or admin must`);
    if (row.status !== 'draft') throw new ConflictError(`takedown ${id} is ${row.status}: only a draft is approved`);
    if ((await listRecipients(trx, id)).length === 0) throw new ConflictError(`takedown ${id} has no recipients: RDAP named no abuse contact; create it again naming one`);
    const invalid = validateXarf(row.xarf);
    if (invalid.length) throw new UnprocessableError('xarf_invalid', 'the XARF report does not validate against the pinned xarf-spec schema', invalid);
    await updateTakedown(trx, id, { status: 'approved', approved_by: actor, approved_at: new Date() });
    await appendTakedownEvent(trx, { takedownId: id, kind: 'approved', actor });
    await recordAuditEvent(trx, { actor, action: 'takedown.approve', target_type: 'takedown', target_id: id });
  });
  return getTakedown(deps, id);
}

export function takedownSendTaskId(id: string): string {
  return `takedown-send-${id}`;
}

/** Starts the send (once: a repeated request answers the same task); the takedown must be approved. */
export async function sendTakedown(deps: Pick<ServiceDeps, 'knex' | 'temporal' | 'config'>, principal: Principal | null, id: string): Promise<{ taskId: string; takedown: TakedownDetail }> {
  const actor = principalName(principal);
  const taskId = takedownSendTaskId(id);
  const first = await deps.knex.transaction(async (trx: Knex.Transaction) => {
    const row = await findTakedown(trx, id, true);
    if (!row) throw new NotFoundError(`no takedown ${id}`);
    if (row.status === 'draft') throw new ConflictError(`takedown ${id} is a draft: another person approves it first (POST /takedowns/${id}/approve)`);
    if (row.status !== 'approved') return false;
    await updateTakedown(trx, id, { status: 'sending', sent_by: actor });
    await appendTakedownEvent(trx, { takedownId: id, kind: 'send_requested', actor });
    await recordAuditEvent(trx, { actor, action: 'takedown.send', target_type: 'takedown', target_id: id });
    return true;
  });
  try {
    await startPlatformWorkflow(deps.temporal, {
      workflow: sendTakedownWorkflow,
      workflowId: taskId,
      taskQueue: deps.config.temporal.task_queue,
      args: [{ takedownId: id }],
      recordId: id,
      title: `Takedown send ${id}`,
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  } catch (err) {
    // A send already started (or done) is the answer: each recipient is mailed once either way.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError) || first) throw err;
  }
  return { taskId, takedown: await getTakedown(deps, id) };
}
