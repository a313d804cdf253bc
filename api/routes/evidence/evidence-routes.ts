// Evidence of a scan that can be handed on: the signed WACZ evidence bundle, the investigation PDF
// and the LEA package. Every download records a custody entry and an audit event (actor, purpose):
// the use cases are services/evidence/evidence-service.ts; the schemas ./evidence-schemas.ts.
import { downloadEvidenceBundle, downloadInvestigationReport, downloadLeaPackage, publishedSigningKeys } from '../../../services/evidence/evidence-service';
import { defineRoute } from '../../route-definition';
import { ErrorSchema } from '../../common-schemas';
import { PurposeQuery, ScanParam, SigningKeyListSchema, type PurposeQueryT } from './evidence-schemas';

// Reviewers judge findings in the review queue; handing evidence on is for analysts and admins.
const READ = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] } as const;

const NOT_READY = { description: 'The investigation has not ended yet (queued or running)', schema: ErrorSchema };
const NOT_FOUND = { description: 'No such investigation', schema: ErrorSchema };

export const evidenceRoutes = [
  // Public: public keys are meant to be known; whoever receives a package compares the fingerprint of
  // the key it encloses with these (better still, with one received through another channel).
  defineRoute({
    method: 'get',
    path: '/evidence/signing-keys',
    summary:
      'The public keys that sign evidence bundles, LEA packages and dossiers, with their SHA-256 fingerprints (of the SPKI DER): the active ' +
      'ECDSA P-384 key first, then retired ones kept so older packages still verify. Public: no secrets, and recipients need them',
    tags: ['investigations'],
    access: { public: true },
    responses: { 200: { description: 'The signing keys', schema: SigningKeyListSchema } },
    handler: async ({ deps }) => ({ body: { items: publishedSigningKeys(deps.config) } }),
  }),
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
      const bundle = await downloadEvidenceBundle(deps, principal, params.scan_id, query.purpose);
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
      const report = await downloadInvestigationReport(deps, principal, params.scan_id, query.purpose);
      ctx.type = 'application/pdf';
      ctx.attachment(report.filename);
      ctx.set('X-Content-SHA256', report.sha256);
      return { body: report.pdf };
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
      const pkg = await downloadLeaPackage(deps, principal, params.scan_id, query.purpose);
      ctx.type = 'application/zip';
      ctx.attachment(pkg.filename);
      return { body: pkg.stream };
    },
  }),
];
