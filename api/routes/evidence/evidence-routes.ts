// Evidence of a scan that can be handed on: the signed WACZ evidence bundle, the investigation PDF
// and the LEA package. Every download records a custody entry and an audit event (actor, purpose).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Principal } from '../../../domain/accounts/roles';
import { EvidenceNotFoundError, EvidenceNotReadyError, evidenceBundleStream, type Handling } from '../../../services/evidence/evidence-bundle';
import { ChromiumUnavailableError } from '../../../infra/chromium';
import { investigationReportPdf } from '../../../services/evidence/investigation-report-pdf';
import { leaPackageStream } from '../../../services/evidence/lea-package';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../../errors';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';

// Reviewers judge findings in the review queue; handing evidence on is for analysts and admins.
const READ = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] } as const;

const ScanParam = z.object({ scan_id: z.string().uuid() });
const PurposeQuery = z.object({
  purpose: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), 'printable text (no control characters)')
    .optional()
    .describe('why the evidence is taken (written to the custody log and the audit log); default `download`'),
});
type PurposeQueryT = z.infer<typeof PurposeQuery>;

const NOT_READY = { description: 'The investigation has not ended yet (queued or running)', schema: ErrorSchema };
const NOT_FOUND = { description: 'No such investigation', schema: ErrorSchema };

function mapEvidenceError(err: unknown): never {
  if (err instanceof EvidenceNotFoundError) throw new NotFoundError(err.message);
  if (err instanceof EvidenceNotReadyError) throw new ConflictError(err.message);
  if (err instanceof ChromiumUnavailableError) throw new ServiceUnavailableError('the PDF renderer (Chromium) is not available on this server');
  throw err;
}

export const evidenceRoutes = [
  defineRoute<{ scan_id: string }, PurposeQueryT>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/evidence-bundle',
    summary:
      'The signed evidence bundle of an ended scan: a WACZ 1.1.1 ZIP (WARC records, CDXJ index, pages, screenshots, DOM snapshots, HARs, ' +
      'provenance, chain of custody, datapackage.json + signed datapackage-digest.json), streamed; verify with `npx fip evidence verify`',
    tags: ['investigations'],
    access: READ,
    request: { params: ScanParam, query: PurposeQuery },
    responses: {
      200: { description: 'The WACZ file', contentType: 'application/zip' },
      404: NOT_FOUND,
      409: NOT_READY,
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const bundle = await evidenceBundleStream(deps, params.scan_id, downloadHandling(principal, 'evidence-bundle', query)).catch(mapEvidenceError);
      ctx.type = 'application/zip';
      ctx.attachment(bundle.filename);
      return { body: bundle.stream };
    },
  }),
  defineRoute<{ scan_id: string }, PurposeQueryT>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/report.pdf',
    summary:
      'The investigation report of an ended scan as a PDF rendered by Chromium: summary, target and final URL, redirect chain, a screenshot per page, ' +
      'wallet table, PII found, the agent timeline, artifact hashes and the signing key id',
    tags: ['investigations'],
    access: READ,
    request: { params: ScanParam, query: PurposeQuery },
    responses: {
      200: { description: 'The PDF; X-Content-SHA256 carries its hash', contentType: 'application/pdf' },
      404: NOT_FOUND,
      409: NOT_READY,
      503: { description: 'Chromium is not available on this server', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const { pdf, filename } = await investigationReportPdf(deps, params.scan_id, downloadHandling(principal, 'report.pdf', query)).catch(mapEvidenceError);
      ctx.type = 'application/pdf';
      ctx.attachment(filename);
      ctx.set('X-Content-SHA256', createHash('sha256').update(pdf).digest('hex'));
      return { body: pdf };
    },
  }),
  defineRoute<{ scan_id: string }, PurposeQueryT>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/lea-package',
    summary:
      'The package for a law-enforcement agency (a signed ZIP, streamed): the PDF report, the evidence bundle, wallets as CSV and XLSX, the custody log, ' +
      'the signature manifest, the public key, SHA256SUMS and VERIFY.txt (how to check it with `npx fip evidence verify`, sha256sum and openssl)',
    tags: ['investigations'],
    access: READ,
    request: { params: ScanParam, query: PurposeQuery },
    responses: {
      200: { description: 'The ZIP file', contentType: 'application/zip' },
      404: NOT_FOUND,
      409: NOT_READY,
      503: { description: 'Chromium is not available on this server', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const pkg = await leaPackageStream(deps, params.scan_id, downloadHandling(principal, 'lea-package', query)).catch(mapEvidenceError);
      ctx.type = 'application/zip';
      ctx.attachment(pkg.filename);
      return { body: pkg.stream };
    },
  }),
];

/** Who downloads which artifact and why: the custody entry and audit event of one download. */
function downloadHandling(principal: Principal | null, artifact: string, query: PurposeQueryT): Handling {
  return { actor: principalName(principal), action: 'download', artifact, purpose: query.purpose ?? 'download' };
}
