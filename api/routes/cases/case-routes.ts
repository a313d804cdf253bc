// Cases: list, read (with links, entities, reviews, referral and loss totals), create, update.
// These routes are additions to the spec (which names GET /cases and GET /cases/{case_id}).
// The use cases are in services/cases/case-service.ts.
import type { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import { createCase, getCase, listCases, updateCase } from '../../../services/cases/case-service';
import { linkInvestigationToCase, unlinkInvestigationFromCase } from '../../../services/cases/case-investigation-service';
import { activeSigningKey } from '../../../services/evidence/evidence-service';
import { encodeCursor } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { CaseInvestigationLinkSchema, CaseScanParams, LinkInvestigationSchema } from './case-schemas';
import { CaseDetailSchema, CaseIdParam, CaseListQuery, CasePageSchema, CaseSchema, CreateCaseSchema, PatchCaseSchema, caseView, referralView } from './case-schemas';
import { reviewView } from '../reviews/review-schemas';
import { ErrorSchema } from '../../common-schemas';

/** Who may read cases, and who may create and change them. Researchers and service keys: none. */
export const CASE_READERS = ['admin', 'analyst', 'reviewer'] as const;
export const CASE_WRITERS = ['admin', 'analyst'] as const;

export const caseRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof CaseListQuery>>({
    method: 'get',
    path: '/cases',
    summary: 'List cases, newest first (filters: status, priority, assignee, campaign_id, q)',
    tags: ['cases'],
    access: { roles: CASE_READERS },
    request: { query: CaseListQuery },
    responses: { 200: { description: 'A page of cases', schema: CasePageSchema } },
    handler: async ({ query, principal, deps }) => {
      const page = await listCases(
        deps,
        principal,
        { status: query.status, priority: query.priority, assignee: query.assignee, campaign_id: query.campaign_id, q: query.q },
        { limit: query.limit, after: query.cursor as Keyset | undefined },
      );
      return { body: { items: page.rows.map(caseView), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof CaseIdParam>>({
    method: 'get',
    path: '/cases/{case_id}',
    summary: 'A case with its intakes, investigations, entities, reviews, LEA referral and total loss per currency',
    tags: ['cases'],
    access: { roles: CASE_READERS },
    request: { params: CaseIdParam },
    responses: { 200: { description: 'The case', schema: CaseDetailSchema }, 404: { description: 'No such case', schema: ErrorSchema } },
    handler: async ({ params, principal, deps }) => {
      const detail = await getCase(deps, principal, params.case_id);
      const linksOf = (type: string) =>
        detail.links.filter((l) => l.target_type === type).map((l) => ({ id: l.target_id, linked_by: l.linked_by, linked_at: l.linked_at.toISOString() }));
      return {
        body: {
          ...caseView(detail.case),
          intakes: linksOf('intake'),
          investigations: linksOf('investigation'),
          entities: detail.entities,
          reviews: detail.reviews.map(reviewView),
          referral: detail.referral ? referralView(detail.referral.referral, detail.referral.events, activeSigningKey(deps.config)) : null,
          total_loss: detail.totalLoss,
        },
      };
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof CreateCaseSchema>>({
    method: 'post',
    path: '/cases',
    summary: 'Create a case (status open)',
    tags: ['cases'],
    access: { roles: CASE_WRITERS },
    request: { body: CreateCaseSchema },
    responses: { 201: { description: 'The new case', schema: CaseSchema } },
    handler: async ({ body, principal, deps }) => ({ status: 201, body: caseView(await createCase(deps, principal, body)) }),
  }),
  defineRoute<z.infer<typeof CaseIdParam>, Record<string, never>, z.infer<typeof PatchCaseSchema>>({
    method: 'patch',
    path: '/cases/{case_id}',
    summary: 'Change a case: title, description, status (by the case status machine), priority, assignee, campaign, taxonomy, loss',
    tags: ['cases'],
    access: { roles: CASE_WRITERS },
    request: { params: CaseIdParam, body: PatchCaseSchema },
    responses: {
      200: { description: 'The case as changed', schema: CaseSchema },
      404: { description: 'No such case', schema: ErrorSchema },
      409: { description: 'The status machine does not allow this move; details name the allowed statuses', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => ({ body: caseView(await updateCase(deps, principal, params.case_id, body)) }),
  }),
  defineRoute<z.infer<typeof CaseIdParam>, Record<string, never>, z.infer<typeof LinkInvestigationSchema>>({
    method: 'post',
    path: '/cases/{case_id}/investigations',
    summary: 'Link an existing investigation to the case (it shows in the case\'s investigations, timeline and dossiers); audited',
    tags: ['cases'],
    access: { roles: CASE_WRITERS },
    request: { params: CaseIdParam, body: LinkInvestigationSchema },
    responses: {
      201: { description: 'Linked', schema: CaseInvestigationLinkSchema },
      404: { description: 'No such case or investigation', schema: ErrorSchema },
      409: { description: 'The investigation is already linked to this case (details: linked_by, linked_at)', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => {
      const link = await linkInvestigationToCase(deps, principal, { caseId: params.case_id, scanId: body.scan_id });
      return { status: 201, body: { case_id: link.case_id, scan_id: link.target_id, linked_by: link.linked_by, linked_at: link.linked_at.toISOString() } };
    },
  }),
  defineRoute<z.infer<typeof CaseScanParams>>({
    method: 'delete',
    path: '/cases/{case_id}/investigations/{scan_id}',
    summary: 'Unlink an investigation from the case (the investigation itself stays); audited',
    tags: ['cases'],
    access: { roles: CASE_WRITERS },
    request: { params: CaseScanParams },
    responses: {
      204: { description: 'Unlinked' },
      404: { description: 'No such case, or the investigation is not linked to it', schema: ErrorSchema },
    },
    handler: async ({ params, principal, deps }) => {
      await unlinkInvestigationFromCase(deps, principal, { caseId: params.case_id, scanId: params.scan_id });
      return { status: 204 };
    },
  }),
];
