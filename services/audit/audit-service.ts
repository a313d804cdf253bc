// The audit log's use case (every feature records its events through recordAuditEvent of
// db/repositories/audit/audit-event-repository.ts, inside its own transaction where the action and
// its audit row must commit together):
// - listAuditLog: the audit events, newest first, filtered and keyset-paginated (admins), their
//   purposes and details through the caller's masking policy (an admin sees bank details masked)
import { listAuditEvents, type AuditEventRow } from '../../db/repositories/audit/audit-event-repository';
import type { Principal } from '../../domain/accounts/roles';
import { maskingFor } from '../../domain/masking/masking-policy';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import type { ServiceDeps } from '../service-deps';

export type { AuditEventRow } from '../../db/repositories/audit/audit-event-repository';

export interface AuditLogQuery {
  /** An empty filter value filters nothing. */
  actor?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  /** ISO 8601: events at or after it. */
  since?: string;
  /** ISO 8601: events before it. */
  until?: string;
  limit: number;
  cursor?: Keyset;
}

export async function listAuditLog(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, query: AuditLogQuery): Promise<KeysetPage<AuditEventRow>> {
  const policy = maskingFor(principal);
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
  return { ...page, rows: page.rows.map((e) => ({ ...e, purpose: policy.text(e.purpose), details: policy.json(e.details) })) };
}
