// Request and response schemas of /takedowns.
import { z } from 'zod';
import type { RecipientRow, TakedownDetail, TakedownEventRow, TakedownRow } from '../../../services/takedowns/takedown-service';
import { EmailAddressSchema } from '../../common-schemas';
import { pageQueryShape } from '../../pagination';

const ROLES = ['hosting', 'registrar', 'other'] as const;
const STATUSES = ['draft', 'approved', 'sending', 'sent'] as const;
const SITE_STATUSES = ['up', 'down', 'changed', 'unknown'] as const;

export const TakedownInputSchema = z
  .strictObject({
    scan_id: z.string().uuid().describe('a completed investigation'),
    recipients: z
      .array(z.strictObject({ email: EmailAddressSchema, role: z.enum(ROLES).default('other') }))
      .max(20)
      .optional()
      .describe('recipients besides the abuse contacts RDAP names (role `other` unless given)'),
  })
  .meta({ id: 'TakedownInput' });

export const TakedownListQuery = z.object({
  status: z.enum(STATUSES).optional(),
  site_status: z.enum(SITE_STATUSES).optional(),
  scan_id: z.string().uuid().optional(),
  ...pageQueryShape,
});

const RecipientSchema = z
  .object({
    id: z.string().uuid(),
    role: z.enum(ROLES),
    email: z.string(),
    source: z.string().describe('`rdap:<server>` for an abuse contact RDAP named, `analyst:<who>` for one named at creation'),
    organization: z.string().nullable(),
    sent_at: z.string().nullable(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
  })
  .meta({ id: 'TakedownRecipient' });

const EventSchema = z
  .object({
    kind: z.string().describe('created, approved, send_requested, sent, send_incomplete, check'),
    actor: z.string(),
    site_status: z.enum(SITE_STATUSES).nullable(),
    detail: z.record(z.string(), z.unknown()),
    at: z.string(),
  })
  .meta({ id: 'TakedownEvent' });

const takedownShape = {
  id: z.string().uuid(),
  scan_id: z.string().uuid(),
  url: z.string(),
  domain: z.string(),
  status: z.enum(STATUSES),
  site_status: z.enum(SITE_STATUSES),
  checked_at: z.string().nullable(),
  created_by: z.string(),
  approved_by: z.string().nullable(),
  approved_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  reinvestigation_scan_id: z.string().uuid().nullable().describe('the investigation started when the site changed after the report'),
  created_at: z.string(),
};

export const TakedownSummarySchema = z.object(takedownShape).meta({ id: 'TakedownSummary' });

export const TakedownSchema = z
  .object({
    ...takedownShape,
    xarf: z.record(z.string(), z.unknown()).describe('the XARF v4 report (category content, type fraud or phishing), valid against the pinned xarf-spec schema'),
    text: z.string().describe('the mail\'s human-readable text'),
    recipients: z.array(RecipientSchema),
    history: z.array(EventSchema),
  })
  .meta({ id: 'Takedown' });

export const TakedownSendSchema = z
  .object({ task_id: z.string(), kind: z.literal('takedown-send'), status_url: z.string(), takedown: TakedownSchema })
  .meta({ id: 'TakedownSend' });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function takedownSummaryView(t: TakedownRow): z.infer<typeof TakedownSummarySchema> {
  return {
    id: t.id, scan_id: t.scan_id, url: t.url, domain: t.domain, status: t.status, site_status: t.site_status, checked_at: iso(t.checked_at), created_by: t.created_by,
    approved_by: t.approved_by, approved_at: iso(t.approved_at), sent_at: iso(t.sent_at), reinvestigation_scan_id: t.reinvestigation_scan_id, created_at: t.created_at.toISOString(),
  };
}

const recipientView = (r: RecipientRow) => ({
  id: r.id, role: r.role, email: r.email, source: r.source, organization: r.organization, sent_at: iso(r.sent_at), attempts: r.attempts, last_error: r.last_error,
});
const eventView = (e: TakedownEventRow) => ({ kind: e.kind, actor: e.actor, site_status: e.site_status, detail: e.detail, at: e.at.toISOString() });

export function takedownView(t: TakedownDetail): z.infer<typeof TakedownSchema> {
  return { ...takedownSummaryView(t), xarf: t.xarf, text: t.summary, recipients: t.recipients.map(recipientView), history: t.history.map(eventView) };
}
