// One long-lived workflow per report schedule (id `report-schedule-<id>`): waits on a durable timer
// until next_run_at, generates the report, e-mails it, advances the schedule and continues-as-new
// so its history stays small. Cancelling it (deactivation) stops everything, a run in progress too.
import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  continueAsNew,
  isCancellation,
  log,
  proxyActivities,
  proxyLocalActivities,
  sleep,
} from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import type { ScheduleState } from '../../domain/reports/schedule-state';
import { trackProgress } from '../tasks/task-progress';

/** ApplicationFailure type of a run whose stored options do not validate (activities/reports/report-generation-activities.ts). */
const INVALID_SCHEDULE_OPTIONS = 'InvalidScheduleOptions';

// A local activity: one quick read, no task-queue round trip.
const db = proxyLocalActivities<PlatformActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
const generation = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '10 seconds',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
const delivery = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

export interface ReportScheduleInput {
  scheduleId: string;
  /** Carried over continue-as-new from the previous run, so a run does not re-read the schedule. */
  state?: ScheduleState;
}

export async function reportScheduleWorkflow(input: ReportScheduleInput): Promise<string> {
  const progress = trackProgress('loading');
  const state = input.state ?? (await db.loadScheduleState({ scheduleId: input.scheduleId }));
  if (!state) return 'missing';
  if (!state.isActive) return 'inactive';

  progress.set('waiting', null, { next_run_at: state.nextRunAt });
  const wait = Date.parse(state.nextRunAt) - Date.now();
  if (wait > 0) await sleep(wait);

  progress.set('generating', null, { due_at: state.nextRunAt });
  let outcome: Awaited<ReturnType<PlatformActivities['generateScheduledReport']>>;
  try {
    outcome = await generation.generateScheduledReport({ scheduleId: input.scheduleId, dueAt: state.nextRunAt });
  } catch (err) {
    // Stored options that no longer validate: the activity recorded last_error and moved the
    // schedule on (non-retryable, so no endless retries). Wait for the next due time: once the
    // cause is fixed, that run produces a report.
    if (!(err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === INVALID_SCHEDULE_OPTIONS)) throw err;
    log.warn('scheduled report skipped: invalid stored options', { scheduleId: input.scheduleId, dueAt: state.nextRunAt, error: err.cause.message });
    const next = (err.cause.details?.[0] as ScheduleState | null | undefined) ?? (await db.loadScheduleState({ scheduleId: input.scheduleId }));
    if (!next) return 'missing';
    return continueAsNew<typeof reportScheduleWorkflow>({ scheduleId: input.scheduleId, state: next });
  }
  // A deactivation that landed while the run was finishing: the run stored nothing; end as cancelled.
  if (CancellationScope.current().consideredCancelled) throw new CancelledFailure('schedule deactivated');
  if (outcome.status === 'inactive' || outcome.status === 'missing') return outcome.status;
  const next = outcome.next;
  if (outcome.status === 'generated' || outcome.status === 'existing') {
    progress.set('delivering', null, { due_at: state.nextRunAt, report_id: outcome.reportId });
    try {
      await delivery.deliverReport({ reportId: outcome.reportId, recipients: state.recipients });
    } catch (err) {
      if (isCancellation(err)) throw err;
      // Recorded as failed in report_deliveries; the schedule has moved on regardless.
      log.warn('report delivery failed after retries', { reportId: outcome.reportId, error: String(err) });
    }
  }
  return continueAsNew<typeof reportScheduleWorkflow>({ scheduleId: input.scheduleId, state: next });
}
