// The watchlist alerts as Temporal activities: evaluate every watchlist's rules (alerts are raised
// once per dedupe key, so a retry raises nothing twice) and deliver the due alerts (each delivery
// claimed before it is attempted, each attempt logged).
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { withHeartbeat } from '../../infra/activity-heartbeat';
import type { Logger } from '../../infra/logger';
import { createAlertDelivery, type AlertDeliveryResult } from '../../services/alerts/alert-delivery';
import { evaluateWatchlists, type WatchEvaluationResult } from '../../services/alerts/watch-evaluation';

export type { AlertDeliveryResult, WatchEvaluationResult };

export function createWatchlistAlertActivities(deps: { knex: Knex; config: AppConfig; log: Logger }) {
  const deliver = createAlertDelivery(deps);
  return {
    async evaluateWatchlists(): Promise<WatchEvaluationResult> {
      return withHeartbeat(() => evaluateWatchlists(deps));
    },
    async deliverDueAlerts(): Promise<AlertDeliveryResult> {
      return withHeartbeat(() => deliver(100));
    },
  };
}
