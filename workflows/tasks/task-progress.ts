// Progress of a platform task: every workflow answers the `progress` query and accepts progress
// notes (POST /tasks/{id}/update) through the `addProgressNote` Update. Its validator refuses a
// note past the per-run cap or over the length limit; a refused Update never reaches the history,
// so notes cannot grow a sleeping schedule's history toward Temporal's limit.
import { ApplicationFailure, defineQuery, defineSignal, defineUpdate, setHandler } from '@temporalio/workflow';
import {
  MAX_PROGRESS_NOTE_LENGTH,
  MAX_PROGRESS_NOTES_PER_RUN,
  PROGRESS_NOTE_UPDATE,
  type ProgressNoteInput,
  type TaskProgress,
} from '../../domain/tasks/task-status';

export const progressQuery = defineQuery<TaskProgress>('progress');
export const progressNoteUpdate = defineUpdate<{ notes: number }, [ProgressNoteInput]>(PROGRESS_NOTE_UPDATE);
/**
 * The former way to add a note, kept registered so that histories recorded before the Update
 * existed (workflows in flight, sleeping schedules) replay unchanged. The API no longer sends it;
 * notes past the cap are dropped.
 */
export const progressNoteSignal = defineSignal<[ProgressNoteInput]>('progressNote');

export function trackProgress(stage: string) {
  const state: TaskProgress = { stage, percent: null, detail: {}, notes: [], updated_at: new Date().toISOString() };
  const addNote = ({ note, percent }: ProgressNoteInput) => {
    state.notes.push({ at: new Date().toISOString(), note: note.slice(0, MAX_PROGRESS_NOTE_LENGTH), percent: percent ?? null });
    if (percent != null) state.percent = percent;
    state.updated_at = new Date().toISOString();
  };
  setHandler(progressQuery, () => state);
  setHandler(
    progressNoteUpdate,
    (input) => {
      addNote(input);
      return { notes: state.notes.length };
    },
    {
      validator: ({ note, percent }) => {
        if (state.notes.length >= MAX_PROGRESS_NOTES_PER_RUN) {
          throw ApplicationFailure.nonRetryable(`this task already holds ${MAX_PROGRESS_NOTES_PER_RUN} progress notes, the cap per run`, 'ProgressNoteRejected');
        }
        if (typeof note !== 'string' || note.length === 0 || note.length > MAX_PROGRESS_NOTE_LENGTH) {
          throw ApplicationFailure.nonRetryable(`a progress note has 1 to ${MAX_PROGRESS_NOTE_LENGTH} characters`, 'ProgressNoteRejected');
        }
        if (percent != null && (typeof percent !== 'number' || percent < 0 || percent > 100)) {
          throw ApplicationFailure.nonRetryable('percent is a number from 0 to 100', 'ProgressNoteRejected');
        }
      },
    },
  );
  setHandler(progressNoteSignal, (input) => {
    if (state.notes.length < MAX_PROGRESS_NOTES_PER_RUN) addNote(input);
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
