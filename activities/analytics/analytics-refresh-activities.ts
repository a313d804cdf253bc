// The analytics refresh as a Temporal activity (heartbeating while the views refresh).
import type { Knex } from 'knex';
import { refreshAnalytics, type AnalyticsRefreshResult } from '../../services/analytics/analytics-refresh';
import { withHeartbeat } from '../../infra/activity-heartbeat';

export function createAnalyticsRefreshActivities(deps: { knex: Knex }) {
  return {
    async refreshAnalyticsViews(): Promise<AnalyticsRefreshResult> {
      return withHeartbeat(() => refreshAnalytics(deps.knex));
    },
  };
}
