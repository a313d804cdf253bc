// Platform tasks are Temporal workflows; this maps them to the API's task vocabulary.

export const TASK_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

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

/** Progress notes (POST /tasks/{id}/update): bounded in length, and in count per workflow run. */
export const MAX_PROGRESS_NOTE_LENGTH = 1000;
export const MAX_PROGRESS_NOTES_PER_RUN = 20;
/** The name of the workflow Update that adds a note (every platform workflow handles it). */
export const PROGRESS_NOTE_UPDATE = 'addProgressNote';

export interface ProgressNoteInput {
  note: string;
  percent?: number | null;
}
