// Evidence of a scan handed on, as use cases: each download of an ended scan's evidence records one
// custody entry and one audit event (who, what, why) before its last byte leaves.
//   downloadEvidenceBundle       the signed WACZ evidence bundle, streamed (./evidence-bundle.ts)
//   downloadInvestigationReport  the investigation PDF with its SHA-256 (./investigation-report-pdf.ts)
//   downloadLeaPackage           the signed package for a law-enforcement agency, streamed (./lea-package.ts)
// 404 for an unknown scan, 409 for one that has not ended, 503 when the PDF renderer (Chromium) is
// missing. Offline verification of a package is ./evidence-verification.ts (`fip evidence verify`).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { ChromiumUnavailableError } from '../../infra/chromium';
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
