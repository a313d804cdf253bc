// Takedowns: abuse reports about investigated sites (RDAP recipients, an XARF report), approved by a
// second person, sent once per recipient, and the site watched until it is down. Use cases:
// services/takedowns/*; docs/takedowns.md.
import type { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import { principalName } from '../../../domain/accounts/principal-name';
import { maskingFor } from '../../../domain/masking/masking-policy';
import { approveTakedown, createTakedown, getTakedown, listTakedowns, sendTakedown } from '../../../services/takedowns/takedown-service';
import { checkTakedownSite } from '../../../services/takedowns/takedown-watch';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { TakedownInputSchema, TakedownListQuery, TakedownSchema, TakedownSendSchema, TakedownSummarySchema, takedownSummaryView, takedownView } from './takedown-schemas';

/** People who work the cases: a takedown is approved by a second person, so no service key. */
const TAKEDOWN_ROLES = ['admin', 'analyst'] as const;
const notFound = { 404: { description: 'No such takedown', schema: ErrorSchema } };

export const takedownRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof TakedownInputSchema>>({
    method: 'post',
    path: '/takedowns',
    summary: 'Draft a takedown of a completed investigation\'s site: recipients from RDAP (registrar and hosting abuse contacts), an XARF v4 report validated against the pinned schema, and its text',
    tags: ['takedowns'],
    access: { roles: TAKEDOWN_ROLES },
    request: { body: TakedownInputSchema },
    responses: {
      201: { description: 'The draft', schema: TakedownSchema },
      404: { description: 'No such investigation', schema: ErrorSchema },
      409: { description: 'The investigation has not completed', schema: ErrorSchema },
    },
    handler: async ({ body, principal, deps }) => ({ status: 201, body: maskingFor(principal).json(takedownView(await createTakedown(deps, principal, body))) }),
  }),
  defineRoute<Record<string, never>, z.infer<typeof TakedownListQuery> & { cursor?: Keyset }>({
    method: 'get',
    path: '/takedowns',
    summary: 'Takedowns, newest first; filters: status (draft, approved, sending, sent), site_status (up, down, changed, unknown), scan_id',
    tags: ['takedowns'],
    access: { roles: TAKEDOWN_ROLES },
    request: { query: TakedownListQuery },
    responses: { 200: { description: 'A page of takedowns', schema: pageSchema(TakedownSummarySchema, 'TakedownPage') } },
    handler: async ({ query, principal, deps }) => {
      const page = await listTakedowns(deps, { status: query.status, siteStatus: query.site_status, scanId: query.scan_id, limit: query.limit, after: query.cursor });
      const masking = maskingFor(principal);
      return { body: { items: page.rows.map((t) => masking.json(takedownSummaryView(t))), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path: '/takedowns/{id}',
    summary: 'One takedown: its XARF report and text, recipients (each one\'s sending) and history (creation, approval, sending, every check of the site)',
    tags: ['takedowns'],
    access: { roles: TAKEDOWN_ROLES },
    request: { params: UuidParam },
    responses: { 200: { description: 'The takedown', schema: TakedownSchema }, ...notFound },
    handler: async ({ params, principal, deps }) => ({ body: maskingFor(principal).json(takedownView(await getTakedown(deps, params.id))) }),
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'post',
    path: '/takedowns/{id}/approve',
    summary: 'Approve a draft (audited); its creator cannot approve it (403), another analyst or admin does',
    tags: ['takedowns'],
    access: { roles: TAKEDOWN_ROLES },
    request: { params: UuidParam },
    responses: {
      200: { description: 'The approved takedown', schema: TakedownSchema },
      403: { description: 'You created it: another person approves it', schema: ErrorSchema },
      409: { description: 'Not a draft, or no recipients', schema: ErrorSchema },
      ...notFound,
    },
    handler: async ({ params, principal, deps }) => ({ body: maskingFor(principal).json(takedownView(await approveTakedown(deps, principal, params.id))) }),
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'post',
    path: '/takedowns/{id}/send',
    summary: 'Mail an approved takedown to each recipient with the XARF report attached (a workflow: retried, each recipient mailed once however often this is asked)',
    tags: ['takedowns'],
    access: { roles: TAKEDOWN_ROLES },
    request: { params: UuidParam },
    responses: {
      202: { description: 'The send task', schema: TakedownSendSchema },
      409: { description: 'Not approved yet', schema: ErrorSchema },
      ...notFound,
    },
    handler: async ({ params, principal, deps }) => {
      const { taskId, takedown } = await sendTakedown(deps, principal, params.id);
      return { status: 202, body: { task_id: taskId, kind: 'takedown-send' as const, status_url: `/tasks/${taskId}`, takedown: maskingFor(principal).json(takedownView(takedown)) } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'post',
    path: '/takedowns/{id}/check',
    summary: 'Check the site now through the egress policy: site_status up, down, changed (a sent takedown\'s changed site is investigated again) or unknown; a history row',
    tags: ['takedowns'],
    access: { roles: TAKEDOWN_ROLES },
    request: { params: UuidParam },
    responses: { 200: { description: 'The takedown after the check', schema: TakedownSchema }, ...notFound },
    handler: async ({ params, principal, deps }) => {
      await checkTakedownSite(deps, principalName(principal), params.id, true);
      return { body: maskingFor(principal).json(takedownView(await getTakedown(deps, params.id))) };
    },
  }),
];
