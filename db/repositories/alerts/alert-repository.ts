// Alerts, their deliveries (one per channel) and the delivery log (one row per attempt). An alert is
// raised once per recipient and dedupe key, so a retried evaluation raises nothing twice.
import type { Knex } from 'knex';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface AlertRow {
  id: string;
  watchlist_id: string | null;
  recipient: string;
  kind: string;
  dedupe_key: string;
  title: string;
  detail: Record<string, unknown>;
  created_at: Date;
  acknowledged_at: Date | null;
  acknowledged_by: string | null;
}

export type DeliveryChannel = 'email' | 'webhook';
export type DeliveryStatus = 'pending' | 'sent' | 'failed' | 'skipped';

export interface DeliveryRow {
  id: string;
  alert_id: string;
  channel: DeliveryChannel;
  target: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  attempt: number;
  at: Date;
  outcome: string;
  status_code: number | null;
  error: string | null;
}

export type NewAlert = Pick<AlertRow, 'watchlist_id' | 'recipient' | 'kind' | 'dedupe_key' | 'title' | 'detail'>;

/** The new alert, or null when this recipient already has one with that dedupe key. */
export async function insertAlert(knex: Knex | Knex.Transaction, a: NewAlert, deliveries: Array<{ channel: DeliveryChannel; target: string }>): Promise<AlertRow | null> {
  const [row] = (await knex('alerts')
    .insert({ ...a, detail: JSON.stringify(a.detail) })
    .onConflict(['recipient', 'dedupe_key'])
    .ignore()
    .returning('*')) as AlertRow[];
  if (!row) return null;
  if (deliveries.length > 0) {
    await knex('alert_deliveries')
      .insert(deliveries.map((d) => ({ alert_id: row.id, channel: d.channel, target: d.target })))
      .onConflict(['alert_id', 'channel'])
      .ignore();
  }
  return row;
}

export interface AlertFilter {
  recipients: string[];
  kind?: string;
  watchlistId?: string;
  acknowledged?: boolean;
  limit: number;
  after?: Keyset;
}

export async function listAlerts(knex: Knex, f: AlertFilter): Promise<KeysetPage<AlertRow>> {
  const q = knex('alerts as a').select('a.*').whereIn('a.recipient', f.recipients);
  if (f.kind) q.where('a.kind', f.kind);
  if (f.watchlistId) q.where('a.watchlist_id', f.watchlistId);
  if (f.acknowledged === true) q.whereNotNull('a.acknowledged_at');
  if (f.acknowledged === false) q.whereNull('a.acknowledged_at');
  return keysetPage<AlertRow>(knex, q, { tsColumn: 'a.created_at', idColumn: 'a.id', limit: f.limit, after: f.after });
}

export async function findAlert(knex: Knex | Knex.Transaction, id: string): Promise<AlertRow | undefined> {
  return (await knex('alerts').where({ id }).first()) as AlertRow | undefined;
}

/** Acknowledges once: a second acknowledgement keeps the first one's time and person. */
export async function acknowledgeAlert(knex: Knex | Knex.Transaction, id: string, by: string): Promise<AlertRow> {
  await knex('alerts').where({ id }).whereNull('acknowledged_at').update({ acknowledged_at: knex.fn.now(), acknowledged_by: by });
  return (await findAlert(knex, id))!;
}

/**
 * Takes up to `limit` due pending deliveries for one attempt each: their next attempt is pushed a
 * lease ahead, so a concurrent sender skips them (and takes them over if this one dies).
 */
export async function claimDueDeliveries(knex: Knex, limit: number, leaseSeconds: number): Promise<Array<DeliveryRow & { alert: AlertRow }>> {
  const claimed = (await knex.raw(
    `UPDATE alert_deliveries SET next_attempt_at = now() + make_interval(secs => ?)
      WHERE id IN (SELECT id FROM alert_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
                    ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED)
      RETURNING *`,
    [leaseSeconds, limit],
  )) as { rows: DeliveryRow[] };
  if (claimed.rows.length === 0) return [];
  const alerts = (await knex('alerts').whereIn('id', claimed.rows.map((d) => d.alert_id))) as AlertRow[];
  const byId = new Map(alerts.map((a) => [a.id, a]));
  return claimed.rows.filter((d) => byId.has(d.alert_id)).map((d) => ({ ...d, alert: byId.get(d.alert_id)! }));
}

export async function recordAttempt(
  knex: Knex,
  d: Pick<DeliveryRow, 'id' | 'attempts'>,
  outcome: { status: DeliveryStatus; statusCode?: number | null; error?: string | null; retryInSeconds?: number },
): Promise<void> {
  await knex.transaction(async (trx) => {
    const attempt = d.attempts + 1;
    await trx('alert_delivery_attempts')
      .insert({ delivery_id: d.id, attempt, outcome: outcome.status === 'pending' ? 'retry' : outcome.status, status_code: outcome.statusCode ?? null, error: outcome.error ?? null })
      .onConflict(['delivery_id', 'attempt'])
      .ignore();
    await trx('alert_deliveries')
      .where({ id: d.id, attempts: d.attempts })
      .update({
        attempts: attempt,
        status: outcome.status,
        last_error: outcome.error ?? null,
        delivered_at: outcome.status === 'sent' ? trx.fn.now() : null,
        next_attempt_at: trx.raw('now() + make_interval(secs => ?)', [outcome.retryInSeconds ?? 0]),
      });
  });
}

export async function deliveriesOf(knex: Knex, alertIds: string[]): Promise<DeliveryRow[]> {
  if (alertIds.length === 0) return [];
  return (await knex('alert_deliveries').whereIn('alert_id', alertIds).orderBy(['alert_id', 'channel'])) as DeliveryRow[];
}

export async function attemptsOf(knex: Knex, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return (await knex('alert_delivery_attempts').whereIn('delivery_id', deliveryIds).orderBy(['delivery_id', 'attempt'])) as AttemptRow[];
}
