// Alert use cases (the API's /alerts*, the watch evaluation, and other features):
// - raiseAlert: an alert for an event no watch rule sees (a kit seen on a new domain, say): to the
//   owners of the watchlists on the related targets, each through their channels, or, when nobody
//   watches them, to everyone holding `fallbackRole` (listed at GET /alerts; no e-mail or webhook)
// - listAlerts: the caller's alerts (their own and their roles'), newest first, with filters
// - acknowledgeAlert: marks one of the caller's alerts acknowledged (once; audited)
// - alertDeliveryLog: an alert's deliveries and every attempt of each
import type { Knex } from 'knex';
import {
  acknowledgeAlert as ackRow,
  attemptsOf,
  deliveriesOf,
  findAlert,
  insertAlert,
  listAlerts as listAlertRows,
  type AlertRow,
  type AttemptRow,
  type DeliveryChannel,
  type DeliveryRow,
} from '../../db/repositories/alerts/alert-repository';
import { watchlistsOnTargets, type WatchlistRow } from '../../db/repositories/alerts/watchlist-repository';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import type { Principal, Role } from '../../domain/accounts/roles';
import type { WatchTargetKind } from '../../domain/alerts/watch-rules';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { ForbiddenError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { AlertRow, AttemptRow, DeliveryRow } from '../../db/repositories/alerts/alert-repository';

export interface RaisedAlert {
  kind: string;
  title: string;
  detail?: Record<string, unknown>;
  /** Raised once per recipient and key (a retried caller raises nothing twice). */
  dedupeKey: string;
  /** What the event concerns: watchers of any of these are alerted. */
  targets?: Array<{ kind: WatchTargetKind; id: string }>;
  /** Who is alerted when nobody watches the targets; default `analyst`. */
  fallbackRole?: Role;
}

export function deliveryChannels(w: Pick<WatchlistRow, 'owner' | 'email' | 'webhook_url'>): Array<{ channel: DeliveryChannel; target: string }> {
  const out: Array<{ channel: DeliveryChannel; target: string }> = [];
  if (w.email) out.push({ channel: 'email', target: w.owner });
  if (w.webhook_url) out.push({ channel: 'webhook', target: w.webhook_url });
  return out;
}

/** Raises the alert; answers the alerts created (none when every recipient already had it). */
export async function raiseAlert(deps: Pick<ServiceDeps, 'knex'>, event: RaisedAlert): Promise<AlertRow[]> {
  const watchers = await watchlistsOnTargets(deps.knex, event.targets ?? []);
  return deps.knex.transaction(async (trx) => {
    const created: AlertRow[] = [];
    const base = { kind: event.kind, title: event.title.slice(0, 500), detail: event.detail ?? {} };
    if (watchers.length === 0) {
      const row = await insertAlert(trx, { ...base, watchlist_id: null, recipient: `role:${event.fallbackRole ?? 'analyst'}`, dedupe_key: event.dedupeKey }, []);
      if (row) created.push(row);
      return created;
    }
    for (const w of watchers) {
      const row = await insertAlert(trx, { ...base, watchlist_id: w.id, recipient: w.owner, dedupe_key: `${w.id}:${event.dedupeKey}` }, deliveryChannels(w));
      if (row) created.push(row);
    }
    return created;
  });
}

function alertCaller(principal: Principal | null): { email: string; recipients: string[] } {
  if (!principal || principal.kind !== 'user') throw new ForbiddenError('alerts belong to people');
  return { email: principal.email, recipients: [principal.email, ...principal.roles.map((r) => `role:${r}`)] };
}

export async function listAlerts(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  f: { kind?: string; watchlistId?: string; acknowledged?: boolean; limit: number; after?: Keyset },
): Promise<KeysetPage<AlertRow & { deliveries: DeliveryRow[] }>> {
  const c = alertCaller(principal);
  const page = await listAlertRows(deps.knex, { ...f, recipients: c.recipients });
  const deliveries = await deliveriesOf(deps.knex, page.rows.map((r) => r.id));
  return { rows: page.rows.map((r) => ({ ...r, deliveries: deliveries.filter((d) => d.alert_id === r.id) })), next: page.next };
}

async function ownAlert(knex: Knex, id: string, recipients: string[]): Promise<AlertRow> {
  const alert = await findAlert(knex, id);
  if (!alert || !recipients.includes(alert.recipient)) throw new NotFoundError(`no alert ${id}`);
  return alert;
}

export async function acknowledgeAlert(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string): Promise<AlertRow & { deliveries: DeliveryRow[] }> {
  const c = alertCaller(principal);
  return deps.knex.transaction(async (trx) => {
    const before = await ownAlert(trx as unknown as Knex, id, c.recipients);
    const row = await ackRow(trx, id, c.email);
    if (!before.acknowledged_at) await recordAuditEvent(trx, { actor: c.email, action: 'alert.acknowledge', target_type: 'alert', target_id: id, details: { kind: row.kind } });
    return { ...row, deliveries: await deliveriesOf(trx as unknown as Knex, [id]) };
  });
}

export async function alertDeliveryLog(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string): Promise<Array<DeliveryRow & { attempts_log: AttemptRow[] }>> {
  const c = alertCaller(principal);
  await ownAlert(deps.knex, id, c.recipients);
  const deliveries = await deliveriesOf(deps.knex, [id]);
  const attempts = await attemptsOf(deps.knex, deliveries.map((d) => d.id));
  return deliveries.map((d) => ({ ...d, attempts_log: attempts.filter((a) => a.delivery_id === d.id) }));
}
