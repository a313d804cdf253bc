// The audit log (admins): who did what to which record, when and why.
import { z } from 'zod';
import { listAuditEvents } from '../../../db/repositories/audit/audit-event-repository';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';

const AuditEventSchema = z
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

export const auditRoutes = [
  defineRoute<Record<string, never>, { actor?: string; action?: string; target_type?: string; target_id?: string; since?: string; until?: string; limit: number; cursor?: { ts: string; id: string } }>({
    method: 'get',
    path: '/audit/events',
    summary: 'The audit log, newest first (admins)',
    tags: ['audit'],
    access: { roles: ['admin'] },
    request: {
      query: z.object({
        actor: z.string().max(320).optional(),
        action: z.string().max(100).optional(),
        target_type: z.string().max(100).optional(),
        target_id: z.string().max(200).optional(),
        since: z.iso.datetime({ offset: true }).optional(),
        until: z.iso.datetime({ offset: true }).optional(),
        ...pageQueryShape,
      }),
    },
    responses: { 200: { description: 'A page of audit events', schema: pageSchema(AuditEventSchema, 'AuditEventPage') } },
    handler: async ({ query, deps }) => {
      const page = await listAuditEvents(deps.knex, {
        actor: query.actor || undefined,
        action: query.action || undefined,
        target_type: query.target_type || undefined,
        target_id: query.target_id || undefined,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
        limit: query.limit,
        after: query.cursor,
      });
      return {
        body: {
          items: page.rows.map((r) => ({ ...r, at: r.at.toISOString(), details: r.details ?? {} })),
          next_cursor: encodeCursor(page.next),
        },
      };
    },
  }),
];
