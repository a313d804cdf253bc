// Dossiers: signed packages assembled from a case, its intakes and investigations and a graph
// extract, built by the `dossier-<plan_id>` workflow. Nothing here speaks HTTP.
//
// Use cases:
// - planDossier: check a plan's references, store it and start `dossier-<plan_id>` (Idempotency-Key: a repeat answers the same plan)
// - listDossiers: dossiers, newest first (filters: case, status)
// - getDossier: one dossier with its artifacts
// - verifyDossier: re-hash every artifact from the blob store against the signed manifest (audited)
// - getSignatureManifest: the sealed manifest's bytes, digest, signature and key id
// - openDossierArtifact: one artifact's bytes, or one of the package's signed or trusted-time files (custody entry and audit, with its purpose)
// - openDossierZip: the whole sealed dossier as one streamed ZIP (custody entry and audit, with its purpose)
// - getDossierAcl / changeDossierAcl: the shared-storage access list; admins grant and revoke (audited)
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ZipArchive } from 'archiver';
import type { Knex } from 'knex';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { findCase } from '../../db/repositories/cases/case-repository';
import {
  findDossier,
  findDossierArtifact,
  insertDossier,
  listAclGrants,
  listDossierArtifacts,
  listDossiers as listDossierRows,
  missingEntityIds,
  missingScanIds,
  putAclGrant,
  type DossierArtifactRow,
  type DossierRow,
} from '../../db/repositories/dossiers/dossier-repository';
import { findReferral } from '../../db/repositories/cases/lea-referral-repository';
import { listCaseReviews } from '../../db/repositories/reviews/review-repository';
import type { Principal } from '../../domain/accounts/roles';
import { principalName } from '../../domain/accounts/principal-name';
import { isSafeArtifactName } from '../../domain/dossiers/artifact-name';
import { DIGEST_PATH, MANIFEST_PATH, sha256Hex } from '../../domain/evidence/package-manifest';
import { TIMESTAMP_TOKEN_PATH } from '../../domain/evidence/timestamp-token';
import type { DossierPlan, DossierStatus } from '../../domain/dossiers/dossier-plan';
import { deriveDriveAcl, type DriveAclEntry, type DriveAclRole } from '../../domain/dossiers/drive-acl';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { BlobNotFoundError, type BlobStore } from '../../infra/blob-store';
import { evidenceKeyringFor } from '../../infra/evidence-keyring';
import type { Logger } from '../../infra/logger';
import { ConflictError, NotFoundError, ValidationError, type FieldIssue } from '../errors';
import { recordDownloadCustody } from '../evidence/download-custody';
import { verifyPackageEntries, type PackageEntry, type PackageVerification } from '../evidence/evidence-verification';
import { claimIdempotentResponse, type IdempotencyKey } from '../idempotency';
import type { ServiceDeps } from '../service-deps';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { dossierWorkflow } from '../../workflows/dossiers/dossier-workflow';

export type { DossierArtifactRow, DossierRow };

export const dossierTaskId = (planId: string) => `dossier-${planId}`;

async function dossierOr404(knex: Knex, id: string): Promise<DossierRow> {
  const d = await findDossier(knex, id);
  if (!d) throw new NotFoundError(`no dossier ${id}`);
  return d;
}

const notSealed = (d: DossierRow) => new ConflictError(`dossier ${d.id} is ${d.status}, not sealed yet`, { status: d.status });

/** The references of a plan that do not exist (case, scans, entities), each with its field path (`body.scan_ids.1`). */
async function missingPlanReferences(knex: Knex, plan: DossierPlan): Promise<FieldIssue[]> {
  const out: FieldIssue[] = [];
  if (plan.case_id && !(await findCase(knex, plan.case_id))) out.push({ path: 'body.case_id', message: `no case ${plan.case_id}` });
  const scans = plan.scan_ids ?? [];
  const noScan = new Set(await missingScanIds(knex, scans));
  scans.forEach((id, i) => noScan.has(id) && out.push({ path: `body.scan_ids.${i}`, message: `no investigation ${id}` }));
  const entities = plan.entity_ids ?? [];
  const noEntity = new Set(await missingEntityIds(knex, entities));
  entities.forEach((id, i) => noEntity.has(id) && out.push({ path: `body.entity_ids.${i}`, message: `no entity ${id}` }));
  return out;
}

