// Dossiers: signed packages assembled from a case, its intakes and investigations and
// a graph extract, built by the `dossier-<plan_id>` workflow. Plan, list, detail, verify, the
// signature manifest, one artifact's download, and the shared-storage access list (read; admins
// grant and revoke).
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { ZipArchive } from 'archiver';
import { z } from 'zod';
import { recordAuditEvent } from '../../../db/repositories/audit/audit-event-repository';
import { findDossierArtifact, listDossierArtifacts, listDossiers, putAclGrant, type DossierRow } from '../../../db/repositories/dossiers/dossier-repository';
import { claimIdempotencyKey } from '../../../db/repositories/idempotency-key-repository';
import { isSafeArtifactName } from '../../../domain/dossiers/artifact-name';
import { DOSSIER_STATUSES, DossierPlanSchema, type DossierPlan, type DossierStatus } from '../../../domain/dossiers/dossier-plan';
import { DRIVE_ACL_ROLES, type DriveAclRole } from '../../../domain/dossiers/drive-acl';
import { BlobNotFoundError } from '../../../infra/blob-store';
import { DIGEST_PATH, MANIFEST_PATH, sha256Hex } from '../../../domain/evidence/package-manifest';
import type { Logger } from '../../../infra/logger';
import { dossierDriveAcl, dossierPackageEntries, dossierTaskId, findDossier, missingPlanReferences, startDossier, verifyDossier } from '../../../services/dossiers/dossier-service';
import type { PackageEntry } from '../../../services/evidence/evidence-verification';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../../errors';
import { IdempotencyKeySchema, requestHash } from '../../idempotency-key';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';

const READ = { roles: ['admin', 'analyst'], scopes: ['reports:read', 'reports:write'] } as const;
const WRITE = { roles: ['admin', 'analyst'], scopes: ['reports:write'] } as const;

const DossierAcceptedSchema = z
  .object({ plan_id: z.string().uuid(), task_id: z.string(), kind: z.literal('dossier'), status: z.enum(DOSSIER_STATUSES), status_url: z.string(), detail_path: z.string() })
  .meta({ id: 'DossierAccepted' });

const DossierSummarySchema = z
  .object({
    id: z.string().uuid(),
    plan_id: z.string().uuid(),
    task_id: z.string(),
    title: z.string(),
    case_id: z.string().uuid().nullable(),
    status: z.enum(DOSSIER_STATUSES),
    error: z.string().nullable(),
    manifest_sha256: z.string().nullable(),
    key_id: z.string().nullable(),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    sealed_at: z.string().nullable(),
  })
  .meta({ id: 'DossierSummary' });

const DossierArtifactSchema = z
  .object({
    name: z.string(),
    sha256: z.string(),
    bytes: z.number().int(),
    content_type: z.string(),
    source: z.object({ kind: z.string(), id: z.string() }),
    download_path: z.string(),
  })
  .meta({ id: 'DossierArtifact' });

const DossierDetailSchema = DossierSummarySchema.extend({
  plan: z.record(z.string(), z.unknown()),
  artifacts: z.array(DossierArtifactSchema),
}).meta({ id: 'DossierDetail' });

const VerificationSchema = z
  .object({
    valid: z.boolean().describe('the manifest, its signature (by a key of the platform\'s keyring) and every artifact check out'),
    key_id: z.string().nullable(),
    manifest_sha256: z.string(),
    artifacts: z.array(z.object({ name: z.string(), sha256: z.string().describe('sha256:<hex> of the bytes found'), ok: z.boolean() })),
    problems: z.array(z.object({ file: z.string(), code: z.string(), message: z.string() })).describe('each failing file with what failed (changed, missing, extra, bad_signature, ...)'),
  })
  .meta({ id: 'DossierVerification' });

const SignatureManifestSchema = z
  .object({
    plan_id: z.string().uuid(),
    manifest: z.string().describe('datapackage.json byte for byte (UTF-8): every artifact with path, bytes and sha256 hash'),
    manifest_sha256: z.string(),
    digest: z.record(z.string(), z.unknown()).describe('datapackage-digest.json: the manifest\'s hash signed with Ed25519 (signature.key_id, public_key, signature)'),
    key_id: z.string(),
    sealed_at: z.string(),
  })
  .meta({ id: 'DossierSignatureManifest' });

