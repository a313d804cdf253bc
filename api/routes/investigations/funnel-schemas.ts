// The request and response schemas of an investigation's funnel routes: its persona mail
// (download) and the human in the loop (/investigations/ssi/{scan_id}/guidance).
import { z } from 'zod';
import { GUIDANCE_KINDS } from '../../../domain/investigations/funnel';

export const MailParam = z.object({ scan_id: z.string().uuid(), mail_id: z.string().uuid() });
export const GuidanceScreenshotParam = z.object({ scan_id: z.string().uuid(), request_id: z.string().uuid() });

export const MailSummarySchema = z
  .object({
    id: z.string().uuid(),
    from: z.string(),
    subject: z.string(),
    received_at: z.string().describe('ISO 8601 UTC'),
    sha256: z.string().describe('SHA-256 of the raw message as received'),
    download_path: z.string(),
  })
  .meta({ id: 'PersonaMail' });

export const GuidanceRequestSchema = z
  .object({
    request_id: z.string().uuid(),
    kind: z.enum(GUIDANCE_KINDS),
    question: z.string(),
    screenshot_url: z.string().describe('GET it (same access) for the page as the agent saw it'),
    field: z.string().optional().describe('The field the answer is typed into'),
  })
  .meta({ id: 'GuidanceRequest' });

export const GuidanceReplySchema = z
  .union([
    z.strictObject({ request_id: z.string().uuid(), answer: z.string().min(1).max(500).describe('typed into the field the agent asked about; sealed in the vault, never logged') }),
    z.strictObject({ request_id: z.string().uuid(), action: z.literal('abort') }),
  ])
  .meta({ id: 'GuidanceReply', description: 'Either `{request_id, answer}` or `{request_id, action: "abort"}`' });
export type GuidanceReplyT = z.infer<typeof GuidanceReplySchema>;

export const GuidanceReplyAcceptedSchema = z
  .object({ request_id: z.string().uuid(), status: z.enum(['answered', 'aborted']) })
  .meta({ id: 'GuidanceReplyAccepted' });
