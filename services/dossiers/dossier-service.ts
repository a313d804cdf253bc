// Dossiers as use cases: plan one (check its references, store it, start `dossier-<plan_id>`),
// verify one (re-hash every artifact from the blob store against the signed manifest), and answer
// its shared-storage access list. Used by the API routes; nothing here speaks HTTP.
import { Readable } from 'node:stream';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { findCase } from '../../db/repositories/cases/case-repository';
import {
  findDossier,
  insertDossier,
  listAclGrants,
  listDossierArtifacts,
  missingEntityIds,
  missingScanIds,
  type DossierArtifactRow,
  type DossierRow,
} from '../../db/repositories/dossiers/dossier-repository';
import { findReferral } from '../../db/repositories/cases/lea-referral-repository';
import { listCaseReviews } from '../../db/repositories/reviews/review-repository';
import { DIGEST_PATH, MANIFEST_PATH } from '../../domain/evidence/package-manifest';
import type { VerificationResult } from '../../domain/evidence/verify-package';
import type { DossierPlan } from '../../domain/dossiers/dossier-plan';
import { deriveDriveAcl, type DriveAclEntry } from '../../domain/dossiers/drive-acl';
import type { BlobStore } from '../../infra/blob-store';
import { evidenceKeyringFor } from '../../infra/evidence-keyring';
import { verifyPackageEntries, type PackageEntry } from '../evidence/evidence-verification';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { dossierWorkflow } from '../../workflows/dossiers/dossier-workflow';

export const dossierTaskId = (planId: string) => `dossier-${planId}`;

export interface DossierDeps {
  knex: Knex;
  temporal: Client;
  config: AppConfig;
  blobs: BlobStore;
}

/** A plan reference that does not exist: its field path (`body.scan_ids.1`) and why. */
export interface MissingReference {
  path: string;
  message: string;
}

/** The references of a plan that do not exist (case, scans, entities), each with its field path. */
export async function missingPlanReferences(knex: Knex, plan: DossierPlan): Promise<MissingReference[]> {
  const out: MissingReference[] = [];
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
 * Stores the dossier (idempotent on plan id) and starts its workflow. A repeat for the same plan id
 * (an Idempotency-Key replay) finds the workflow started and answers the same task.
 */
export async function startDossier(deps: DossierDeps, planId: string, plan: DossierPlan, requestedBy: string): Promise<{ planId: string; taskId: string }> {
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
  return { planId, taskId };
}

export interface DossierVerification extends VerificationResult {
  manifest_sha256: string;
}

/** The files of a sealed dossier as a signed package: manifest, signed digest, then every artifact by name. */
export function dossierPackageEntries(blobs: BlobStore, dossier: DossierRow, artifacts: readonly DossierArtifactRow[]): PackageEntry[] {
  return [
    { path: MANIFEST_PATH, open: () => Readable.from([Buffer.from(dossier.manifest!, 'utf8')]) },
    { path: DIGEST_PATH, open: () => Readable.from([Buffer.from(dossier.digest!, 'utf8')]) },
    ...artifacts.map((a) => ({ path: a.name, open: () => blobs.get(a.blob_key) })),
  ];
}

/**
 * Re-hashes every artifact from the blob store (streamed) and checks it, the manifest and its
 * signature with the platform's evidence verifier, trusting the keyring's keys (the active one and
 * every earlier one). A changed, missing or unlisted artifact is named. Null when not sealed yet.
 */
export async function verifyDossier(deps: DossierDeps, dossier: DossierRow): Promise<DossierVerification | null> {
  if (dossier.status !== 'ready' || dossier.manifest === null || dossier.digest === null || dossier.manifest_sha256 === null) return null;
  const present: DossierArtifactRow[] = [];
  // A blob that is gone is left out, so the verifier names it `missing`.
  for (const a of await listDossierArtifacts(deps.knex, dossier.id)) if (await deps.blobs.exists(a.blob_key)) present.push(a);
  const result = await verifyPackageEntries(dossierPackageEntries(deps.blobs, dossier, present), { trustedKeys: evidenceKeyringFor(deps.config).trustedKeys() });
  return { ...result, manifest_sha256: dossier.manifest_sha256 };
}

/** The dossier's shared-storage access list now (derived entries plus explicit grants). */
export async function dossierDriveAcl(knex: Knex, dossier: DossierRow, now = new Date()): Promise<DriveAclEntry[]> {
  const theCase = dossier.case_id ? await findCase(knex, dossier.case_id) : undefined;
  const referral = theCase ? await findReferral(knex, theCase.id) : null;
  return deriveDriveAcl(
    {
      dossier: { created_by: dossier.created_by, created_at: dossier.created_at },
      case: theCase ?? null,
      reviews: theCase ? await listCaseReviews(knex, theCase.id) : [],
      referral: referral?.referral ?? null,
      grants: await listAclGrants(knex, dossier.id),
    },
    now,
  );
}

export { findDossier };
