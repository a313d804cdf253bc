// Cadence arithmetic of report schedules, in UTC (spec, "Cadence rules for the next due time"):
// - daily:   same time the next day;
// - weekly:  7 days after the last run;
// - monthly: same day of the next month, clamped to the last day of a shorter month, and back to
//            the original (anchor) day when the month has it: Jan 31 -> Feb 28/29 -> Mar 31.
// UTC has no daylight-saving shifts, so "same time" is exact.

export const CADENCES = ['daily', 'weekly', 'monthly'] as const;
export type Cadence = (typeof CADENCES)[number];

const DAY_MS = 86_400_000;

export function daysInMonthUtc(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * The due time after `lastDue`. `anchorDay` (1-31) is the day of month the schedule was set up on;
 * only monthly cadence uses it.
 */
export function nextRunAfter(cadence: Cadence, lastDue: Date, anchorDay: number): Date {
  const t = lastDue.getTime();
  if (!Number.isFinite(t)) throw new RangeError('lastDue is not a valid date');
  switch (cadence) {
    case 'daily':
      return new Date(t + DAY_MS);
    case 'weekly':
      return new Date(t + 7 * DAY_MS);
    case 'monthly': {
      if (!Number.isInteger(anchorDay) || anchorDay < 1 || anchorDay > 31) throw new RangeError('anchorDay must be 1..31');
      const year = lastDue.getUTCFullYear();
      const month = lastDue.getUTCMonth() + 1;
      const y = year + Math.floor(month / 12);
      const m = month % 12;
      const day = Math.min(anchorDay, daysInMonthUtc(y, m));
      return new Date(
        Date.UTC(y, m, day, lastDue.getUTCHours(), lastDue.getUTCMinutes(), lastDue.getUTCSeconds(), lastDue.getUTCMilliseconds()),
      );
    }
  }
}

/** The first due time of a schedule created at `createdAt` when none is given: one period later. */
export function defaultFirstRun(cadence: Cadence, createdAt: Date): Date {
  return nextRunAfter(cadence, createdAt, createdAt.getUTCDate());
}

/** The anchor day of a schedule whose first run is `firstRun`. */
export function anchorDayOf(firstRun: Date): number {
  return firstRun.getUTCDate();
}

/**
 * The due time one cadence step before `due`: the start of the period a first run covers (later
 * runs start at the schedule's last_run_at). The inverse of nextRunAfter for due times of the
 * schedule: monthly goes to the previous month's anchor day, clamped (due Mar 31 -> Feb 28/29,
 * due Mar 1 -> Feb 1, due Feb 28 with anchor 31 -> Jan 31), keeping the time of day.
 */
export function previousRunBefore(cadence: Cadence, due: Date, anchorDay: number): Date {
  const t = due.getTime();
  if (!Number.isFinite(t)) throw new RangeError('due is not a valid date');
  switch (cadence) {
    case 'daily':
      return new Date(t - DAY_MS);
    case 'weekly':
      return new Date(t - 7 * DAY_MS);
    case 'monthly': {
      if (!Number.isInteger(anchorDay) || anchorDay < 1 || anchorDay > 31) throw new RangeError('anchorDay must be 1..31');
      const month = due.getUTCMonth() - 1;
      const y = due.getUTCFullYear() + Math.floor(month / 12);
      const m = (month + 12) % 12;
      const day = Math.min(anchorDay, daysInMonthUtc(y, m));
      return new Date(Date.UTC(y, m, day, due.getUTCHours(), due.getUTCMinutes(), due.getUTCSeconds(), due.getUTCMilliseconds()));
    }
  }
}
