// Progress of a platform task: every workflow answers the `progress` query and accepts progress
// notes from trusted services through the `progressNote` signal (POST /tasks/{id}/update).
import { defineQuery, defineSignal, setHandler } from '@temporalio/workflow';
import type { TaskProgress } from '../domain/tasks/task-status';

export const progressQuery = defineQuery<TaskProgress>('progress');
export const progressNoteSignal = defineSignal<[{ note: string; percent?: number | null }]>('progressNote');

const MAX_NOTES = 50;

export function trackProgress(stage: string) {
  const state: TaskProgress = { stage, percent: null, detail: {}, notes: [], updated_at: new Date().toISOString() };
  setHandler(progressQuery, () => state);
  setHandler(progressNoteSignal, ({ note, percent }) => {
    state.notes.push({ at: new Date().toISOString(), note: note.slice(0, 1000), percent: percent ?? null });
    if (state.notes.length > MAX_NOTES) state.notes.shift();
    if (percent != null) state.percent = percent;
    state.updated_at = new Date().toISOString();
  });
  return {
    set(next: string, percent: number | null = state.percent, detail: Record<string, unknown> = {}) {
      state.stage = next;
      state.percent = percent;
      state.detail = detail;
      state.updated_at = new Date().toISOString();
    },
  };
}
