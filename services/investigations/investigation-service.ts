// Starting an investigation: the scan row, then its `ssi-<scan_id>` workflow. Used by
// POST /investigations/ssi and by intake processing (SVC_INTAKE__AUTO_INVESTIGATE).
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { investigationTaskId, type InvestigationOptions } from '../../domain/investigations/investigation-request';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { ssiInvestigationWorkflow } from '../../workflows/investigations/ssi-investigation-workflow';

export interface StartInvestigation {
  scanId: string;
  url: string;
  requestedBy: string;
  /** undefined: the first matching playbook; null: none. */
  playbookId: string | null | undefined;
  caseId: string | null;
  label: string | null;
  options: InvestigationOptions;
}

/**
 * Stores the scan (idempotent on scan_id) and starts its workflow. With `repeatable`, a scan whose
 * workflow already exists (a retried request or activity) is answered as it is; otherwise that is
 * an error.
 */
export async function startInvestigation(
  deps: { knex: Knex; temporal: Client; config: AppConfig },
  req: StartInvestigation,
  repeatable: boolean,
): Promise<{ scanId: string; taskId: string }> {
  const taskId = investigationTaskId(req.scanId);
  await insertInvestigation(deps.knex, {
    scanId: req.scanId, url: req.url, domain: new URL(req.url).hostname, requestedBy: req.requestedBy, playbookId: req.playbookId ?? null, caseId: req.caseId,
    label: req.label, options: req.options,
  });
  try {
    await startPlatformWorkflow(deps.temporal, {
      workflow: ssiInvestigationWorkflow,
      workflowId: taskId,
      taskQueue: deps.config.temporal.task_queue,
      args: [{ scanId: req.scanId, url: req.url, playbookId: req.playbookId ?? null, autoPlaybook: req.playbookId === undefined, options: req.options }],
      recordId: req.scanId,
      title: `Investigation of ${new URL(req.url).host}${req.label ? ` (${req.label})` : ''}`,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (err) {
    if (!(repeatable && err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return { scanId: req.scanId, taskId };
}
