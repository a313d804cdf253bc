// Request and response schemas of /watchlists and /alerts.
import { z } from 'zod';
import type { AlertRow, AttemptRow, DeliveryRow } from '../../../services/alerts/alert-service';
import type { WatchlistRow } from '../../../services/alerts/watchlist-service';
import { WATCH_TARGET_KINDS } from '../../../domain/alerts/watch-rules';
import { storedText } from '../../common-schemas';
import { pageQueryShape } from '../../pagination';

export const WatchRuleSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('new_sightings') }).describe('the target was sighted again (a saved search: it matches more records)'),
    z.object({ kind: z.literal('new_linked_sites') }).describe('more URL or domain entities are linked to it'),
    z
      .object({ kind: z.literal('loss_threshold'), currency: z.string().regex(/^[A-Z0-9]{2,10}$/, 'a currency code such as EUR or USDT'), amount: z.number().positive().max(1e15) })
      .describe('the reported loss in that currency reached the amount (alerts once)'),
    z.object({ kind: z.literal('risk_change'), min_delta: z.number().int().min(1).max(100).default(10) }).describe('the risk score moved by min_delta points or more'),
  ])
  .meta({ id: 'WatchRule' });

const WatchNameSchema = storedText(200).trim().min(1).describe('unique per owner, case-insensitively');
const WebhookUrlSchema = storedText(2000).describe('http(s) URL that receives signed POSTs (X-FIP-Signature: sha256=<HMAC-SHA256 of the body>)');

export const WatchlistInputSchema = z
  .strictObject({
    name: WatchNameSchema,
    target: z.strictObject({ kind: z.enum(WATCH_TARGET_KINDS), id: z.string().uuid() }),
    rules: z.array(WatchRuleSchema).min(1).max(20),
    email: z.boolean().default(true).describe('e-mail the alerts to you (default true)'),
    webhook_url: WebhookUrlSchema.nullable().optional(),
  })
  .meta({ id: 'WatchlistInput' });

export const WatchlistPatchSchema = z
  .strictObject({
    name: WatchNameSchema.optional(),
    rules: z.array(WatchRuleSchema).min(1).max(20).optional(),
    email: z.boolean().optional(),
    webhook_url: WebhookUrlSchema.nullable().optional().describe('a new URL gets a new secret (answered once); null removes the webhook'),
  })
  .meta({ id: 'WatchlistPatch' });

export const WatchlistSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    owner: z.string(),
    target: z.object({ kind: z.enum(WATCH_TARGET_KINDS), id: z.string().uuid() }),
    rules: z.array(WatchRuleSchema),
    email: z.boolean(),
    webhook_url: z.string().nullable(),
    webhook_secret: z.string().optional().describe('only in the answer that created it: keep it, it is never shown again'),
    evaluated_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Watchlist' });

export function watchlistView(w: WatchlistRow, secret: string | null = null): z.infer<typeof WatchlistSchema> {
  return {
    id: w.id,
    name: w.name,
    owner: w.owner,
    target: { kind: w.target_kind, id: w.target_id },
    rules: w.rules,
    email: w.email,
    webhook_url: w.webhook_url,
    ...(secret ? { webhook_secret: secret } : {}),
    evaluated_at: w.evaluated_at ? w.evaluated_at.toISOString() : null,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

export const WatchlistListQuery = z.object(pageQueryShape);

export const AlertListQuery = z.object({
  kind: z.string().max(100).optional().describe('only alerts of this kind (a rule kind, or an event kind such as kit_on_new_domain)'),
  watchlist_id: z.string().uuid().optional(),
  acknowledged: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')),
  ...pageQueryShape,
});

const DeliverySchema = z
  .object({
    id: z.string().uuid(),
    channel: z.enum(['email', 'webhook']),
    target: z.string(),
    status: z.enum(['pending', 'sent', 'failed', 'skipped']),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable().describe('when a pending delivery is next tried'),
    last_error: z.string().nullable(),
    delivered_at: z.string().nullable(),
  })
  .meta({ id: 'AlertDelivery' });

export const AlertSchema = z
  .object({
    id: z.string().uuid(),
    kind: z.string(),
    title: z.string(),
    detail: z.record(z.string(), z.unknown()),
    watchlist_id: z.string().uuid().nullable(),
    recipient: z.string().describe('your e-mail, or role:<role> for alerts raised to a role'),
    created_at: z.string(),
    acknowledged_at: z.string().nullable(),
    acknowledged_by: z.string().nullable(),
    deliveries: z.array(DeliverySchema),
  })
  .meta({ id: 'Alert' });

function deliveryView(d: DeliveryRow): z.infer<typeof DeliverySchema> {
  return {
    id: d.id,
    channel: d.channel,
    target: d.target,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? d.next_attempt_at.toISOString() : null,
    last_error: d.last_error,
    delivered_at: d.delivered_at ? d.delivered_at.toISOString() : null,
  };
}

export function alertView(a: AlertRow & { deliveries: DeliveryRow[] }): z.infer<typeof AlertSchema> {
  return {
    id: a.id,
    kind: a.kind,
    title: a.title,
    detail: a.detail,
    watchlist_id: a.watchlist_id,
    recipient: a.recipient,
    created_at: a.created_at.toISOString(),
    acknowledged_at: a.acknowledged_at ? a.acknowledged_at.toISOString() : null,
    acknowledged_by: a.acknowledged_by,
    deliveries: a.deliveries.map(deliveryView),
  };
}

export const DeliveryLogSchema = z
  .object({
    items: z.array(
      DeliverySchema.extend({
        attempts_log: z.array(z.object({ attempt: z.number().int(), at: z.string(), outcome: z.enum(['sent', 'retry', 'failed', 'skipped']), status_code: z.number().int().nullable(), error: z.string().nullable() })),
      }),
    ),
  })
  .meta({ id: 'AlertDeliveryLog' });

export function deliveryLogView(rows: Array<DeliveryRow & { attempts_log: AttemptRow[] }>): z.infer<typeof DeliveryLogSchema> {
  return {
    items: rows.map((d) => ({
      ...deliveryView(d),
      attempts_log: d.attempts_log.map((a) => ({ attempt: a.attempt, at: a.at.toISOString(), outcome: a.outcome as 'sent', status_code: a.status_code, error: a.error })),
    })),
  };
}
