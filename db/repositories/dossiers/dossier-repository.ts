// Dossiers, their artifacts and their access-list grants. The only SQL for dossiers, plus the
// reads the dossier workflow makes of its sources (a case's intakes, a graph extract).
import type { Knex } from 'knex';
import type { DossierPlan, DossierStatus } from '../../../domain/dossiers/dossier-plan';
import type { DriveAclRole } from '../../../domain/dossiers/drive-acl';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface DossierRow {
  id: string;
  title: string;
  case_id: string | null;
  plan: DossierPlan;
  status: DossierStatus;
  error: string | null;
  manifest: string | null;
  manifest_sha256: string | null;
  digest: string | null;
  key_id: string | null;
  /** The RFC 3161 TimeStampResp over the manifest (timestamp.tsr); null when none was obtained. */
  timestamp_token: Buffer | null;
  /** The outcome of asking the authorities (JSON: stamped, not_configured or unavailable with each attempt); null for dossiers sealed before. */
  timestamp_status: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  sealed_at: Date | null;
}

export interface DossierArtifactRow {
  dossier_id: string;
  name: string;
  blob_key: string;
  sha256: string;
  /** bigint: PostgreSQL answers a string. */
  bytes: string;
  content_type: string;
  source_kind: string;
  source_id: string;
  collected_at: Date;
}

export interface DossierAclGrantRow {
  dossier_id: string;
  principal: string;
  role: DriveAclRole;
  revoked: boolean;
  granted_by: string;
  granted_at: Date;
  expires_at: Date | null;
}

/** Inserts the dossier; a repeat with the same id changes nothing. Returns whether this call created it. */
export async function insertDossier(knex: Knex, d: { id: string; title: string; case_id: string | null; plan: DossierPlan; created_by: string }): Promise<boolean> {
  const rows = await knex('dossiers')
    .insert({ ...d, plan: JSON.stringify(d.plan), created_at: knex.raw('clock_timestamp()'), updated_at: knex.raw('clock_timestamp()') })
    .onConflict('id')
    .ignore()
    .returning('id');
  return rows.length > 0;
}

export async function findDossier(knex: Knex, id: string): Promise<DossierRow | undefined> {
  return knex<DossierRow>('dossiers').where({ id }).first();
}

export async function listDossiers(knex: Knex, f: { caseId?: string; status?: DossierStatus; limit: number; after?: Keyset }): Promise<KeysetPage<DossierRow>> {
  const q = knex('dossiers').select('dossiers.*');
  if (f.caseId) q.where('case_id', f.caseId);
  if (f.status) q.where('status', f.status);
  return keysetPage<DossierRow>(knex, q, { tsColumn: 'dossiers.created_at', idColumn: 'dossiers.id', limit: f.limit, after: f.after });
}

/** Moves a dossier that is not sealed yet (ready is final) to `status`. */
export async function setDossierStatus(knex: Knex, id: string, status: DossierStatus, error: string | null = null): Promise<void> {
  await knex('dossiers').where({ id }).whereNot('status', 'ready').update({ status, error, updated_at: knex.raw('clock_timestamp()') });
}

/** Stores the manifest and its signed digest and marks the dossier ready; a sealed dossier keeps its first seal. */
export async function sealDossier(
  knex: Knex,
  id: string,
  seal: { manifest: string; manifest_sha256: string; digest: string; key_id: string; timestamp_token: Buffer | null; timestamp_status: string },
): Promise<DossierRow> {
  await knex('dossiers')
    .where({ id })
    .whereNot('status', 'ready')
    .update({ ...seal, status: 'ready', error: null, sealed_at: knex.raw('clock_timestamp()'), updated_at: knex.raw('clock_timestamp()') });
  return (await findDossier(knex, id))!;
}

export async function findDossierArtifact(knex: Knex, dossierId: string, name: string): Promise<DossierArtifactRow | undefined> {
  return knex<DossierArtifactRow>('dossier_artifacts').where({ dossier_id: dossierId, name }).first();
}

export async function listDossierArtifacts(knex: Knex, dossierId: string): Promise<DossierArtifactRow[]> {
  return knex<DossierArtifactRow>('dossier_artifacts').where({ dossier_id: dossierId }).orderBy('name');
}

/** Records one artifact; idempotent per (dossier, name): a retried collection keeps the first row. */
export async function insertDossierArtifact(knex: Knex, a: Omit<DossierArtifactRow, 'collected_at' | 'bytes'> & { bytes: number }): Promise<void> {
  await knex('dossier_artifacts').insert(a).onConflict(['dossier_id', 'name']).ignore();
}

