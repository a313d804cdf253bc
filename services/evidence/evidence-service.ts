// Evidence of a scan handed on, as use cases: each download of an ended scan's evidence records one
// custody entry and one audit event (who, what, why) before its last byte leaves.
//   downloadEvidenceBundle       the signed WACZ evidence bundle, streamed (./evidence-bundle.ts)
//   downloadInvestigationReport  the investigation PDF with its SHA-256 (./investigation-report-pdf.ts)
//   downloadLeaPackage           the signed package for a law-enforcement agency, streamed (./lea-package.ts)
// 404 for an unknown scan, 409 for one that has not ended, 503 when the PDF renderer (Chromium) is
// missing. publishedSigningKeys: the public signing keys and their fingerprints. Offline verification of a package is ./evidence-verification.ts (`fip evidence verify`).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import type { AppConfig } from '../../config/config';
import { ChromiumUnavailableError } from '../../infra/chromium';
import { evidenceKeyringFor } from '../../infra/evidence-keyring';
import { ServiceUnavailableError } from '../errors';
import { evidenceBundleStream, type EvidenceDeps, type Handling } from './evidence-bundle';
import { investigationReportPdf } from './investigation-report-pdf';
import { leaPackageStream } from './lea-package';

/** Who downloads which artifact and why: the custody entry and audit event of one download. */
function downloadHandling(principal: Principal | null, artifact: string, purpose: string | undefined): Handling {
  return { actor: principalName(principal), action: 'download', artifact, purpose: purpose ?? 'download' };
}

function rendererUnavailable(err: unknown): never {
  if (err instanceof ChromiumUnavailableError) throw new ServiceUnavailableError('the PDF renderer (Chromium) is not available on this server');
  throw err;
}

/** `purpose`: why the evidence is taken (the custody and audit logs); absent: `download`. */
export async function downloadEvidenceBundle(
  deps: EvidenceDeps,
  principal: Principal | null,
  scanId: string,
  purpose: string | undefined,
): Promise<{ stream: Readable; filename: string }> {
  const bundle = await evidenceBundleStream(deps, scanId, downloadHandling(principal, 'evidence-bundle', purpose));
  return { stream: bundle.stream, filename: bundle.filename };
}

export async function downloadInvestigationReport(
  deps: EvidenceDeps,
  principal: Principal | null,
  scanId: string,
  purpose: string | undefined,
): Promise<{ pdf: Buffer; filename: string; sha256: string }> {
  const { pdf, filename } = await investigationReportPdf(deps, scanId, downloadHandling(principal, 'report.pdf', purpose)).catch(rendererUnavailable);
  return { pdf, filename, sha256: createHash('sha256').update(pdf).digest('hex') };
}

export async function downloadLeaPackage(
  deps: EvidenceDeps,
  principal: Principal | null,
  scanId: string,
  purpose: string | undefined,
): Promise<{ stream: Readable; filename: string }> {
  return leaPackageStream(deps, scanId, downloadHandling(principal, 'lea-package', purpose)).catch(rendererUnavailable);
}

export interface PublishedSigningKey {
  key_id: string;
  /** SHA-256 (hex) of the SPKI DER: what a recipient compares with the key enclosed in a package. */
  fingerprint: string;
  algorithm: string;
  active: boolean;
  created_at: string | null;
  retired_at: string | null;
  /** SPKI PEM. */
  public_key: string;
}

/**
 * The platform's evidence signing keys, public halves only (GET /evidence/signing-keys): the active
 * key first, then those kept to verify older packages.
 */
export function publishedSigningKeys(config: AppConfig): PublishedSigningKey[] {
  return evidenceKeyringFor(config)
    .list()
    .sort((a, b) => Number(b.active) - Number(a.active) || String(b.created_at ?? '').localeCompare(String(a.created_at ?? '')))
    .map((k) => ({ key_id: k.key_id, fingerprint: k.fingerprint, algorithm: k.algorithm, active: k.active, created_at: k.created_at, retired_at: k.retired_at, public_key: k.public_key }));
}

/** The active signing key's id and fingerprint (shown on LEA referrals, for the agency to compare). */
export function activeSigningKey(config: AppConfig): { key_id: string; fingerprint: string; algorithm: string } {
  const active = publishedSigningKeys(config)[0]!;
  return { key_id: active.key_id, fingerprint: active.fingerprint, algorithm: active.algorithm };
}
