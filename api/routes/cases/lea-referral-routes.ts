// LEA referrals: one per case, created as a draft (or by a refer_to_lea decision) and moved by the
// status machine draft → submitted → acknowledged → closed (domain/cases/lea-referral-states.ts).
// The use cases are in services/cases/lea-referral-service.ts.
import type { z } from 'zod';
import { getLeaReferral, saveLeaReferral } from '../../../services/cases/lea-referral-service';
import { activeSigningKey } from '../../../services/evidence/evidence-service';
import { defineRoute } from '../../route-definition';
import { CaseIdParam, LeaReferralBodySchema, LeaReferralSchema, referralView } from './case-schemas';
import { ErrorSchema } from '../../common-schemas';
import { CASE_READERS, CASE_WRITERS } from './case-routes';

export const leaReferralRoutes = [
  defineRoute<z.infer<typeof CaseIdParam>, Record<string, never>, z.infer<typeof LeaReferralBodySchema>>({
    method: 'post',
    path: '/cases/{case_id}/lea-referral',
    summary: 'Create (status draft) or update the case\'s LEA referral; a status change follows draft → submitted → acknowledged → closed',
    tags: ['cases'],
    access: { roles: CASE_WRITERS },
    request: { params: CaseIdParam, body: LeaReferralBodySchema },
    responses: {
      200: { description: 'The referral as updated, with its status history', schema: LeaReferralSchema },
      201: { description: 'The referral as created, with its status history', schema: LeaReferralSchema },
      404: { description: 'No such case', schema: ErrorSchema },
      409: { description: 'The status machine does not allow this move; details name the allowed statuses', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const saved = await saveLeaReferral(deps, principal, params.case_id, body);
      return { status: saved.created ? 201 : 200, body: referralView(saved.referral, saved.events, activeSigningKey(deps.config)) };
    },
  }),
  defineRoute<z.infer<typeof CaseIdParam>>({
    method: 'get',
    path: '/cases/{case_id}/lea-referral',
    summary: 'The case\'s LEA referral with its status history',
    tags: ['cases'],
    access: { roles: CASE_READERS },
    request: { params: CaseIdParam },
    responses: {
      200: { description: 'The referral', schema: LeaReferralSchema },
      404: { description: 'No such case, or the case has no referral', schema: ErrorSchema },
    },
    handler: async ({ params, principal, deps }) => {
      const found = await getLeaReferral(deps, principal, params.case_id);
      return { body: referralView(found.referral, found.events, activeSigningKey(deps.config)) };
    },
  }),
];
