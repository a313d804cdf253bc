// The dossiers' request and response schemas: the plan's answer, summaries and detail, the
// verification and signature manifest, artifact downloads, and the shared-storage access list.
import { z } from 'zod';
import { DOSSIER_STATUSES } from '../../../domain/dossiers/dossier-plan';
import { DRIVE_ACL_ROLES, DRIVE_ACL_SOURCES } from '../../../domain/dossiers/drive-acl';
import { pageQueryShape } from '../../pagination';


export const DossierAcceptedSchema = z
  .object({ plan_id: z.string().uuid(), task_id: z.string(), kind: z.literal('dossier'), status: z.enum(DOSSIER_STATUSES), status_url: z.string(), detail_path: z.string() })
  .meta({ id: 'DossierAccepted' });

export const DossierListQuery = z.object({ case_id: z.string().uuid().optional(), status: z.enum(DOSSIER_STATUSES).optional(), ...pageQueryShape });

export const DossierSummarySchema = z
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

export const DossierArtifactSchema = z
  .object({
    name: z.string(),
    sha256: z.string(),
    bytes: z.number().int(),
    content_type: z.string(),
    source: z.object({ kind: z.string(), id: z.string() }),
    download_path: z.string(),
  })
  .meta({ id: 'DossierArtifact' });

export const DossierDetailSchema = DossierSummarySchema.extend({
  plan: z.record(z.string(), z.unknown()),
  artifacts: z.array(DossierArtifactSchema),
}).meta({ id: 'DossierDetail' });

export const VerificationSchema = z
  .object({
    valid: z.boolean().describe('the manifest, its signature (by a key of the platform\'s keyring) and every artifact check out'),
    key_id: z.string().nullable(),
    fingerprint: z.string().nullable().describe('SHA-256 (hex) of the SPKI DER of the key that signed the manifest'),
    algorithm: z.string().nullable().describe('the signature\'s algorithm: ecdsa-p384-sha256 (wacz-auth 0.1.0), or ed25519 for dossiers sealed before it'),
    trusted: z.boolean().nullable().describe('whether that key is one of the platform\'s signing keys (an untrusted signer makes `valid` false)'),
    manifest_sha256: z.string(),
    artifacts: z.array(z.object({ name: z.string(), sha256: z.string().describe('sha256:<hex> of the bytes found'), ok: z.boolean() })),
    problems: z.array(z.object({ file: z.string(), code: z.string(), message: z.string() })).describe('each failing file with what failed (changed, missing, extra, bad_signature, timestamp_mismatch, ...)'),
    timestamp: z
      .object({
        status: z.enum(['stamped', 'none', 'invalid']).describe('stamped: an RFC 3161 token whose imprint is the manifest\'s SHA-256; none: the dossier carries no third-party timestamp'),
        gen_time: z.string().nullable().describe('the time the authority vouches for'),
        serial: z.string().nullable(),
        chain: z.enum(['verified', 'failed', 'not_checked']).describe('the token\'s signature chain is checked offline with the authority\'s CA (`fip evidence verify --tsa-ca`)'),
        statement: z.string().nullable().describe('why there is no token (from the signed manifest: no authority configured, or none answered)'),
      })
      .describe('the trusted time of the sealed manifest (timestamp.tsr beside it)'),
  })
  .meta({ id: 'DossierVerification' });

export const SignatureManifestSchema = z
  .object({
    plan_id: z.string().uuid(),
    manifest: z.string().describe('datapackage.json byte for byte (UTF-8): every artifact with path, bytes and sha256 hash'),
    manifest_sha256: z.string(),
    digest: z.record(z.string(), z.unknown()).describe('datapackage-digest.json: the manifest\'s hash signed with ECDSA P-384 (wacz-auth signedData; signature.key_id, fingerprint, public_key, signature, signature_der); older dossiers: Ed25519'),
    key_id: z.string(),
    sealed_at: z.string(),
  })
  .meta({ id: 'DossierSignatureManifest' });

export const DriveAclEntrySchema = z
  .object({
    principal: z.string(),
    role: z.enum(DRIVE_ACL_ROLES),
    granted_by: z.string(),
    granted_at: z.string(),
    expires_at: z.string().nullable(),
    source: z.enum(DRIVE_ACL_SOURCES),
  })
  .meta({ id: 'DriveAclEntry' });
export const DriveAclSchema = z.object({ dossier_id: z.string().uuid(), entries: z.array(DriveAclEntrySchema) }).meta({ id: 'DriveAcl' });

export const AclChangeSchema = z
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

export const ArtifactParams = z.object({ id: z.string().uuid(), artifact: z.string().min(1).max(512).describe('The artifact name, URL-encoded (case%2Fcase.json)') });

/** Why a download happens, recorded with its audit event. */
export const DownloadPurposeQuery = z.object({ purpose: z.string().trim().min(1).max(500).default('download').describe('Why (recorded in the audit log); default download') });
