// Small database steps of the report-schedule workflow.
import type { Knex } from 'knex';
import { advanceReportSchedule, findReportSchedule } from '../../db/repositories/report-schedule-repository';
import { nextRunAfter } from '../../domain/reports/cadence';

export interface ScheduleState {
  isActive: boolean;
  nextRunAt: string;
  recipients: string[];
}

export function createScheduleActivities(deps: { knex: Knex }) {
  return {
    async loadScheduleState(input: { scheduleId: string }): Promise<ScheduleState | null> {
      const s = await findReportSchedule(deps.knex, input.scheduleId);
      return s ? { isActive: s.is_active, nextRunAt: s.next_run_at.toISOString(), recipients: s.recipients } : null;
    },

    /** last_run_at := the due time; next_run_at := the cadence's next. Idempotent (compare-and-set). */
    async advanceSchedule(input: { scheduleId: string; dueAt: string }): Promise<{ advanced: boolean }> {
      const s = await findReportSchedule(deps.knex, input.scheduleId);
      if (!s) return { advanced: false };
      const due = new Date(input.dueAt);
      const advanced = await advanceReportSchedule(deps.knex, s.id, due, nextRunAfter(s.cadence, due, s.anchor_day));
      return { advanced };
    },
  };
}
