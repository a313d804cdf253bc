// Processing of one intake (`intake-<id>`): into processing, each step as an intake job (text from
// the details and files, then entities to the graph), then processed, or failed with the step's
// caller-safe error. The input is only the intake id: no evidence or contact data in Temporal.
import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import { INTAKE_STEPS, type IntakeStep } from '../../domain/intakes/intake-steps';
import { isPublicFailureType } from '../../domain/tasks/public-failures';
import { trackProgress } from '../tasks/task-progress';

// A step reads every file of the intake one after the other, each under the parser's time bound
// (SVC_PARSER__TIMEOUT_SECONDS), so its own bound is generous; a worker that stops is noticed by
// the missing heartbeats instead. An attempt that never ends (the worker process died) is retried
// a few times, and the step stops itself with a reason when it keeps happening (IntakeStepAbandoned).
const steps = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5, nonRetryableErrorTypes: ['IntakeStepAbandoned'] },
});
const bookkeeping = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 20 },
});

/** Classification reads what the steps stored (and may ask the LLM, bounded): a few tries, then the intake stays unclassified. */
const classifying = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

export interface IntakeProcessingInput {
  intakeId: string;
}

export interface IntakeProcessingResult {
  intake_id: string;
  status: 'processed' | 'failed';
  failed_step?: IntakeStep;
}

function callerSafeMessage(step: IntakeStep, err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && isPublicFailureType(cause.type)) return cause.message;
  return `${step} failed: internal error (the worker log has the details)`;
}

export async function intakeProcessingWorkflow(input: IntakeProcessingInput): Promise<IntakeProcessingResult> {
  const progress = trackProgress('starting');
  await bookkeeping.beginIntakeProcessing({ intakeId: input.intakeId });
  for (const [i, step] of INTAKE_STEPS.entries()) {
    progress.set(step, Math.round((i / INTAKE_STEPS.length) * 100));
    try {
      await steps.runIntakeStep({ intakeId: input.intakeId, step });
    } catch (err) {
      if (isCancellation(err)) {
        await CancellationScope.nonCancellable(() => bookkeeping.finishIntakeProcessing({ intakeId: input.intakeId, outcome: 'cancelled' }));
        throw err;
      }
      const error = callerSafeMessage(step, err);
      await bookkeeping.finishIntakeProcessing({ intakeId: input.intakeId, outcome: 'failed', step, error });
      progress.set('failed', null, { step, error });
      return { intake_id: input.intakeId, status: 'failed', failed_step: step };
    }
  }
  // The intake's entities have new sightings: refresh their loss and risk score. A failure here
  // does not fail the intake (the next sighting of each entity recomputes it).
  try {
    await bookkeeping.recomputeSourceRiskScores({ kind: 'intake', id: input.intakeId });
  } catch (err) {
    if (isCancellation(err)) throw err;
  }
  // Its place in the scam taxonomy (runs recorded before classification replay without it); a
  // failure leaves the intake unclassified, not failed.
  if (patched('intake-classification')) {
    try {
      await classifying.classifyIntake({ intakeId: input.intakeId });
    } catch (err) {
      if (isCancellation(err)) throw err;
    }
  }
  await bookkeeping.finishIntakeProcessing({ intakeId: input.intakeId, outcome: 'processed' });
  progress.set('done', 100);
  return { intake_id: input.intakeId, status: 'processed' };
}
