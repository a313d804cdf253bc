// The dashboards catch up with a write within SVC_ANALYTICS__DASHBOARD_REFRESH_AFTER_WRITE_SECONDS
// plus one refresh: after a write to cases, intakes, reviews or referrals the API signals the
// refresher workflow of its task queue (signal-with-start: it starts when none runs), which
// debounces the writes into one refresh (workflows/analytics/analytics-refresher-workflow.ts).
// Fire-and-forget: a write never waits for Temporal, and a failed signal is only logged (the
// 5-minute Schedule still refreshes).
import type { ServiceDeps } from '../service-deps';
import { platformWorkflowLabels } from '../tasks/platform-workflows';
import { analyticsChangedSignal, analyticsRefresherWorkflow } from '../../workflows/analytics/analytics-refresher-workflow';

/** Paths whose writes change what the dashboards count (the case's referral lives under /cases). */
const COUNTED_WRITES = /^\/(cases|intakes|reviews|referrals)(\/|$)/;

export function isCountedWrite(method: string, path: string, status: number): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && status >= 200 && status < 300 && COUNTED_WRITES.test(path);
}

export const analyticsRefresherId = (taskQueue: string): string => `analytics-refresher-${taskQueue}`;

/** Signals the refresher (starting it when none runs); resolves when Temporal took the signal. */
export async function signalAnalyticsChanged(deps: Pick<ServiceDeps, 'temporal' | 'config'>): Promise<void> {
  const seconds = deps.config.analytics.dashboard_refresh_after_write_seconds;
  const taskQueue = deps.config.temporal.task_queue;
  await deps.temporal.workflow.signalWithStart(analyticsRefresherWorkflow, {
    workflowId: analyticsRefresherId(taskQueue),
    taskQueue,
    args: [seconds],
    signal: analyticsChangedSignal,
    signalArgs: [],
    ...platformWorkflowLabels(analyticsRefresherWorkflow, 'analytics-refresh', 'Analytics dashboards refresh after writes'),
  });
}

/** The API's hook: off when the setting is 0; never throws, never delays the answer. */
export function notifyAnalyticsChanged(deps: Pick<ServiceDeps, 'temporal' | 'config' | 'log'>): void {
  if (deps.config.analytics.dashboard_refresh_after_write_seconds === 0) return;
  signalAnalyticsChanged(deps).catch((err: unknown) => deps.log.warn({ err }, 'could not signal the analytics refresher; the Schedule refreshes the dashboards'));
}
