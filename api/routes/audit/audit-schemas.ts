// Request and response schemas of the audit log.
import { z } from 'zod';
import { pageQueryShape } from '../../pagination';

export const AuditEventQuery = z.object({
  actor: z.string().max(320).optional(),
  action: z.string().max(100).optional(),
  target_type: z.string().max(100).optional(),
  target_id: z.string().max(200).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  ...pageQueryShape,
});

export const AuditEventSchema = z
  .object({
    id: z.string().uuid(),
    at: z.string(),
    actor: z.string(),
    action: z.string().describe('e.g. intake.contact.read, intake.status'),
    target_type: z.string(),
    target_id: z.string(),
    purpose: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEvent' });
