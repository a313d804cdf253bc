// Dossiers: signed packages assembled from a case, its intakes and investigations and
// a graph extract, built by the `dossier-<plan_id>` workflow. Plan, list, detail, verify, the
// signature manifest, one artifact's download, and the shared-storage access list (read; admins
// grant and revoke). The use cases are in services/dossiers/dossier-service.ts.
import type { z } from 'zod';
import { DossierPlanSchema, type DossierPlan, type DossierStatus } from '../../../domain/dossiers/dossier-plan';
import {
  changeDossierAcl,
  dossierTaskId,
  getDossier,
  getDossierAcl,
  getSignatureManifest,
  listDossiers,
  openDossierArtifact,
  openDossierZip,
  planDossier,
  verifyDossier,
  type DossierRow,
} from '../../../services/dossiers/dossier-service';
import { IdempotencyHeaders, requestHash } from '../../idempotency-key';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import {
  AclChangeSchema,
  ArtifactParams,
  DossierAcceptedSchema,
  DossierDetailSchema,
  DossierListQuery,
  DossierSummarySchema,
  DownloadPurposeQuery,
  DriveAclSchema,
  SignatureManifestSchema,
  VerificationSchema,
} from './dossier-schemas';

const READ = { roles: ['admin', 'analyst'], scopes: ['reports:read', 'reports:write'] } as const;
const WRITE = { roles: ['admin', 'analyst'], scopes: ['reports:write'] } as const;

const summary = (d: DossierRow) => ({
  id: d.id,
  plan_id: d.id,
  task_id: dossierTaskId(d.id),
  title: d.title,
  case_id: d.case_id,
  status: d.status,
  error: d.error,
  manifest_sha256: d.manifest_sha256,
  key_id: d.key_id,
  created_by: d.created_by,
  created_at: d.created_at.toISOString(),
  updated_at: d.updated_at.toISOString(),
  sealed_at: d.sealed_at?.toISOString() ?? null,
});

const artifactPath = (id: string, name: string) => `/reports/dossiers/${id}/download/${encodeURIComponent(name)}`;

