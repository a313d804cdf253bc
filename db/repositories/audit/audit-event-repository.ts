// The audit log: who did what to which record, when and why (contact decrypts, exports, decisions).
// Append-only. Every feature records through recordAuditEvent, inside its own transaction when the
// action and its audit row must commit together.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface AuditEventInput {
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  purpose?: string | null;
  details?: Record<string, unknown>;
}

export interface AuditEventRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  purpose: string | null;
  details: Record<string, unknown>;
}

export async function recordAuditEvent(knex: Knex | Knex.Transaction, event: AuditEventInput): Promise<AuditEventRow> {
  const [row] = await knex('audit_events')
    .insert({
      id: randomUUID(),
      actor: event.actor,
      action: event.action,
      target_type: event.target_type,
      target_id: event.target_id,
      purpose: event.purpose ?? null,
      details: JSON.stringify(event.details ?? {}),
    })
    .returning('*');
  return row as AuditEventRow;
}

export interface AuditEventFilter {
  actor?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  since?: Date;
  until?: Date;
  limit: number;
  after?: Keyset;
}

/** Newest first, keyset-paginated. */
export async function listAuditEvents(knex: Knex, f: AuditEventFilter): Promise<KeysetPage<AuditEventRow>> {
  const q = knex('audit_events').select('*');
  if (f.actor) q.where('actor', f.actor);
  if (f.action) q.where('action', f.action);
  if (f.target_type) q.where('target_type', f.target_type);
  if (f.target_id) q.where('target_id', f.target_id);
  if (f.since) q.where('at', '>=', f.since);
  if (f.until) q.where('at', '<', f.until);
  return keysetPage<AuditEventRow>(knex, q, { tsColumn: 'at', idColumn: 'id', limit: f.limit, after: f.after });
}
