// Platform tasks are Temporal workflows; this maps them to the API's task vocabulary.

export const TASK_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Workflow type -> task kind shown to API callers. */
export const TASK_KINDS: Record<string, string> = {
  reportScheduleWorkflow: 'report-schedule',
  generateReportWorkflow: 'report',
  scheduledReportsJobWorkflow: 'scheduled-reports-job',
};

export function taskKind(workflowType: string): string {
  return TASK_KINDS[workflowType] ?? workflowType;
}

/** Temporal's execution status name + whether any worker has started it -> task status. */
export function taskStatus(executionStatus: string, started: boolean): TaskStatus {
  switch (executionStatus) {
    case 'RUNNING':
    case 'CONTINUED_AS_NEW':
      return started ? 'running' : 'queued';
    case 'COMPLETED':
      return 'completed';
    case 'CANCELLED':
      return 'cancelled';
    default:
      return 'failed'; // FAILED, TERMINATED, TIMED_OUT
  }
}

export interface TaskProgress {
  stage: string;
  percent: number | null;
  detail: Record<string, unknown>;
  notes: Array<{ at: string; note: string; percent: number | null }>;
  updated_at: string;
}