export const dossierRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, DossierPlan>({
    method: 'post',
    path: '/reports/dossiers',
    summary: 'Plan a dossier (a Temporal workflow dossier-<plan_id> collects, then signs it); poll status_url. Unknown case, scan or entity ids are 400 with their field paths. With Idempotency-Key, a repeat answers the same plan',
    tags: ['reports'],
    access: WRITE,
    request: { body: DossierPlanSchema, headers: IdempotencyHeaders },
    responses: {
      202: { description: 'Accepted (or the plan an earlier request with the same Idempotency-Key started)', schema: DossierAcceptedSchema },
      400: { description: 'Invalid plan: no source, a malformed field, or an unknown case_id / scan_ids.N / entity_ids.N (details name each)', schema: ErrorSchema },
      422: { description: 'idempotency_key_reused: the Idempotency-Key was used before with a different body', schema: ErrorSchema },
    },
    handler: async ({ body, headers, principal, deps }) => {
      const key = headers['idempotency-key'];
      const { planId, taskId, status } = await planDossier(deps, principal, body, key === undefined ? undefined : { key, hash: requestHash(body) });
      return {
        status: 202,
        body: { plan_id: planId, task_id: taskId, kind: 'dossier', status, status_url: `/tasks/${taskId}`, detail_path: `/reports/dossiers/${planId}` },
      };
    },
  }),
  defineRoute<Record<string, never>, { case_id?: string; status?: DossierStatus; limit: number; cursor?: { ts: string; id: string } }>({
    method: 'get',
    path: '/reports/dossiers',
    summary: 'List dossiers, newest first (filters: case_id, status)',
    tags: ['reports'],
    access: READ,
    request: { query: DossierListQuery },
    responses: { 200: { description: 'A page of dossiers', schema: pageSchema(DossierSummarySchema, 'DossierPage') } },
    handler: async ({ query, deps }) => {
      const page = await listDossiers(deps, { caseId: query.case_id, status: query.status, limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map(summary), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'get',
    path: '/reports/dossiers/{id}',
    summary: 'One dossier: its plan, status, manifest digest and artifacts with their download paths (an addition to the spec)',
    tags: ['reports'],
    access: READ,
    request: { params: UuidParam },
    responses: { 200: { description: 'The dossier', schema: DossierDetailSchema }, 404: { description: 'No such dossier', schema: ErrorSchema } },
    handler: async ({ params, deps }) => {
      const { dossier: d, artifacts } = await getDossier(deps, params.id);
      const items = artifacts.map((a) => ({
        name: a.name, sha256: a.sha256, bytes: Number(a.bytes), content_type: a.content_type, source: { kind: a.source_kind, id: a.source_id }, download_path: artifactPath(d.id, a.name),
      }));
      return { body: { ...summary(d), plan: d.plan, artifacts: items } };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'post',
    path: '/reports/dossiers/{id}/verify',
    summary: 'Verify a dossier: re-hash every artifact from the blob store against the signed manifest, check the manifest digest and signature; failing artifacts are named',
    tags: ['reports'],
    access: READ,
    request: { params: UuidParam },
    responses: {
      200: { description: 'The verification (valid false names what failed)', schema: VerificationSchema },
      404: { description: 'No such dossier', schema: ErrorSchema },
      409: { description: 'The dossier is not sealed yet (status other than ready)', schema: ErrorSchema },
    },
    handler: async ({ params, principal, deps }) => ({ body: await verifyDossier(deps, principal, params.id) }),
  }),
  defineRoute<{ id: string }>({
    method: 'get',
    path: '/reports/dossiers/{id}/signature_manifest',
    summary: 'The signed manifest of a dossier: its exact bytes, digest, signature and key id',
    tags: ['reports'],
    access: READ,
    request: { params: UuidParam },
    responses: {
      200: { description: 'The signature manifest', schema: SignatureManifestSchema },
      404: { description: 'No such dossier', schema: ErrorSchema },
      409: { description: 'The dossier is not sealed yet', schema: ErrorSchema },
    },
    handler: async ({ params, deps }) => ({ body: await getSignatureManifest(deps, params.id) }),
  }),
  defineRoute<{ id: string; artifact: string }, { purpose: string }>({
    method: 'get',
    path: '/reports/dossiers/{id}/download/{artifact}',
    summary: 'Download one artifact (streamed; X-Content-SHA256 carries its hash). The name is URL-encoded; an unknown or traversing name is 404. Every download is an audit event with its purpose',
    tags: ['reports'],
    access: READ,
    request: { params: ArtifactParams, query: DownloadPurposeQuery },
    responses: {
      200: { description: 'The artifact\'s bytes', contentType: 'application/octet-stream' },
      404: { description: 'No such dossier or artifact', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const file = await openDossierArtifact(deps, principal, params.id, params.artifact, query.purpose);
      ctx.type = 'application/octet-stream';
      ctx.attachment(file.fileName);
      ctx.set('X-Content-SHA256', file.sha256);
      if (file.contentType !== null) ctx.set('X-Artifact-Content-Type', file.contentType);
      if (file.bytes !== null) ctx.length = file.bytes;
      return { body: file.body };
    },
  }),
  defineRoute<{ id: string }, { purpose: string }>({
    method: 'get',
    path: '/reports/dossiers/{id}/download',
    summary: 'The whole sealed dossier as one ZIP (streamed): every artifact, datapackage.json and the signed datapackage-digest.json; `npx fip evidence verify <zip>` checks it offline (an addition to the spec). Audited with its purpose',
    tags: ['reports'],
    access: READ,
    request: { params: UuidParam, query: DownloadPurposeQuery },
    responses: {
      200: { description: 'The dossier as a ZIP', contentType: 'application/zip' },
      404: { description: 'No such dossier', schema: ErrorSchema },
      409: { description: 'The dossier is not sealed yet', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const { dossierId, body } = await openDossierZip(deps, principal, params.id, query.purpose);
      ctx.type = 'application/zip';
      ctx.attachment(`dossier-${dossierId}.zip`);
      return { body };
    },
  }),
  defineRoute<{ id: string }>({
    method: 'get',
    path: '/reports/dossiers/{id}/drive_acl',
    summary: 'Who may read the dossier\'s shared-storage folder: the case team (creator, assignee, reviewers), the LEA referral\'s recipient, the dossier\'s creator, and explicit grants',
    tags: ['reports'],
    access: READ,
    request: { params: UuidParam },
    responses: { 200: { description: 'The access list', schema: DriveAclSchema }, 404: { description: 'No such dossier', schema: ErrorSchema } },
    handler: async ({ params, deps }) => ({ body: await getDossierAcl(deps, params.id) }),
  }),
  defineRoute<{ id: string }, Record<string, never>, z.infer<typeof AclChangeSchema>>({
    method: 'post',
    path: '/reports/dossiers/{id}/drive_acl',
    summary: 'Admins grant a principal a role (optionally until expires_at) or revoke it (derived entries included); answers the new list (an addition to the spec)',
    tags: ['reports'],
    access: { roles: ['admin'] },
    request: { params: UuidParam, body: AclChangeSchema },
    responses: { 200: { description: 'The access list after the change', schema: DriveAclSchema }, 404: { description: 'No such dossier', schema: ErrorSchema } },
    handler: async ({ params, body, principal, deps }) => ({ body: await changeDossierAcl(deps, principal, params.id, body) }),
  }),
];
