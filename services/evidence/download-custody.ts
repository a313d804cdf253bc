// The chain of custody of single-file downloads (a page's screenshot, DOM or HAR; a dossier's
// artifact or the whole dossier): one custody entry per download, written in the request before
// the first byte leaves, in one transaction with the download's audit event, so a download that
// the client breaks off is still on record. Packages built and hashed as they stream (evidence
// bundle, LEA package, PDF) record theirs with the hashes they compute (./evidence-bundle.ts).
import type { Knex } from 'knex';
import { recordAuditEvent, type AuditEventInput } from '../../db/repositories/audit/audit-event-repository';
import { appendCustodyEntry } from '../../db/repositories/evidence/evidence-custody-repository';
import { prefixedSha256 } from '../../domain/evidence/package-manifest';
import { sha256OfKey } from '../../infra/blob-store';

export interface DownloadedFile {
  /** Its name in the custody entry (a package path or an artifact name). */
  path: string;
  /** The SHA-256 recorded when it was captured or collected. */
  sha256: string;
  /** The content-addressed blob it is served from (its key names the hash of the bytes stored); null for bytes held in the database. */
  blobKey: string | null;
}

export interface DownloadCustody {
  subjectKind: 'investigation' | 'dossier';
  subjectId: string;
  actor: string;
  artifact: string;
  purpose: string;
  files: readonly DownloadedFile[];
  audit: Omit<AuditEventInput, 'actor' | 'purpose'>;
}

/**
 * Writes the custody entry and the audit event of one download. `verified`: every file's recorded
 * hash is the hash its content-addressed blob was stored under (the bytes served are the bytes
 * captured); the files are not re-read for it.
 */
export async function recordDownloadCustody(knex: Knex, d: DownloadCustody): Promise<void> {
  const hashes: Record<string, string> = {};
  const mismatches: string[] = [];
  for (const f of d.files) {
    hashes[f.path] = prefixedSha256(f.sha256);
    if (f.blobKey && prefixedSha256(sha256OfKey(f.blobKey)) !== hashes[f.path]) mismatches.push(f.path);
  }
  await knex.transaction(async (trx) => {
    await appendCustodyEntry(trx, {
      subjectKind: d.subjectKind, subjectId: d.subjectId, actor: d.actor, action: 'download', artifact: d.artifact, purpose: d.purpose,
      hashes, verified: mismatches.length === 0, details: { check: 'recorded hash against the content-addressed blob', ...(mismatches.length ? { mismatches } : {}) },
    });
    await recordAuditEvent(trx, { ...d.audit, actor: d.actor, purpose: d.purpose });
  });
}