const DriveAclEntrySchema = z
  .object({
    principal: z.string(),
    role: z.enum(DRIVE_ACL_ROLES),
    granted_by: z.string(),
    granted_at: z.string(),
    expires_at: z.string().nullable(),
    source: z.enum(['case_creator', 'case_assignee', 'case_reviewer', 'lea_referral', 'dossier_creator', 'grant']),
  })
  .meta({ id: 'DriveAclEntry' });
const DriveAclSchema = z.object({ dossier_id: z.string().uuid(), entries: z.array(DriveAclEntrySchema) }).meta({ id: 'DriveAcl' });

const AclChangeSchema = z
  .object({
    principal: z.string().trim().min(1).max(320).describe('A user e-mail, an agency contact, or `agency:<name>`'),
    role: z.enum(DRIVE_ACL_ROLES).optional().describe('Required to grant'),
    expires_at: z.iso.datetime({ offset: true }).optional().describe('When the grant ends (ISO 8601); default never'),
    revoke: z.boolean().default(false).describe('true: remove the principal, derived entries included'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.revoke && !v.role) ctx.addIssue({ code: 'custom', path: ['role'], message: 'a grant needs a role' });
    if (v.revoke && (v.role || v.expires_at)) ctx.addIssue({ code: 'custom', path: ['revoke'], message: 'a revocation takes only principal' });
  });

const PlanIdParam = z.object({ plan_id: z.string().uuid() });
const ArtifactParams = z.object({ id: z.string().uuid(), artifact: z.string().min(1).max(512).describe('The artifact name, URL-encoded (case%2Fcase.json)') });

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

async function dossierOr404(deps: Parameters<typeof findDossier>[0], id: string): Promise<DossierRow> {
  const d = await findDossier(deps, id);
  if (!d) throw new NotFoundError(`no dossier ${id}`);
  return d;
}

