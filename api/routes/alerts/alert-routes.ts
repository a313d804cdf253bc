// Alerts: the caller's (raised by their watchlists, or to one of their roles), acknowledging one,
// and an alert's delivery log. Use cases: services/alerts/alert-service.ts; docs/alerts.md.
import type { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import { maskingFor } from '../../../domain/masking/masking-policy';
import { acknowledgeAlert, alertDeliveryLog, listAlerts } from '../../../services/alerts/alert-service';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { AlertListQuery, AlertSchema, alertView, DeliveryLogSchema, deliveryLogView } from './alert-schemas';
import { ALERT_ROLES } from './watchlist-routes';

const notFound = { 404: { description: 'No such alert of yours', schema: ErrorSchema } };

export const alertRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof AlertListQuery> & { cursor?: Keyset }>({
    method: 'get',
    path: '/alerts',
    summary: 'Your alerts (your watchlists\' and your roles\'), newest first; filters: kind, watchlist_id, acknowledged',
    tags: ['alerts'],
    access: { roles: ALERT_ROLES },
    request: { query: AlertListQuery },
    responses: { 200: { description: 'A page of alerts', schema: pageSchema(AlertSchema, 'AlertPage') } },
    handler: async ({ query, principal, deps }) => {
      const page = await listAlerts(deps, principal, { kind: query.kind, watchlistId: query.watchlist_id, acknowledged: query.acknowledged, limit: query.limit, after: query.cursor });
      // Titles and details name the watched target: masked for the caller like every answer.
      const masking = maskingFor(principal);
      return { body: { items: page.rows.map((a) => masking.json(alertView(a))), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'post',
    path: '/alerts/{id}/acknowledge',
    summary: 'Acknowledge one of your alerts (audited; a second acknowledgement changes nothing)',
    tags: ['alerts'],
    access: { roles: ALERT_ROLES },
    request: { params: UuidParam },
    responses: { 200: { description: 'The alert', schema: AlertSchema }, ...notFound },
    handler: async ({ params, principal, deps }) => ({ body: maskingFor(principal).json(alertView(await acknowledgeAlert(deps, principal, params.id))) }),
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path: '/alerts/{id}/deliveries',
    summary: 'The delivery log of one of your alerts: each channel\'s status and every attempt',
    tags: ['alerts'],
    access: { roles: ALERT_ROLES },
    request: { params: UuidParam },
    responses: { 200: { description: 'Deliveries and their attempts', schema: DeliveryLogSchema }, ...notFound },
    handler: async ({ params, principal, deps }) => ({ body: maskingFor(principal).json(deliveryLogView(await alertDeliveryLog(deps, principal, params.id))) }),
  }),
];
