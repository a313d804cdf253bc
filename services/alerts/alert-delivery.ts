// Delivers due alerts: e-mail to the watcher (the platform's SMTP settings, SVC_SMTP__*) and a
// signed webhook (domain/alerts/webhook-signature.ts) to the watchlist's URL, which must pass the
// egress policy (domain/investigations/egress-policy.ts; private addresses only through
// SVC_ALERTS__WEBHOOK_ALLOW_PRIVATE_TARGETS) and is connected to the checked address (DNS
// rebinding). A failed attempt is logged and retried after SVC_ALERTS__RETRY_BASE_SECONDS, doubling,
// until SVC_ALERTS__WEBHOOK_MAX_ATTEMPTS, then marked failed. A 2xx answer is a success; an egress
// refusal fails at once (retrying cannot help).
import nodemailer, { type Transporter } from 'nodemailer';
import { claimDueDeliveries, recordAttempt, type AlertRow, type DeliveryRow } from '../../db/repositories/alerts/alert-repository';
import { findWatchlist } from '../../db/repositories/alerts/watchlist-repository';
import { retryDelaySeconds } from '../../domain/alerts/watch-rules';
import { SIGNATURE_HEADER, signWebhookBody } from '../../domain/alerts/webhook-signature';
import { checkUrl } from '../../domain/investigations/egress-policy';
import { createDnsResolver } from '../../infra/crawler/dns-resolver';
import { pinnedRequest } from '../../infra/crawler/pinned-http';
import type { ServiceDeps } from '../service-deps';
import { openWebhookSecret } from './webhook-secret-store';

export interface AlertDeliveryResult {
  sent: number;
  retrying: number;
  failed: number;
  skipped: number;
}

type Outcome = { status: 'sent' | 'failed' | 'skipped' | 'retry'; statusCode?: number; error?: string };

/** The JSON body a webhook receives (signed as sent). */
export function webhookBody(alert: AlertRow, deliveryId: string, sentAt: Date): string {
  return JSON.stringify({
    delivery_id: deliveryId,
    sent_at: sentAt.toISOString(),
    alert: { id: alert.id, kind: alert.kind, title: alert.title, detail: alert.detail, watchlist_id: alert.watchlist_id, created_at: alert.created_at.toISOString() },
  });
}

export function createAlertDelivery(deps: Pick<ServiceDeps, 'knex' | 'config' | 'log'>) {
  const settings = deps.config.alerts;
  const resolve = createDnsResolver();
  let transporter: Transporter | null = null;

  async function email(d: DeliveryRow & { alert: AlertRow }): Promise<Outcome> {
    if (!deps.config.smtp.url) return { status: 'skipped', error: 'SVC_SMTP__URL is not set' };
    transporter ??= nodemailer.createTransport(deps.config.smtp.url);
    try {
      await transporter.sendMail({
        from: deps.config.smtp.from,
        to: d.target,
        subject: `[FIP alert] ${d.alert.title}`,
        text: `${d.alert.title}\n\nKind: ${d.alert.kind}\nRaised: ${d.alert.created_at.toISOString()}\nDetails: ${JSON.stringify(d.alert.detail, null, 2)}\n\nAlert id ${d.alert.id}; acknowledge it in the console (Alerts) or with POST /alerts/${d.alert.id}/acknowledge.\n`,
        messageId: `<alert-${d.alert.id}@fip.local>`,
      });
      return { status: 'sent' };
    } catch (err) {
      return { status: 'retry', error: err instanceof Error ? err.message : String(err) };
    }
  }

  async function webhook(d: DeliveryRow & { alert: AlertRow }): Promise<Outcome> {
    const watchlist = d.alert.watchlist_id ? await findWatchlist(deps.knex, d.alert.watchlist_id) : undefined;
    // A watchlist made before secrets were sealed still carries its secret in its row.
    const secret = watchlist?.webhook_url ? ((await openWebhookSecret(deps.knex, deps.config, watchlist.id)) ?? watchlist.webhook_secret) : null;
    if (!watchlist?.webhook_url || !secret) return { status: 'skipped', error: 'the watchlist has no webhook any more' };
    const verdict = await checkUrl(watchlist.webhook_url, { allow: settings.webhook_allow_private_targets, resolve, webSockets: false });
    if (!verdict.allowed) return { status: 'failed', error: `egress policy: ${verdict.reason}` };
    const body = webhookBody(d.alert, d.id, new Date());
    try {
      const res = await pinnedRequest({
        url: verdict.url,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'fip-alerts/1',
          [SIGNATURE_HEADER]: signWebhookBody(secret, body),
          'X-FIP-Delivery': d.id,
          'content-length': String(Buffer.byteLength(body)),
        },
        body: Buffer.from(body),
        address: verdict.addresses[0],
        timeoutMs: settings.webhook_timeout_seconds * 1000,
        maxBodyBytes: 4096,
        verifyTls: true,
      });
      if (res.status >= 200 && res.status < 300) return { status: 'sent', statusCode: res.status };
      return { status: 'retry', statusCode: res.status, error: `HTTP ${res.status}` };
    } catch (err) {
      return { status: 'retry', error: err instanceof Error ? err.message : String(err) };
    }
  }

  /** One pass over the due deliveries (at most `limit`). */
  return async function deliverDueAlerts(limit = 100): Promise<AlertDeliveryResult> {
    const result: AlertDeliveryResult = { sent: 0, retrying: 0, failed: 0, skipped: 0 };
    const due = await claimDueDeliveries(deps.knex, limit, settings.webhook_timeout_seconds * 3 + 60);
    for (const d of due) {
      const outcome = d.channel === 'email' ? await email(d) : await webhook(d);
      const attempts = d.attempts + 1;
      let status: DeliveryRow['status'] = outcome.status === 'retry' ? 'pending' : outcome.status;
      if (status === 'pending' && attempts >= settings.webhook_max_attempts) status = 'failed';
      await recordAttempt(deps.knex, d, { status, statusCode: outcome.statusCode ?? null, error: outcome.error?.slice(0, 500) ?? null, retryInSeconds: status === 'pending' ? retryDelaySeconds(settings.retry_base_seconds, attempts) : 0 });
      if (status === 'sent') result.sent++;
      else if (status === 'pending') result.retrying++;
      else if (status === 'failed') result.failed++;
      else result.skipped++;
      if (status !== 'sent') deps.log.warn({ alert_id: d.alert.id, channel: d.channel, attempts, status, error: outcome.error }, 'alert delivery not done');
    }
    return result;
  };
}
