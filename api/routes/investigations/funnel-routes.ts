// An investigation's funnel, from outside: the persona mail it received (downloads, evidence) and
// the human in the loop (the pending question, the reply, the question's screenshot). The use cases
// are services/investigations/persona-mail-service.ts and guidance-service.ts.
import { openPersonaMail } from '../../../services/investigations/persona-mail-service';
import { openGuidanceScreenshot, pendingGuidance, replyToGuidanceRequest } from '../../../services/investigations/guidance-service';
import { ErrorSchema } from '../../common-schemas';
import { defineRoute } from '../../route-definition';
import { PurposeQuery, type PurposeQueryT } from '../evidence/evidence-schemas';
import { GuidanceReplyAcceptedSchema, GuidanceReplySchema, GuidanceRequestSchema, GuidanceScreenshotParam, MailParam, type GuidanceReplyT } from './funnel-schemas';
import { ScanParam } from './investigation-schemas';

/** Analysts, and services that may start investigations (they answer their own scans' questions). */
const GUIDES = { roles: ['admin', 'analyst'], scopes: ['investigations:write'] } as const;
/** A persona's mail is evidence for analysts only. */
const ANALYSTS = { roles: ['admin', 'analyst'] } as const;

export const funnelRoutes = [
  defineRoute<{ scan_id: string; mail_id: string }, PurposeQueryT>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/mail/{mail_id}',
    summary: 'Download a mail a persona of this investigation received (the raw message, .eml), streamed; X-Content-SHA256 is its hash on receipt; `purpose` goes into the chain of custody',
    tags: ['investigations'],
    access: ANALYSTS,
    request: { params: MailParam, query: PurposeQuery },
    responses: {
      200: { description: 'The message', contentType: 'message/rfc822' },
      404: { description: 'No such investigation or mail', schema: ErrorSchema },
    },
    handler: async ({ params, query, principal, deps, ctx }) => {
      const file = await openPersonaMail(deps, principal, params.scan_id, params.mail_id, query.purpose);
      ctx.type = 'message/rfc822';
      ctx.length = Number(file.mail.size_bytes);
      ctx.attachment(`ssi-${params.scan_id}-mail-${file.seq}.eml`);
      ctx.set('X-Content-SHA256', file.mail.sha256);
      return { body: file.stream };
    },
  }),
  defineRoute<{ scan_id: string }>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/guidance',
    summary: 'The question the investigation waits on (state AWAITING_GUIDANCE): kind, question, screenshot, the field the answer goes into',
    tags: ['investigations'],
    access: GUIDES,
    request: { params: ScanParam },
    responses: {
      200: { description: 'The pending question', schema: GuidanceRequestSchema },
      404: { description: 'No such investigation, or nothing pending', schema: ErrorSchema },
    },
    handler: async ({ params, deps }) => ({ body: await pendingGuidance(deps, params.scan_id) }),
  }),
  defineRoute<{ scan_id: string }, Record<string, never>, GuidanceReplyT>({
    method: 'post',
    path: '/investigations/ssi/{scan_id}/guidance',
    summary: 'Answer the pending question (`{request_id, answer}`: typed into its field, the investigation goes on) or abort it (`{request_id, action: "abort"}`). The answer is sealed in the vault and never logged',
    tags: ['investigations'],
    access: GUIDES,
    request: { params: ScanParam, body: GuidanceReplySchema },
    responses: {
      202: { description: 'Accepted: the investigation was told', schema: GuidanceReplyAcceptedSchema },
      400: { description: 'Invalid input (field paths in details)', schema: ErrorSchema },
      404: { description: 'No such investigation or request', schema: ErrorSchema },
      409: { description: 'The request is not pending any more (answered, aborted, expired), or the investigation has ended', schema: ErrorSchema },
    },
    handler: async ({ params, body, principal, deps }) => ({ status: 202, body: await replyToGuidanceRequest(deps, principal, params.scan_id, body) }),
  }),
  defineRoute<{ scan_id: string; request_id: string }>({
    method: 'get',
    path: '/investigations/ssi/{scan_id}/guidance/{request_id}/screenshot',
    summary: 'The screenshot of a guidance question (PNG): the page as the agent saw it when it asked',
    tags: ['investigations'],
    access: GUIDES,
    request: { params: GuidanceScreenshotParam },
    responses: {
      200: { description: 'The screenshot', contentType: 'image/png' },
      404: { description: 'No such request, or it has no screenshot', schema: ErrorSchema },
    },
    handler: async ({ params, principal, deps, ctx }) => {
      const stream = await openGuidanceScreenshot(deps, principal, params.scan_id, params.request_id);
      ctx.type = 'image/png';
      ctx.set('Cache-Control', 'no-store');
      return { body: stream };
    },
  }),
];
