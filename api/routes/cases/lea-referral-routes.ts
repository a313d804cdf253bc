// LEA referrals: one per case, created as a draft (or by a refer_to_lea decision) and moved by the
// status machine draft → submitted → acknowledged → closed (domain/cases/lea-referral-states.ts).
import { z } from 'zod';
import { findReferral, saveReferral } from '../../../db/repositories/cases/lea-referral-repository';
import { LEA_REFERRAL_STATUSES } from '../../../domain/cases/lea-referral-states';
import { ConflictError, NotFoundError } from '../../errors';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';
import { LeaReferralSchema, referralView, storedText } from './case-schemas';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { CASE_READERS, CASE_WRITERS } from './case-routes';

const ReferralBodySchema = z
  .object({
    agency: storedText(300).trim().min(1).describe('the law-enforcement agency'),
    jurisdiction: storedText(200).trim().min(1),
    contact: storedText(500).trim().min(1).describe('the agency\'s contact (officer, desk, e-mail or phone)'),
    reference: storedText(200).trim().nullable().optional().describe('the agency\'s reference number; omitted keeps the stored one'),
    status: z.enum(LEA_REFERRAL_STATUSES).describe('draft to create; then submitted, acknowledged, closed (README: LEA referrals)'),
  })
  .strict();

export const leaReferralRoutes = [
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof ReferralBodySchema>>({
    method: 'post',
    path: '/cases/{id}/lea-referral',
    summary: 'Create (status draft) or update the case\'s LEA referral; a status change follows draft → submitted → acknowledged → closed',
    tags: ['cases'],
    access: { roles: CASE_WRITERS },
    request: { params: UuidParam, body: ReferralBodySchema },
    responses: {
      200: { description: 'The referral as updated, with its status history', schema: LeaReferralSchema },
      201: { description: 'The referral as created, with its status history', schema: LeaReferralSchema },
      404: { description: 'No such case', schema: ErrorSchema },
      409: { description: 'The status machine does not allow this move; details name the allowed statuses', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const result = await saveReferral(deps.knex, params.id, body, principalName(principal));
      if (!result.ok && result.reason === 'case_not_found') throw new NotFoundError(`no case ${params.id}`);
      if (!result.ok) {
        const allowed = result.allowed.length ? result.allowed.join(', ') : 'none (closed is final)';
        const from = result.from ? `a ${result.from} referral` : 'a new referral';
        throw new ConflictError(`${from} cannot become ${result.to}; allowed: ${allowed}`, { from: result.from, to: result.to, allowed: result.allowed });
      }
      const saved = await findReferral(deps.knex, params.id);
      if (!saved) throw new NotFoundError(`no LEA referral for case ${params.id}`);
      return { status: result.created ? 201 : 200, body: referralView(saved.referral, saved.events) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path: '/cases/{id}/lea-referral',
    summary: 'The case\'s LEA referral with its status history',
    tags: ['cases'],
    access: { roles: CASE_READERS },
    request: { params: UuidParam },
    responses: {
      200: { description: 'The referral', schema: LeaReferralSchema },
      404: { description: 'No such case, or the case has no referral', schema: ErrorSchema },
    },
    handler: async ({ params, deps }) => {
      const found = await findReferral(deps.knex, params.id);
      if (!found) throw new NotFoundError(`case ${params.id} has no LEA referral (or does not exist)`);
      return { body: referralView(found.referral, found.events) };
    },
  }),
];
