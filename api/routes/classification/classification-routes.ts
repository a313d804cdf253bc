// Analysts' corrections of the automatic classification (services/classification/): audited, shown
// from then on, never overwritten by a later automatic run; the automatic prediction is kept for the
// accuracy figure of GET /intelligence/dashboard.
import type { z } from 'zod';
import { correctClassification } from '../../../services/classification/classification-service';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { ScanParam } from '../investigations/investigation-schemas';
import { ClassificationSchema, CorrectionSchema, type CorrectionT } from './classification-schemas';

const ANALYSTS = { roles: ['analyst'] } as const;
const responses = (what: string) => ({
  200: { description: 'The classification as corrected', schema: ClassificationSchema },
  404: { description: `No such ${what}`, schema: ErrorSchema },
});

export const classificationRoutes = [
  defineRoute<{ scan_id: string }, Record<string, never>, CorrectionT>({
    method: 'put',
    path: '/investigations/ssi/{scan_id}/classification',
    summary: "Correct an investigation's place in the scam taxonomy (analysts; audited; wins over later automatic runs)",
    tags: ['investigations'],
    access: ANALYSTS,
    request: { params: ScanParam, body: CorrectionSchema },
    responses: responses('investigation'),
    handler: async ({ params, body, principal, deps }) => ({ body: await correctClassification(deps, principal, 'investigation', params.scan_id, body) }),
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, CorrectionT>({
    method: 'put',
    path: '/intakes/{id}/classification',
    summary: "Correct an intake's place in the scam taxonomy (analysts; audited; wins over later automatic runs)",
    tags: ['intakes'],
    access: ANALYSTS,
    request: { params: UuidParam, body: CorrectionSchema },
    responses: responses('intake'),
    handler: async ({ params, body, principal, deps }) => ({ body: await correctClassification(deps, principal, 'intake', params.id, body) }),
  }),
];
