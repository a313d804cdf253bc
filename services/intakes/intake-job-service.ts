// Intake processing use cases: an intake is processed by its `intake-<id>` workflow, one intake job
// per step (domain/intakes/intake-steps.ts). Used by the API and by submitIntake (intake-service.ts):
// - startIntakeWorkflow: start (or, on a retry, start again) the intake's processing workflow
// - getIntakeJob: one processing job
// - changeIntakeJob: retry a failed or cancelled job (and the steps after it), or cancel the
//   intake's open jobs; audited
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { Principal } from '../../domain/accounts/roles';
import { principalName } from '../../domain/accounts/principal-name';
import { maskingFor } from '../../domain/masking/masking-policy';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import {
  cancelOpenIntakeJobs,
  findIntake,
  findIntakeJob,
  requeueIntakeJobs,
  updateIntakeStatus,
  type IntakeJobRow,
} from '../../db/repositories/intakes/intake-repository';
import { ConflictError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { intakeProcessingWorkflow } from '../../workflows/intakes/intake-processing-workflow';

export type { IntakeJobRow };

type ProcessingDeps = Pick<ServiceDeps, 'knex' | 'temporal' | 'config'>;

export const intakeTaskId = (intakeId: string) => `intake-${intakeId}`;

export async function startIntakeWorkflow(deps: ProcessingDeps, intakeId: string, reuse: 'REJECT_DUPLICATE' | 'ALLOW_DUPLICATE'): Promise<void> {
  try {
    await startPlatformWorkflow(deps.temporal, {
      workflow: intakeProcessingWorkflow,
      workflowId: intakeTaskId(intakeId),
      taskQueue: deps.config.temporal.task_queue,
      // Only the id: contact data and evidence never travel in Temporal payloads.
      args: [{ intakeId }],
      recordId: intakeId,
      title: `Intake ${intakeId}`,
      workflowIdReusePolicy: reuse,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** 404 when there is no such job. */
async function existingIntakeJob(deps: Pick<ServiceDeps, 'knex'>, jobId: string): Promise<IntakeJobRow> {
  const job = await findIntakeJob(deps.knex, jobId);
  if (!job) throw new NotFoundError(`no intake job ${jobId}`);
  return job;
}

/** A job's result and error as the caller may see them (bank details found in the text, masked). */
function maskedJob(job: IntakeJobRow, principal: Principal | null): IntakeJobRow {
  const policy = maskingFor(principal);
  return { ...job, result: policy.json(job.result), error: policy.text(job.error) };
}

/** One job as the caller may see it; 404 when there is none. */
export async function getIntakeJob(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, jobId: string): Promise<IntakeJobRow> {
  return maskedJob(await existingIntakeJob(deps, jobId), principal);
}

/**
 * Retries a failed or cancelled job, or cancels the intake's open jobs, and answers the job as it
 * is then. Repeats are no-ops (retrying a queued or running job, cancelling a cancelled one, not
 * audited); other states are 409.
 */
export async function changeIntakeJob(deps: ProcessingDeps, principal: Principal | null, jobId: string, action: 'retry' | 'cancel'): Promise<IntakeJobRow> {
  return maskedJob(await changeJob(deps, principal, jobId, action), principal);
}

async function changeJob(deps: ProcessingDeps, principal: Principal | null, jobId: string, action: 'retry' | 'cancel'): Promise<IntakeJobRow> {
  const job = await existingIntakeJob(deps, jobId);
  if (action === 'retry') {
    if (job.status === 'succeeded') throw new ConflictError('job succeeded; only a failed or cancelled job can be retried', { status: job.status });
    if (job.status === 'queued' || job.status === 'running') return job;
    await retryIntakeJob(deps, job);
  } else {
    if (job.status === 'succeeded' || job.status === 'failed') throw new ConflictError(`job ${job.status}; only a queued or running job can be cancelled`, { status: job.status });
    if (job.status === 'cancelled') return job;
    await cancelIntakeJobs(deps, job);
  }
  await recordAuditEvent(deps.knex, { actor: principalName(principal), action: `intake.job.${action}`, target_type: 'intake_job', target_id: job.id, details: { intake_id: job.intake_id, step: job.step } });
  return (await findIntakeJob(deps.knex, job.id))!;
}

/** Re-runs processing from a failed or cancelled job. */
async function retryIntakeJob(deps: ProcessingDeps, job: IntakeJobRow): Promise<void> {
  // The run that recorded the failure may still be finishing its bookkeeping: let it end first
  // (bounded), so that the new run does not collide with it.
  const previous = deps.temporal.workflow.getHandle(intakeTaskId(job.intake_id));
  await Promise.race([previous.result().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
  await requeueIntakeJobs(deps.knex, job.intake_id, job.position);
  const intake = await findIntake(deps.knex, job.intake_id);
  if (intake?.status === 'failed') await updateIntakeStatus(deps.knex, intake.id, 'failed', 'processing', 'retry requested');
  await startIntakeWorkflow(deps, job.intake_id, 'ALLOW_DUPLICATE');
}

/** Cancels the intake's open jobs and its processing workflow. */
async function cancelIntakeJobs(deps: ProcessingDeps, job: IntakeJobRow): Promise<void> {
  await cancelOpenIntakeJobs(deps.knex, job.intake_id);
  try {
    await deps.temporal.workflow.getHandle(intakeTaskId(job.intake_id)).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}
