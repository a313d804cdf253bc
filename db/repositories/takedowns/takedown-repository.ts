// Takedowns, their recipients (one row per takedown and address: the send marks it, so a recipient
// is mailed once) and their history. Also the cached RDAP answers.
import type { Knex } from 'knex';
import type { SiteStatus } from '../../../domain/takedowns/site-status';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export type { SiteStatus };
export type TakedownStatus = 'draft' | 'approved' | 'sending' | 'sent';
export type RecipientRole = 'hosting' | 'registrar' | 'other';

export interface TakedownRow {
  id: string;
  scan_id: string;
  url: string;
  domain: string;
  status: TakedownStatus;
  created_by: string;
  approved_by: string | null;
  approved_at: Date | null;
  sent_by: string | null;
  sent_at: Date | null;
  xarf: Record<string, unknown>;
  summary: string;
  site_status: SiteStatus;
  checked_at: Date | null;
  baseline: { status?: number; sha256?: string };
  reinvestigation_scan_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface RecipientRow {
  id: string;
  takedown_id: string;
  role: RecipientRole;
  email: string;
  source: string;
  organization: string | null;
  sent_at: Date | null;
  message_id: string | null;
  attempts: number;
  last_error: string | null;
}

export interface TakedownEventRow {
  id: string;
  takedown_id: string;
  kind: string;
  actor: string;
  site_status: SiteStatus | null;
  detail: Record<string, unknown>;
  at: Date;
}

export interface NewTakedown {
  scanId: string;
  url: string;
  domain: string;
  createdBy: string;
  xarf: Record<string, unknown>;
  summary: string;
  baseline: Record<string, unknown>;
  recipients: Array<{ role: RecipientRole; email: string; source: string; organization: string | null }>;
}

export async function insertTakedown(trx: Knex.Transaction, t: NewTakedown): Promise<TakedownRow> {
  const [row] = (await trx('takedowns')
    .insert({ scan_id: t.scanId, url: t.url, domain: t.domain, created_by: t.createdBy, xarf: JSON.stringify(t.xarf), summary: t.summary, baseline: JSON.stringify(t.baseline) })
    .returning('*')) as TakedownRow[];
  if (t.recipients.length) {
    await trx('takedown_recipients')
      .insert(t.recipients.map((r) => ({ takedown_id: row.id, role: r.role, email: r.email, source: r.source, organization: r.organization })))
      .onConflict(['takedown_id', 'email'])
      .ignore();
  }
  return row;
}

export async function findTakedown(knex: Knex | Knex.Transaction, id: string, forUpdate = false): Promise<TakedownRow | undefined> {
  const q = knex('takedowns').where({ id }).first();
  if (forUpdate) q.forUpdate();
  return (await q) as TakedownRow | undefined;
}

export async function updateTakedown(knex: Knex | Knex.Transaction, id: string, patch: Partial<Omit<TakedownRow, 'id' | 'baseline'>>): Promise<void> {
  await knex('takedowns').where({ id }).update({ ...patch, updated_at: knex.fn.now() });
}

export async function listRecipients(knex: Knex | Knex.Transaction, takedownId: string): Promise<RecipientRow[]> {
  return (await knex('takedown_recipients').where({ takedown_id: takedownId }).orderBy([{ column: 'role' }, { column: 'email' }])) as RecipientRow[];
}

export async function findRecipient(knex: Knex, id: string): Promise<RecipientRow | undefined> {
  return (await knex('takedown_recipients').where({ id }).first()) as RecipientRow | undefined;
}

/** Marks a recipient mailed once: false when it already was (a retried send). */
export async function markRecipientSent(knex: Knex, id: string, messageId: string): Promise<boolean> {
  const n = await knex('takedown_recipients').where({ id }).whereNull('sent_at').update({ sent_at: knex.fn.now(), message_id: messageId });
  return n > 0;
}

export async function recordRecipientFailure(knex: Knex, id: string, error: string): Promise<void> {
  await knex('takedown_recipients').where({ id }).update({ attempts: knex.raw('attempts + 1'), last_error: error.slice(0, 500) });
}

export async function appendTakedownEvent(
  knex: Knex | Knex.Transaction,
  e: { takedownId: string; kind: string; actor: string; siteStatus?: SiteStatus | null; detail?: Record<string, unknown> },
): Promise<void> {
  await knex('takedown_events').insert({ takedown_id: e.takedownId, kind: e.kind, actor: e.actor, site_status: e.siteStatus ?? null, detail: JSON.stringify(e.detail ?? {}) });
}

export async function listTakedownEvents(knex: Knex, takedownId: string): Promise<TakedownEventRow[]> {
  return (await knex('takedown_events').where({ takedown_id: takedownId }).orderBy([{ column: 'at' }, { column: 'id' }])) as TakedownEventRow[];
}

export interface TakedownFilter {
  status?: TakedownStatus;
  siteStatus?: SiteStatus;
  scanId?: string;
  limit: number;
  after?: Keyset;
}

export async function listTakedowns(knex: Knex, f: TakedownFilter): Promise<KeysetPage<TakedownRow>> {
  const q = knex('takedowns as t').select('t.*');
  if (f.status) q.where('t.status', f.status);
  if (f.siteStatus) q.where('t.site_status', f.siteStatus);
  if (f.scanId) q.where('t.scan_id', f.scanId);
  return keysetPage<TakedownRow>(knex, q, { tsColumn: 't.created_at', idColumn: 't.id', limit: f.limit, after: f.after });
}

/** Sent takedowns whose site was not yet seen down (the daily watch). */
export async function watchedTakedownIds(knex: Knex, limit: number): Promise<string[]> {
  const rows = (await knex('takedowns').where({ status: 'sent' }).whereNot('site_status', 'down').orderByRaw('checked_at NULLS FIRST').limit(limit).select('id')) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}

/** Sent takedowns of any of these scans. */
export async function sentTakedownsOfScans(knex: Knex, scanIds: readonly string[]): Promise<TakedownRow[]> {
  if (scanIds.length === 0) return [];
  return (await knex('takedowns').whereIn('scan_id', scanIds).where({ status: 'sent' })) as TakedownRow[];
}

export async function readRdapCache(knex: Knex, query: string, maxAgeHours: number): Promise<{ server: string; answer: Record<string, unknown>; fetched_at: Date } | undefined> {
  if (maxAgeHours <= 0) return undefined;
  return (await knex('rdap_cache')
    .where({ query })
    .where('fetched_at', '>', knex.raw("now() - make_interval(hours => ?)", [maxAgeHours]))
    .first()) as { server: string; answer: Record<string, unknown>; fetched_at: Date } | undefined;
}

export async function writeRdapCache(knex: Knex, query: string, server: string, answer: Record<string, unknown>): Promise<void> {
  await knex('rdap_cache')
    .insert({ query, server, answer: JSON.stringify(answer), fetched_at: knex.fn.now() })
    .onConflict('query')
    .merge(['server', 'answer', 'fetched_at']);
}
