// Evidence of a scan that can be handed on: the signed WACZ evidence bundle, the investigation PDF
// and the LEA package. Every download records a custody entry and an audit event (actor, purpose).
import { z } from 'zod';
import { EvidenceNotFoundError, EvidenceNotReadyError, evidenceBundleStream } from '../../services/evidence-bundle';
import { ConflictError, NotFoundError } from '../errors';
import { principalName } from '../principal-name';
import { defineRoute } from '../route-definition';
import { ErrorSchema } from '../schemas/common';

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
      const bundle = await evidenceBundleStream(deps, params.scan_id, {
        actor: principalName(principal), action: 'download', artifact: 'evidence-bundle', purpose: query.purpose ?? 'download',
      }).catch(mapEvidenceError);
      ctx.type = 'application/zip';
      ctx.attachment(bundle.filename);
      return { body: bundle.stream };
    },
  }),
];
