// The database step of the report-schedule workflow that is not part of a run.
import type { Knex } from 'knex';
import { findReportSchedule } from '../../db/repositories/reports/report-schedule-repository';
import { scheduleState, type ScheduleState } from '../../domain/reports/schedule-state';

export function createScheduleActivities(deps: { knex: Knex }) {
  return {
    async loadScheduleState(input: { scheduleId: string }): Promise<ScheduleState | null> {
      const s = await findReportSchedule(deps.knex, input.scheduleId);
      return s ? scheduleState(s) : null;
    },
  };
}