export const dossierRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, DossierPlan>({
    method: 'post',
    path: '/reports/dossiers',
    summary: 'Plan a dossier (a Temporal workflow dossier-<plan_id> collects, then signs it); poll status_url. Unknown case, scan or entity ids are 400 with their field paths. With Idempotency-Key, a repeat answers the same plan',
    tags: ['reports'],
    access: WRITE,
    request: { body: DossierPlanSchema, headers: z.object({ 'idempotency-key': IdempotencyKeySchema.optional() }) },
    responses: {
      202: { description: 'Accepted (or the plan an earlier request with the same Idempotency-Key started)', schema: DossierAcceptedSchema },
      400: { description: 'Invalid plan: no source, a malformed field, or an unknown case_id / scan_ids.N / entity_ids.N (details name each)', schema: ErrorSchema },
      422: { description: 'idempotency_key_reused: the Idempotency-Key was used before with a different body', schema: ErrorSchema },
    },
    handler: async ({ body, headers, principal, deps }) => {
      const missing = await missingPlanReferences(deps.knex, body);
      if (missing.length) throw new ValidationError(`unknown references: ${missing.map((m) => m.path).join(', ')}`, missing);
      const requestedBy = principalName(principal);
      let planId: string = randomUUID();
      const key = headers['idempotency-key'];
      if (key !== undefined) {
        const hash = requestHash(body);
        const { row } = await claimIdempotencyKey(deps.knex, { scope: 'reports.dossiers', principal: requestedBy, key, requestHash: hash, response: { task_id: dossierTaskId(planId) } });
        if (row.request_hash !== hash) {
          throw new UnprocessableError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request body; use a new key');
        }
        planId = row.response.task_id.slice('dossier-'.length);
      }
      await startDossier(deps, planId, body, requestedBy);
      const status = (await findDossier(deps.knex, planId))?.status ?? 'queued';
      return {
        status: 202,
        body: { plan_id: planId, task_id: dossierTaskId(planId), kind: 'dossier', status, status_url: `/tasks/${dossierTaskId(planId)}`, detail_path: `/reports/dossiers/${planId}` },
      };
    },
  }),
  defineRoute<Record<string, never>, { case_id?: string; status?: DossierStatus; limit: number; cursor?: { ts: string; id: string } }>({
    method: 'get',
    path: '/reports/dossiers',
    summary: 'List dossiers, newest first (filters: case_id, status)',
    tags: ['reports'],
    access: READ,
    request: { query: z.object({ case_id: z.string().uuid().optional(), status: z.enum(DOSSIER_STATUSES).optional(), ...pageQueryShape }) },
    responses: { 200: { description: 'A page of dossiers', schema: pageSchema(DossierSummarySchema, 'DossierPage') } },
    handler: async ({ query, deps }) => {
      const page = await listDossiers(deps.knex, { caseId: query.case_id, status: query.status, limit: query.limit, after: query.cursor });
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
      const d = await dossierOr404(deps.knex, params.id);
      const artifacts = (await listDossierArtifacts(deps.knex, d.id)).map((a) => ({
        name: a.name, sha256: a.sha256, bytes: Number(a.bytes), content_type: a.content_type, source: { kind: a.source_kind, id: a.source_id }, download_path: artifactPath(d.id, a.name),
      }));
      return { body: { ...summary(d), plan: d.plan, artifacts } };
    },
  }),
  defineRoute<{ plan_id: string }>({
    method: 'post',
    path: '/reports/dossiers/{plan_id}/verify',
    summary: 'Verify a dossier: re-hash every artifact from the blob store against the signed manifest, check the manifest digest and signature; failing artifacts are named',
    tags: ['reports'],
    access: READ,
    request: { params: PlanIdParam },
    responses: {
      200: { description: 'The verification (valid false names what failed)', schema: VerificationSchema },
      404: { description: 'No such dossier', schema: ErrorSchema },
      409: { description: 'The dossier is not sealed yet (status other than ready)', schema: ErrorSchema },
    },
    handler: async ({ params, principal, deps }) => {
      const d = await dossierOr404(deps.knex, params.plan_id);
      const result = await verifyDossier(deps, d);
      if (!result) throw new ConflictError(`dossier ${d.id} is ${d.status}, not sealed yet`, { status: d.status });
      await recordAuditEvent(deps.knex, {
        actor: principalName(principal), action: 'dossier.verify', target_type: 'dossier', target_id: d.id,
        details: { valid: result.valid, failed: result.artifacts.filter((a) => !a.ok).map((a) => a.name) },
      });
      return { body: result };
    },
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
    handler: async ({ params, deps }) => {
      const d = await dossierOr404(deps.knex, params.id);
      if (d.status !== 'ready' || !d.manifest || !d.manifest_sha256 || !d.digest || !d.key_id || !d.sealed_at) {
        throw new ConflictError(`dossier ${d.id} is ${d.status}, not sealed yet`, { status: d.status });
      }
      return { body: { plan_id: d.id, manifest: d.manifest, manifest_sha256: d.manifest_sha256, digest: JSON.parse(d.digest) as Record<string, unknown>, key_id: d.key_id, sealed_at: d.sealed_at.toISOString() } };
    },
  }),
  defineRoute<{ id: string; artifact: string }, { purpose: string }>({
    method: 'get',
    path: '/reports/dossiers/{id}/download/{artifact}',
    summary: 'Download one artifact (streamed; X-Content-SHA256 carries its hash). The name is URL-encoded; an unknown or traversing name is 404. Every download is an audit event with its purpose',
    tags: ['reports'],
    access: READ,
    request: { params: ArtifactParams, query: z.object({ purpose: z.string().trim().min(1).max(500).default('download').describe('Why (recorded in the audit log); default download') }) },
    responses: {
      200: { description: 'The artifact\'s bytes', contentType: 'application/octet-stream' },
      404: { description: 'No such dossier or artifact', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const notFound = () => new NotFoundError(`dossier ${params.id} has no artifact ${JSON.stringify(params.artifact)}`);
      if (!isSafeArtifactName(params.artifact)) throw notFound();
      const d = await dossierOr404(deps.knex, params.id);
      if ((params.artifact === MANIFEST_PATH || params.artifact === DIGEST_PATH) && d.manifest && d.digest) {
        // The signed package's own two files, so single downloads verify too.
        const bytes = Buffer.from(params.artifact === MANIFEST_PATH ? d.manifest : d.digest, 'utf8');
        await recordAuditEvent(deps.knex, {
          actor: principalName(principal), action: 'dossier.download', target_type: 'dossier', target_id: d.id, purpose: query.purpose, details: { artifact: params.artifact },
        });
        ctx.type = 'application/octet-stream';
        ctx.attachment(params.artifact);
        ctx.set('X-Content-SHA256', sha256Hex(bytes));
        return { body: bytes };
      }
      const a = await findDossierArtifact(deps.knex, d.id, params.artifact);
      if (!a) throw notFound();
      const body = await deps.blobs.get(a.blob_key).catch((err: unknown) => {
        if (err instanceof BlobNotFoundError) throw notFound();
        throw err;
      });
      await recordAuditEvent(deps.knex, {
        actor: principalName(principal), action: 'dossier.download', target_type: 'dossier', target_id: d.id, purpose: query.purpose,
        details: { artifact: a.name, sha256: a.sha256, bytes: Number(a.bytes) },
      });
      ctx.type = 'application/octet-stream';
      ctx.attachment(a.name.split('/').pop()!);
      ctx.set('X-Content-SHA256', a.sha256);
      ctx.set('X-Artifact-Content-Type', a.content_type);
      ctx.length = Number(a.bytes);
      return { body };
    },
  }),
  defineRoute<{ id: string }, { purpose: string }>({
    method: 'get',
    path: '/reports/dossiers/{id}/download',
    summary: 'The whole sealed dossier as one ZIP (streamed): every artifact, datapackage.json and the signed datapackage-digest.json; `npx fip evidence verify <zip>` checks it offline (an addition to the spec). Audited with its purpose',
    tags: ['reports'],
    access: READ,
    request: { params: UuidParam, query: z.object({ purpose: z.string().trim().min(1).max(500).default('download').describe('Why (recorded in the audit log); default download') }) },
    responses: {
      200: { description: 'The dossier as a ZIP', contentType: 'application/zip' },
      404: { description: 'No such dossier', schema: ErrorSchema },
      409: { description: 'The dossier is not sealed yet', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const d = await dossierOr404(deps.knex, params.id);
      if (d.status !== 'ready' || !d.manifest || !d.digest) throw new ConflictError(`dossier ${d.id} is ${d.status}, not sealed yet`, { status: d.status });
      const artifacts = await listDossierArtifacts(deps.knex, d.id);
      await recordAuditEvent(deps.knex, {
        actor: principalName(principal), action: 'dossier.download', target_type: 'dossier', target_id: d.id, purpose: query.purpose, details: { artifact: null, artifacts: artifacts.length },
      });
      ctx.type = 'application/zip';
      ctx.attachment(`dossier-${d.id}.zip`);
      return { body: zipPackage(dossierPackageEntries(deps.blobs, d, artifacts), deps.log) };
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
    handler: async ({ params, deps }) => {
      const d = await dossierOr404(deps.knex, params.id);
      return { body: { dossier_id: d.id, entries: await dossierDriveAcl(deps.knex, d) } };
    },
  }),
  defineRoute<{ id: string }, Record<string, never>, z.infer<typeof AclChangeSchema>>({
    method: 'post',
    path: '/reports/dossiers/{id}/drive_acl',
    summary: 'Admins grant a principal a role (optionally until expires_at) or revoke it (derived entries included); answers the new list (an addition to the spec)',
    tags: ['reports'],
    access: { roles: ['admin'] },
    request: { params: UuidParam, body: AclChangeSchema },
    responses: { 200: { description: 'The access list after the change', schema: DriveAclSchema }, 404: { description: 'No such dossier', schema: ErrorSchema } },
    handler: async ({ params, body, principal, deps }) => {
      const d = await dossierOr404(deps.knex, params.id);
      const actor = principalName(principal);
      await putAclGrant(deps.knex, {
        dossier_id: d.id, principal: body.principal, role: (body.role ?? 'reader') as DriveAclRole, revoked: body.revoke,
        granted_by: actor, expires_at: body.expires_at ? new Date(body.expires_at) : null,
      });
      await recordAuditEvent(deps.knex, {
        actor, action: body.revoke ? 'dossier.acl_revoke' : 'dossier.acl_grant', target_type: 'dossier', target_id: d.id,
        details: { principal: body.principal, role: body.role ?? null, expires_at: body.expires_at ?? null },
      });
      return { body: { dossier_id: d.id, entries: await dossierDriveAcl(deps.knex, d) } };
    },
  }),
];

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
