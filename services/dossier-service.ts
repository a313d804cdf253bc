// Dossiers as use cases: plan one (check its references, store it, start `dossier-<plan_id>`),
// verify one (re-hash every artifact from the blob store against the signed manifest), and answer
// its shared-storage access list. Used by the API routes; nothing here speaks HTTP.
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../config/config';
import { findCase } from '../db/repositories/case-repository';
import {
  findDossier,
  insertDossier,
  listAclGrants,
  listDossierArtifacts,
  missingEntityIds,
  missingScanIds,
  type DossierRow,
} from '../db/repositories/dossier-repository';
import { findReferral } from '../db/repositories/lea-referral-repository';
import { listCaseReviews } from '../db/repositories/review-repository';
import { manifestArtifacts, manifestDigest } from '../domain/dossiers/dossier-manifest';
import type { DossierPlan } from '../domain/dossiers/dossier-plan';
import { deriveDriveAcl, type DriveAclEntry } from '../domain/dossiers/drive-acl';
import type { BlobStore } from '../infra/blob-store';
import { checkDossierSignature } from './dossier-signing';
import { startPlatformWorkflow } from './platform-workflows';

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
      workflowType: 'dossierWorkflow',
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

export interface ArtifactCheck {
  name: string;
  /** The SHA-256 the signed manifest lists (or, for an artifact the manifest lacks, the stored one). */
  sha256: string;
  /** What the blob store's bytes hash to now (null when the blob or its row is gone). */
  actual_sha256: string | null;
  ok: boolean;
}

export interface DossierVerification {
  valid: boolean;
  key_id: string | null;
  signed: boolean;
  signature_valid: boolean | null;
  manifest_sha256: string;
  manifest_ok: boolean;
  artifacts: ArtifactCheck[];
}

async function sha256OfBlob(blobs: BlobStore, key: string): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    await pipeline(
      await blobs.get(key),
      new Writable({
        write(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          done();
        },
      }),
    );
  } catch {
    return null;
  }
  return hash.digest('hex');
}

/**
 * Re-hashes every artifact from the blob store (streamed) and compares it with the signed
 * manifest; also checks the manifest's own digest and signature. An artifact is named as failing
 * when its bytes, its stored hash or its presence differ from the manifest; an artifact the
 * manifest does not list fails too. Null when the dossier is not sealed yet.
 */
export async function verifyDossier(deps: DossierDeps, dossier: DossierRow): Promise<DossierVerification | null> {
  if (dossier.status !== 'ready' || dossier.manifest === null || dossier.manifest_sha256 === null) return null;
  const manifest = dossier.manifest;
  const listed = manifestArtifacts(manifest);
  const manifestOk = listed !== null && manifestDigest(manifest) === dossier.manifest_sha256;
  const rows = new Map((await listDossierArtifacts(deps.knex, dossier.id)).map((r) => [r.name, r]));
  const checks: ArtifactCheck[] = [];
  for (const [name, entry] of listed ?? new Map()) {
    const row = rows.get(name);
    const actual = row ? await sha256OfBlob(deps.blobs, row.blob_key) : null;
    checks.push({ name, sha256: entry.sha256, actual_sha256: actual, ok: row !== undefined && actual === entry.sha256 && row.sha256 === entry.sha256 });
  }
  for (const [name, row] of rows) {
    if (!listed?.has(name)) checks.push({ name, sha256: row.sha256, actual_sha256: await sha256OfBlob(deps.blobs, row.blob_key), ok: false });
  }
  checks.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sig = await checkDossierSignature(deps.config, manifest, { signature: dossier.signature, key_id: dossier.key_id });
  return {
    valid: manifestOk && checks.every((c) => c.ok) && sig.valid !== false,
    key_id: dossier.key_id,
    signed: sig.signed,
    signature_valid: sig.valid,
    manifest_sha256: dossier.manifest_sha256,
    manifest_ok: manifestOk,
    artifacts: checks,
  };
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