/**
 * Checks the plan's references (unknown ones: 400 naming each field), stores the dossier
 * (idempotent on plan id) and starts its workflow. With an Idempotency-Key the first request
 * records its task; a repeat with the same body finds the dossier stored and the workflow started
 * and answers the same plan; the same key with another body is a 422.
 */
export async function planDossier(
  deps: Pick<ServiceDeps, 'knex' | 'temporal' | 'config'>,
  principal: Principal | null,
  plan: DossierPlan,
  idempotency?: IdempotencyKey,
): Promise<{ planId: string; taskId: string; status: DossierStatus }> {
  const missing = await missingPlanReferences(deps.knex, plan);
  if (missing.length) throw new ValidationError(`unknown references: ${missing.map((m) => m.path).join(', ')}`, missing);
  const requestedBy = principalName(principal);
  let planId: string = randomUUID();
  if (idempotency) {
    const claimed = await claimIdempotentResponse(deps.knex, 'reports.dossiers', requestedBy, idempotency, { task_id: dossierTaskId(planId) });
    planId = claimed.response.task_id.slice('dossier-'.length);
  }
  const taskId = dossierTaskId(planId);
  await insertDossier(deps.knex, { id: planId, title: plan.title, case_id: plan.case_id ?? null, plan, created_by: requestedBy });
  try {
    await startPlatformWorkflow(deps.temporal, {
      workflow: dossierWorkflow,
      workflowId: taskId,
      taskQueue: deps.config.temporal.task_queue,
      args: [{ planId }],
      recordId: planId,
      title: `Dossier: ${plan.title.slice(0, 100)}`,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  const status = (await findDossier(deps.knex, planId))?.status ?? 'queued';
  return { planId, taskId, status };
}

/** Dossiers, newest first. */
export async function listDossiers(
  deps: Pick<ServiceDeps, 'knex'>,
  filter: { caseId?: string; status?: DossierStatus; limit: number; after?: Keyset },
): Promise<KeysetPage<DossierRow>> {
  return listDossierRows(deps.knex, filter);
}

/** The dossier and its artifacts (404 when there is none). */
export async function getDossier(deps: Pick<ServiceDeps, 'knex'>, id: string): Promise<{ dossier: DossierRow; artifacts: DossierArtifactRow[] }> {
  const dossier = await dossierOr404(deps.knex, id);
  return { dossier, artifacts: await listDossierArtifacts(deps.knex, dossier.id) };
}

/** The trusted-time file beside a sealed dossier's manifest (services/evidence/trusted-time.ts): its RFC 3161 token, when it has one. */
function timestampFiles(dossier: DossierRow): Array<{ path: string; body: Buffer }> {
  return dossier.timestamp_token ? [{ path: TIMESTAMP_TOKEN_PATH, body: dossier.timestamp_token }] : [];
}

/** The files of a sealed dossier as a signed package: manifest, signed digest, trusted time, then every artifact by name. */
function dossierPackageEntries(blobs: BlobStore, dossier: DossierRow, artifacts: readonly DossierArtifactRow[]): PackageEntry[] {
  return [
    { path: MANIFEST_PATH, open: () => Readable.from([Buffer.from(dossier.manifest!, 'utf8')]) },
    { path: DIGEST_PATH, open: () => Readable.from([Buffer.from(dossier.digest!, 'utf8')]) },
    ...timestampFiles(dossier).map((f) => ({ path: f.path, open: () => Readable.from([f.body]) })),
    ...artifacts.map((a) => ({ path: a.name, open: () => blobs.get(a.blob_key) })),
  ];
}

export interface DossierVerification extends PackageVerification {
  manifest_sha256: string;
}

/**
 * Re-hashes every artifact from the blob store (streamed) and checks it, the manifest and its
 * signature with the platform's evidence verifier, trusting the keyring's keys (the active one and
 * every earlier one). A changed, missing or unlisted artifact is named. Recorded in the audit log
 * (`dossier.verify`). 404 when there is no such dossier, 409 when it is not sealed yet.
 */
export async function verifyDossier(
  deps: Pick<ServiceDeps, 'knex' | 'config' | 'blobs'>,
  principal: Principal | null,
  planId: string,
): Promise<DossierVerification> {
  const dossier = await dossierOr404(deps.knex, planId);
  if (dossier.status !== 'ready' || dossier.manifest === null || dossier.digest === null || dossier.manifest_sha256 === null) throw notSealed(dossier);
  const present: DossierArtifactRow[] = [];
  // A blob that is gone is left out, so the verifier names it `missing`.
  for (const a of await listDossierArtifacts(deps.knex, dossier.id)) if (await deps.blobs.exists(a.blob_key)) present.push(a);
  const verified = await verifyPackageEntries(dossierPackageEntries(deps.blobs, dossier, present), { trustedKeys: evidenceKeyringFor(deps.config).trustedKeys() });
  const result = { ...verified, manifest_sha256: dossier.manifest_sha256 };
  await recordAuditEvent(deps.knex, {
    actor: principalName(principal), action: 'dossier.verify', target_type: 'dossier', target_id: dossier.id,
    details: { valid: result.valid, failed: result.artifacts.filter((a) => !a.ok).map((a) => a.name) },
  });
  return result;
}

/** The signed manifest of a sealed dossier: its exact bytes, hash, signed digest and key id. 409 when not sealed yet. */
export async function getSignatureManifest(
  deps: Pick<ServiceDeps, 'knex'>,
  id: string,
): Promise<{ plan_id: string; manifest: string; manifest_sha256: string; digest: Record<string, unknown>; key_id: string; sealed_at: string }> {
  const d = await dossierOr404(deps.knex, id);
  if (d.status !== 'ready' || !d.manifest || !d.manifest_sha256 || !d.digest || !d.key_id || !d.sealed_at) throw notSealed(d);
  return { plan_id: d.id, manifest: d.manifest, manifest_sha256: d.manifest_sha256, digest: JSON.parse(d.digest) as Record<string, unknown>, key_id: d.key_id, sealed_at: d.sealed_at.toISOString() };
}

/** One file of a dossier as it is downloaded. */
export interface DossierFileDownload {
  /** The attachment's file name. */
  fileName: string;
  body: Buffer | Readable;
  sha256: string;
  /** The artifact's own content type and size; null for the package's signed files (manifest, digest). */
  contentType: string | null;
  bytes: number | null;
}

/**
 * One artifact's bytes, streamed from the blob store; or one of the package's own signed and
 * trusted-time files (datapackage.json, datapackage-digest.json, timestamp.tsr), so
 * that single downloads verify too. Every download writes a custody entry of the dossier (who, when,
 * which artifact, why, its hash) and an audit event (`dossier.download`), before the first byte
 * leaves. An unknown or traversing name is a 404.
 */
export async function openDossierArtifact(
  deps: Pick<ServiceDeps, 'knex' | 'blobs'>,
  principal: Principal | null,
  id: string,
  artifact: string,
  purpose: string,
): Promise<DossierFileDownload> {
  const notFound = () => new NotFoundError(`dossier ${id} has no artifact ${JSON.stringify(artifact)}`);
  if (!isSafeArtifactName(artifact)) throw notFound();
  const d = await dossierOr404(deps.knex, id);
  const custody = (file: { path: string; sha256: string; blobKey: string | null }, details: Record<string, unknown>) =>
    recordDownloadCustody(deps.knex, {
      subjectKind: 'dossier', subjectId: d.id, actor: principalName(principal), artifact: file.path, purpose, files: [file],
      audit: { action: 'dossier.download', target_type: 'dossier', target_id: d.id, details },
    });
  const ownFile = d.manifest && d.digest ? packageOwnFiles(d).find((f) => f.path === artifact) : undefined;
  if (ownFile) {
    const sha256 = sha256Hex(ownFile.body);
    await custody({ path: artifact, sha256, blobKey: null }, { artifact });
    return { fileName: artifact, body: ownFile.body, sha256, contentType: null, bytes: null };
  }
  const a = await findDossierArtifact(deps.knex, d.id, artifact);
  if (!a) throw notFound();
  const body = await deps.blobs.get(a.blob_key).catch((err: unknown) => {
    if (err instanceof BlobNotFoundError) throw notFound();
    throw err;
  });
  await custody({ path: a.name, sha256: a.sha256, blobKey: a.blob_key }, { artifact: a.name, sha256: a.sha256, bytes: Number(a.bytes) }).catch((err: unknown) => {
    body.destroy();
    throw err;
  });
  return { fileName: a.name.split('/').pop()!, body, sha256: a.sha256, contentType: a.content_type, bytes: Number(a.bytes) };
}

/** The files of a sealed dossier that are not artifacts: its manifest, signed digest and trusted-time files. */
function packageOwnFiles(d: DossierRow): Array<{ path: string; body: Buffer }> {
  return [{ path: MANIFEST_PATH, body: Buffer.from(d.manifest!, 'utf8') }, { path: DIGEST_PATH, body: Buffer.from(d.digest!, 'utf8') }, ...timestampFiles(d)];
}

/**
 * The whole sealed dossier as one ZIP (every artifact, datapackage.json, the signed
 * datapackage-digest.json and timestamp.tsr when it has one), streamed; one custody entry of the dossier
 * with every file's hash and an audit event (`dossier.download`) with its purpose. 409 when not
 * sealed yet.
 */
export async function openDossierZip(
  deps: Pick<ServiceDeps, 'knex' | 'blobs' | 'log'>,
  principal: Principal | null,
  id: string,
  purpose: string,
): Promise<{ dossierId: string; body: Readable }> {
  const d = await dossierOr404(deps.knex, id);
  if (d.status !== 'ready' || !d.manifest || !d.digest) throw notSealed(d);
  const artifacts = await listDossierArtifacts(deps.knex, d.id);
  await recordDownloadCustody(deps.knex, {
    subjectKind: 'dossier', subjectId: d.id, actor: principalName(principal), artifact: 'dossier.zip', purpose,
    files: [
      ...packageOwnFiles(d).map((f) => ({ path: f.path, sha256: sha256Hex(f.body), blobKey: null })),
      ...artifacts.map((a) => ({ path: a.name, sha256: a.sha256, blobKey: a.blob_key })),
    ],
    audit: { action: 'dossier.download', target_type: 'dossier', target_id: d.id, details: { artifact: null, artifacts: artifacts.length } },
  });
  return { dossierId: d.id, body: zipPackage(dossierPackageEntries(deps.blobs, d, artifacts), deps.log) };
}

/**
 * A ZIP of `entries`, streamed: each entry's source is opened only when the previous one has been
 * written, so memory and open files stay flat however many and however large the artifacts are.
 */
function zipPackage(entries: readonly PackageEntry[], log: Logger): ZipArchive {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  void (async () => {
    for (const e of entries) {
      const written = once(archive, 'entry');
      archive.append(await e.open(), { name: e.path });
      await written;
    }
    await archive.finalize();
  })().catch((err: unknown) => {
    log.warn({ err }, 'dossier zip aborted');
    archive.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return archive;
}

/** A dossier's shared-storage access list as answered. */
export interface DossierAcl {
  dossier_id: string;
  entries: DriveAclEntry[];
}

/** The dossier's shared-storage access list now (derived entries plus explicit grants). */
async function dossierDriveAcl(knex: Knex, dossier: DossierRow, now = new Date()): Promise<DossierAcl> {
  const theCase = dossier.case_id ? await findCase(knex, dossier.case_id) : undefined;
  const referral = theCase ? await findReferral(knex, theCase.id) : null;
  const entries = deriveDriveAcl(
    {
      dossier: { created_by: dossier.created_by, created_at: dossier.created_at },
      case: theCase ?? null,
      reviews: theCase ? await listCaseReviews(knex, theCase.id) : [],
      referral: referral?.referral ?? null,
      grants: await listAclGrants(knex, dossier.id),
    },
    now,
  );
  return { dossier_id: dossier.id, entries };
}

/** Who may read the dossier's shared-storage folder: the case team, the LEA referral's recipient, its creator, and explicit grants. */
export async function getDossierAcl(deps: Pick<ServiceDeps, 'knex'>, id: string): Promise<DossierAcl> {
  return dossierDriveAcl(deps.knex, await dossierOr404(deps.knex, id));
}

/** An admin's change to the access list: grant `role` (until `expires_at`) or revoke the principal. */
export interface DossierAclChange {
  principal: string;
  role?: DriveAclRole;
  expires_at?: string;
  revoke: boolean;
}

/** Grants or revokes (derived entries included), records it in the audit log, and answers the new list. */
export async function changeDossierAcl(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string, change: DossierAclChange): Promise<DossierAcl> {
  const d = await dossierOr404(deps.knex, id);
  const actor = principalName(principal);
  await putAclGrant(deps.knex, {
    dossier_id: d.id, principal: change.principal, role: change.role ?? 'reader', revoked: change.revoke,
    granted_by: actor, expires_at: change.expires_at ? new Date(change.expires_at) : null,
  });
  await recordAuditEvent(deps.knex, {
    actor, action: change.revoke ? 'dossier.acl_revoke' : 'dossier.acl_grant', target_type: 'dossier', target_id: d.id,
    details: { principal: change.principal, role: change.role ?? null, expires_at: change.expires_at ?? null },
  });
  return dossierDriveAcl(deps.knex, d);
}
