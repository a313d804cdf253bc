// Scam-site investigations as use cases (nothing here speaks HTTP):
//   requestInvestigation      start one on a caller's request: Idempotency-Key, the playbook check, then startInvestigation
//   startInvestigation        the scan row, then its `ssi-<scan_id>` workflow (also intake processing, SVC_INTAKE__AUTO_INVESTIGATE)
//   listInvestigationHistory  ended scans (completed, failed, cancelled), a page, newest first
//   listActiveInvestigations  queued and running scans, a page, newest first, each with its task's progress
//   getInvestigation          one scan with its pages, wallets and PII (each with its provenance), agent actions, blocked requests and persona mail (404 when unknown)
//   openPageArtifact          a page's captured screenshot, DOM or HAR, streamed from the blob store (404 when missing)
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { linkToCase } from '../../db/repositories/cases/case-repository';
import {
  findInvestigation,
  findPage,
  insertInvestigation,
  listActions,
  listBlockedRequests,
  listInvestigations,
  listPages,
  listPii,
  listRevealRecords,
  listScanWallets,
  type InvestigationFilter,
  type InvestigationRow,
} from '../../db/repositories/investigations/investigation-repository';
import { listPiiExposures } from '../../db/repositories/investigations/persona-repository';
import type { PiiExposure } from '../../domain/investigations/funnel';
import { findPlaybook } from '../../db/repositories/investigations/playbook-repository';
import { listPersonaMail } from '../../db/repositories/investigations/persona-mail-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { recordDownloadCustody } from '../evidence/download-custody';
import { ensureCaptureCustody, isEnded, pageArtifacts, revealPath } from '../evidence/evidence-bundle';
import { findingProvenance, provenanceOf, type FindingProvenance } from '../evidence/finding-provenance';
import type { FindingKind } from '../../domain/evidence/finding-match';
import { investigationTaskId, type AgentOptions, type InvestigationOptions, type InvestigationRequest } from '../../domain/investigations/investigation-request';
import type { KeysetPage } from '../../domain/keyset';
import type { TaskProgress } from '../../domain/tasks/task-status';
import { BlobNotFoundError } from '../../infra/blob-store';
import { NotFoundError, UnprocessableError } from '../errors';
import { claimIdempotentResponse, type IdempotencyKey } from '../idempotency';
import type { ServiceDeps } from '../service-deps';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { describeTask, findPlatformTask, type FailureLog } from '../tasks/task-service';
import { ssiInvestigationWorkflow } from '../../workflows/investigations/ssi-investigation-workflow';
import { subjectClassification, type ClassificationView } from '../classification/classification-service';

export type { InvestigationRow, PageRow } from '../../db/repositories/investigations/investigation-repository';

export interface StartInvestigation {
  scanId: string;
  url: string;
  requestedBy: string;
  /** undefined: the first matching playbook; null: none. */
  playbookId: string | null | undefined;
  caseId: string | null;
  label: string | null;
  options: InvestigationOptions;
  /** The funnel agent's options (absent: it registers where a site is gated). */
  agent?: AgentOptions;
}

/**
 * Stores the scan (idempotent on scan_id) and starts its workflow. With `repeatable`, a scan whose
 * workflow already exists (a retried request or activity) is answered as it is; otherwise that is
 * an error.
 */