export async function listAclGrants(knex: Knex, dossierId: string): Promise<DossierAclGrantRow[]> {
  return knex<DossierAclGrantRow>('dossier_acl_grants').where({ dossier_id: dossierId }).orderBy('principal');
}

/** Grants (or, with revoked, revokes) `principal`; a later call for the same principal replaces the earlier one. */
export async function putAclGrant(knex: Knex, g: Omit<DossierAclGrantRow, 'granted_at'>): Promise<void> {
  await knex('dossier_acl_grants')
    .insert({ ...g, granted_at: knex.raw('clock_timestamp()') })
    .onConflict(['dossier_id', 'principal'])
    .merge(['role', 'revoked', 'granted_by', 'granted_at', 'expires_at']);
}

/** The intakes of a case: linked through case_links, or attached (intakes.case_id). */
export async function caseIntakeIds(knex: Knex, caseId: string): Promise<string[]> {
  const rows = await knex
    .select('id')
    .from('intakes')
    .where('case_id', caseId)
    .union((u) => u.select(knex.raw('target_id::uuid AS id')).from('case_links').where({ case_id: caseId, target_type: 'intake' }))
    .orderBy('id');
  return rows.map((r: { id: string }) => r.id);
}

/** Which of `ids` are not entities (for validating a plan). */
export async function missingEntityIds(knex: Knex, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const found = new Set((await knex('entities').whereIn('id', ids).select('id')).map((r: { id: string }) => r.id));
  return ids.filter((id) => !found.has(id));
}

/** Which of `scanIds` are not investigations (for validating a plan). */
export async function missingScanIds(knex: Knex, scanIds: readonly string[]): Promise<string[]> {
  if (!scanIds.length) return [];
  const found = new Set((await knex('investigations').whereIn('scan_id', scanIds).select('scan_id')).map((r: { scan_id: string }) => r.scan_id));
  return scanIds.filter((id) => !found.has(id));
}

export interface GraphExtract {
  entities: Array<{ id: string; type: string; value: string; display_value: string; attributes: Record<string, unknown>; first_seen_at: Date; last_seen_at: Date; risk_score: number | null }>;
  relationships: Array<{ src_entity_id: string; dst_entity_id: string; kind: string; weight: number; first_seen_at: Date; last_seen_at: Date }>;
  sightings: Array<{ entity_id: string; source_kind: string; source_id: string; observed_at: Date }>;
}

/** The entities `ids`, the edges among them and their sightings (at most `limit` of each). */
export async function graphExtract(knex: Knex, ids: readonly string[], limit = 10_000): Promise<GraphExtract> {
  if (!ids.length) return { entities: [], relationships: [], sightings: [] };
  const entities = await knex('entities')
    .whereIn('id', ids)
    .select('id', 'type', 'value', 'display_value', 'attributes', 'first_seen_at', 'last_seen_at', 'risk_score')
    .orderBy(['type', 'value'])
    .limit(limit);
  const relationships = await knex('relationships')
    .whereIn('src_entity_id', ids)
    .whereIn('dst_entity_id', ids)
    .select('src_entity_id', 'dst_entity_id', 'kind', 'weight', 'first_seen_at', 'last_seen_at')
    .orderBy(['src_entity_id', 'dst_entity_id', 'kind'])
    .limit(limit);
  const sightings = await knex('sightings')
    .whereIn('entity_id', ids)
    .select('entity_id', 'source_kind', 'source_id', 'observed_at')
    .orderBy(['entity_id', 'source_kind', 'source_id'])
    .limit(limit);
  return { entities, relationships, sightings };
}

/** The notes of a case's reviews (annotations, feedback and decisions), oldest first. */
export async function caseReviewNotes(knex: Knex, caseId: string): Promise<Array<{ review_id: string; action: string; actor: string; at: Date; details: Record<string, unknown> }>> {
  return knex('review_actions as a')
    .join('reviews as r', 'r.id', 'a.review_id')
    .where('r.case_id', caseId)
    .whereIn('a.action', ['annotate', 'feedback', 'decision'])
    .select('a.review_id', 'a.action', 'a.actor', 'a.at', 'a.details')
    .orderBy([{ column: 'a.at' }, { column: 'a.id' }]);
}

/** The investigations of a case: linked through case_links, or started for it (investigations.case_id). */
export async function caseScanIds(knex: Knex, caseId: string): Promise<string[]> {
  const rows = await knex
    .select('scan_id')
    .from('investigations')
    .where('case_id', caseId)
    .union((u) => u.select(knex.raw('target_id::uuid AS scan_id')).from('case_links').where({ case_id: caseId, target_type: 'investigation' }))
    .orderBy('scan_id');
  return rows.map((r: { scan_id: string }) => r.scan_id);
}
