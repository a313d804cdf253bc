// The audit log (admins): who did what to which record, when and why (services/audit/audit-service.ts).
import type { z } from 'zod';
import { listAuditLog } from '../../../services/audit/audit-service';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { AuditEventQuery, AuditEventSchema } from './audit-schemas';

export const auditRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof AuditEventQuery>>({
    method: 'get',
    path: '/audit/events',
    summary: 'The audit log, newest first (admins)',
    tags: ['audit'],
    access: { roles: ['admin'] },
    request: { query: AuditEventQuery },
    responses: { 200: { description: 'A page of audit events', schema: pageSchema(AuditEventSchema, 'AuditEventPage') } },
    handler: async ({ query, principal, deps }) => {
      const page = await listAuditLog(deps, principal, query);
      return {
        body: {
          items: page.rows.map((r) => ({ ...r, at: r.at.toISOString(), details: r.details ?? {} })),
          next_cursor: encodeCursor(page.next),
        },
      };
    },
  }),
];