export async function startInvestigation(
  deps: { knex: Knex; temporal: Client; config: AppConfig },
  req: StartInvestigation,
  repeatable: boolean,
): Promise<{ scanId: string; taskId: string }> {
  const taskId = investigationTaskId(req.scanId);
  await insertInvestigation(deps.knex, {
    scanId: req.scanId, url: req.url, domain: new URL(req.url).hostname, requestedBy: req.requestedBy, playbookId: req.playbookId ?? null, caseId: req.caseId,
    label: req.label, options: req.options,
  });
  // Started for a case: the case lists it among its investigations (a case link, as linking it later
  // from the case page makes; a repeat links nothing new).
  if (req.caseId) await linkToCase(deps.knex, req.caseId, { type: 'investigation', id: req.scanId }, req.requestedBy);
  try {
    await startPlatformWorkflow(deps.temporal, {
      workflow: ssiInvestigationWorkflow,
      workflowId: taskId,
      taskQueue: deps.config.temporal.task_queue,
      args: [{ scanId: req.scanId, url: req.url, playbookId: req.playbookId ?? null, autoPlaybook: req.playbookId === undefined, options: req.options, agent: req.agent ?? { register: true } }],
      recordId: req.scanId,
      title: `Investigation of ${new URL(req.url).host}${req.label ? ` (${req.label})` : ''}`,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (err) {
    if (!(repeatable && err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return { scanId: req.scanId, taskId };
}

/**
 * Starts the investigation a caller asked for. With an Idempotency-Key, a repeat answers the scan
 * the first request started (422 idempotency_key_reused for another body); a named playbook must
 * exist (422 unknown_playbook).
 */
export async function requestInvestigation(
  deps: Pick<ServiceDeps, 'knex' | 'temporal' | 'config'>,
  principal: Principal | null,
  request: InvestigationRequest,
  idempotency: IdempotencyKey | undefined,
): Promise<{ scanId: string; taskId: string }> {
  const requestedBy = principalName(principal);
  let scanId: string = randomUUID();
  if (idempotency !== undefined) {
    const { response } = await claimIdempotentResponse(deps.knex, 'investigations.ssi', requestedBy, idempotency, { scan_id: scanId });
    scanId = response.scan_id;
  }
  if (request.playbook_id && !(await findPlaybook(deps.knex, request.playbook_id))) {
    throw new UnprocessableError('unknown_playbook', `no playbook ${request.playbook_id}`);
  }
  return startInvestigation(
    deps,
    { scanId, url: request.url, requestedBy, playbookId: request.playbook_id, caseId: request.case_id ?? null, label: request.label ?? null, options: request.options, agent: request.agent },
    // A repeat with the same Idempotency-Key answers the scan it started; never a second one.
    idempotency !== undefined,
  );
}

/** Which scans a list holds (the ended or the active ones are chosen by the use case). */
export type InvestigationListFilter = Omit<InvestigationFilter, 'ended'>;

export async function listInvestigationHistory(deps: Pick<ServiceDeps, 'knex'>, filter: InvestigationListFilter): Promise<KeysetPage<InvestigationRow>> {
  return listInvestigations(deps.knex, { ...filter, ended: true });
}

export interface ActiveInvestigation {
  investigation: InvestigationRow;
  /** The progress its task reports; null when the task cannot be read (not started yet, Temporal unreachable). */
  progress: TaskProgress | null;
}

export async function listActiveInvestigations(
  deps: Pick<ServiceDeps, 'knex' | 'temporal'>,
  filter: InvestigationListFilter,
  where: FailureLog,
): Promise<KeysetPage<ActiveInvestigation>> {
  const page = await listInvestigations(deps.knex, { ...filter, ended: false });
  const rows = await Promise.all(
    page.rows.map(async (r) => {
      const task = await findPlatformTask(deps.temporal, investigationTaskId(r.scan_id)).catch(() => null);
      const view = task ? await describeTask(deps.temporal, task, where).catch(() => null) : null;
      return { investigation: r, progress: view?.progress ?? null };
    }),
  );
  return { rows, next: page.next };
}

/** Where a finding was seen in the scan's evidence (services/evidence/finding-provenance.ts), or null and why. */
export type WithProvenance<T> = T & { provenance: (FindingProvenance & { screenshot_download_path: string | null }) | null; provenance_reason: string | null };

export interface InvestigationDetail {
  investigation: InvestigationRow;
  pages: Awaited<ReturnType<typeof listPages>>;
  wallets: Array<WithProvenance<Awaited<ReturnType<typeof listScanWallets>>[number]>>;
  pii: Array<WithProvenance<Awaited<ReturnType<typeof listPii>>[number]>>;
  /** What the site asked the funnel's persona for. */
  piiExposures: PiiExposure[];
  actions: Awaited<ReturnType<typeof listActions>>;
  blocked: Awaited<ReturnType<typeof listBlockedRequests>>;
  /** The mail its personas received (evidence; the detail lists it without bodies). */
  mail: Awaited<ReturnType<typeof listPersonaMail>>;
  /** Its place in the scam taxonomy (null until classified). */
  classification: ClassificationView | null;
}

/** One scan with its findings, each with its provenance once the scan has ended (computed on the first read, then kept). */
export async function getInvestigation(deps: Pick<ServiceDeps, 'knex' | 'blobs'>, scanId: string): Promise<InvestigationDetail> {
  const inv = await findInvestigation(deps.knex, scanId);
  if (!inv) throw new NotFoundError(`no investigation ${scanId}`);
  const ended = isEnded(inv.status);
  const [pages, wallets, pii, piiExposures, actions, blocked, mail, provenance, classification] = await Promise.all([
    listPages(deps.knex, inv.scan_id), listScanWallets(deps.knex, inv.scan_id), listPii(deps.knex, inv.scan_id), listPiiExposures(deps.knex, inv.scan_id),
    listActions(deps.knex, inv.scan_id), listBlockedRequests(deps.knex, inv.scan_id), listPersonaMail(deps.knex, inv.scan_id),
    findingProvenance(deps, inv.scan_id, ended), subjectClassification(deps.knex, 'investigation', inv.scan_id),
  ]);
  // The screenshot of a provenance as the API serves it (a page's artifact or an after-reveal record).
  const pageBySeq = new Map(pages.map((p) => [p.seq, p.id]));
  const downloadPath = (bundlePath: string | null): string | null => {
    const page = /^screenshots\/page-(\d+)\.png$/.exec(bundlePath ?? '');
    if (page) return pageBySeq.has(Number(page[1])) ? `/investigations/ssi/${scanId}/pages/${pageBySeq.get(Number(page[1]))}/screenshot` : null;
    return bundlePath?.startsWith('reveals/') ? `/investigations/ssi/${scanId}/reveals/${bundlePath.slice('reveals/'.length)}` : null;
  };
  const withPaths = (r: ReturnType<typeof provenanceOf>) => ({
    provenance: r.provenance ? { ...r.provenance, screenshot_download_path: downloadPath(r.provenance.screenshot_path) } : null,
    provenance_reason: r.provenance_reason,
  });
  return {
    investigation: inv, pages, actions, blocked, mail, piiExposures, classification,
    wallets: wallets.map((w) => ({ ...w, ...withPaths(provenanceOf(provenance, ended, 'wallet', w.address)) })),
    pii: pii.map((p) => ({ ...p, ...withPaths(provenanceOf(provenance, ended, p.kind as FindingKind, p.value)) })),
  };
}

/**
 * An after-reveal record of a scan (its screenshot, DOM snapshot or exchanges), streamed; like a
 * page's artifact, each download writes a custody entry and an audit event first.
 */
export async function openRevealRecord(
  deps: Pick<ServiceDeps, 'knex' | 'blobs'>,
  principal: Principal | null,
  scanId: string,
  name: string,
  purpose: string | undefined,
): Promise<{ stream: Readable; contentType: string; sha256: string }> {
  const missing = () => new NotFoundError(`no after-reveal record ${name} in investigation ${scanId}`);
  const record = (await listRevealRecords(deps.knex, scanId)).find((r) => r.name === name);
  if (!record) throw missing();
  const stream = await deps.blobs.get(record.blob_key).catch((err: unknown) => {
    throw err instanceof BlobNotFoundError ? missing() : err;
  });
  try {
    const inv = await findInvestigation(deps.knex, scanId);
    if (inv && isEnded(inv.status)) await ensureCaptureCustody(deps.knex, inv, await listPages(deps.knex, scanId));
    const path = revealPath(record);
    await recordDownloadCustody(deps.knex, {
      subjectKind: 'investigation', subjectId: scanId, actor: principalName(principal), artifact: `after-reveal record ${name}`, purpose: purpose ?? 'download',
      files: [{ path, sha256: record.sha256, blobKey: record.blob_key }],
      audit: { action: 'evidence.download', target_type: 'investigation', target_id: scanId, details: { artifact: path, sha256: record.sha256 } },
    });
  } catch (err) {
    stream.destroy();
    throw err;
  }
  return { stream, contentType: record.content_type, sha256: record.sha256 };
}

export type PageArtifactKind = 'screenshot' | 'dom' | 'har';

export interface PageArtifact {
  stream: Readable;
  /** The page's place in the scan (it names the download). */
  pageSeq: number;
  sizeBytes: number;
  /** Its SHA-256 at capture time. */
  sha256: string;
}

/**
 * A page's captured artifact, streamed from the platform's blob store (local directory or S3).
 * Each download writes a custody entry of the scan (who, when, which file, why, its hash at
 * capture) and an audit event `evidence.download`, before the first byte leaves.
 */
export async function openPageArtifact(
  deps: Pick<ServiceDeps, 'knex' | 'blobs'>,
  principal: Principal | null,
  scanId: string,
  pageId: string,
  artifact: PageArtifactKind,
  purpose: string | undefined,
): Promise<PageArtifact> {
  const page = await findPage(deps.knex, scanId, pageId);
  const key = page?.[`${artifact}_key`];
  const missing = () => new NotFoundError(`no ${artifact} for page ${pageId} of investigation ${scanId}`);
  if (!page || !key) throw missing();
  const stream = await deps.blobs.get(key).catch((err: unknown) => {
    throw err instanceof BlobNotFoundError ? missing() : err;
  });
  const sha256 = page[`${artifact}_sha256`];
  const path = pageArtifacts(page).find((a) => a.kind === artifact)!.path;
  const why = purpose ?? 'download';
  try {
    // The chain of an ended scan starts with its capture, whichever handling comes first.
    const inv = await findInvestigation(deps.knex, scanId);
    if (inv && isEnded(inv.status)) await ensureCaptureCustody(deps.knex, inv, await listPages(deps.knex, scanId));
    await recordDownloadCustody(deps.knex, {
      subjectKind: 'investigation', subjectId: scanId, actor: principalName(principal), artifact: `page ${page.seq} ${artifact}`, purpose: why,
      files: [{ path, sha256, blobKey: key }],
      audit: { action: 'evidence.download', target_type: 'investigation', target_id: scanId, details: { artifact: path, page_id: pageId, sha256 } },
    });
  } catch (err) {
    stream.destroy();
    throw err;
  }
  return { stream, pageSeq: page.seq, sizeBytes: Number(page[`${artifact}_size`]), sha256 };
}
