// What a report schedule's workflow carries from one run to the next: whether the schedule is still
// active, when it runs next and who receives it. Read from the schedule's row by the activities.

export interface ScheduleState {
  isActive: boolean;
  /** ISO 8601. */
  nextRunAt: string;
  recipients: string[];
}

export function scheduleState(s: { is_active: boolean; next_run_at: Date; recipients: string[] }): ScheduleState {
  return { isActive: s.is_active, nextRunAt: s.next_run_at.toISOString(), recipients: s.recipients };
}
