// The scheduled-reports job's one activity: the reconciliation that `fip jobs scheduled-reports`
// also runs (services/reports/scheduled-reports-job.ts), here with the worker's own report steps.
import { runScheduledReportsJob, type ScheduledReportsJobDeps, type ScheduledReportsJobResult } from '../../services/reports/scheduled-reports-job';

export function createScheduledReportsJobActivities(deps: Omit<ScheduledReportsJobDeps, 'onProgress'>) {
  return {
    async runScheduledReportsJob(input: { dryRun: boolean }): Promise<ScheduledReportsJobResult> {
      return runScheduledReportsJob(deps, input);
    },
  };
}
