import assert from 'node:assert/strict';
import { anchorDayOf, daysInMonthUtc, defaultFirstRun, nextRunAfter, previousRunBefore, type Cadence } from '../../domain/reports/cadence';

const d = (iso: string) => new Date(iso);
const iso = (x: Date) => x.toISOString();

describe('cadence arithmetic (UTC)', () => {
  it('daily: same time the next day, across month, year and leap-day boundaries', () => {
    assert.equal(iso(nextRunAfter('daily', d('2026-01-31T09:30:00.000Z'), 31)), '2026-02-01T09:30:00.000Z');
    assert.equal(iso(nextRunAfter('daily', d('2026-12-31T23:59:59.999Z'), 31)), '2027-01-01T23:59:59.999Z');
    assert.equal(iso(nextRunAfter('daily', d('2028-02-28T00:00:00.000Z'), 28)), '2028-02-29T00:00:00.000Z');
    assert.equal(iso(nextRunAfter('daily', d('2027-02-28T00:00:00.000Z'), 28)), '2027-03-01T00:00:00.000Z');
    // A date that is DST change day in Europe/US makes no difference in UTC.
    assert.equal(iso(nextRunAfter('daily', d('2026-03-29T01:30:00.000Z'), 29)), '2026-03-30T01:30:00.000Z');
  });

  it('weekly: 7 days after the last run', () => {
    assert.equal(iso(nextRunAfter('weekly', d('2026-02-25T06:00:00.000Z'), 25)), '2026-03-04T06:00:00.000Z');
    assert.equal(iso(nextRunAfter('weekly', d('2028-02-25T06:00:00.000Z'), 25)), '2028-03-03T06:00:00.000Z');
    assert.equal(iso(nextRunAfter('weekly', d('2026-12-29T06:00:00.000Z'), 29)), '2027-01-05T06:00:00.000Z');
  });

  it('monthly: Jan 31 -> Feb 28 -> Mar 31 -> Apr 30 -> May 31 (clamp and return to the anchor day)', () => {
    const seen: string[] = [];
    let due = d('2026-01-31T08:15:00.000Z');
    for (let i = 0; i < 12; i++) {
      due = nextRunAfter('monthly', due, 31);
      seen.push(iso(due).slice(0, 10));
    }
    assert.deepEqual(seen, [
      '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31',
      '2026-08-31', '2026-09-30', '2026-10-31', '2026-11-30', '2026-12-31', '2027-01-31',
    ]);
    assert.equal(iso(due), '2027-01-31T08:15:00.000Z', 'time of day is kept');
  });

  it('monthly: leap years give Feb 29 for anchors 29-31, and never in common years', () => {
    assert.equal(iso(nextRunAfter('monthly', d('2028-01-31T00:00:00.000Z'), 31)), '2028-02-29T00:00:00.000Z');
    assert.equal(iso(nextRunAfter('monthly', d('2028-01-29T00:00:00.000Z'), 29)), '2028-02-29T00:00:00.000Z');
    assert.equal(iso(nextRunAfter('monthly', d('2027-01-29T00:00:00.000Z'), 29)), '2027-02-28T00:00:00.000Z');
    assert.equal(iso(nextRunAfter('monthly', d('2100-01-31T00:00:00.000Z'), 31)), '2100-02-28T00:00:00.000Z', '2100 is not a leap year');
    assert.equal(iso(nextRunAfter('monthly', d('2000-01-30T00:00:00.000Z'), 30)), '2000-02-29T00:00:00.000Z', '2000 is');
    assert.equal(iso(nextRunAfter('monthly', d('2028-02-29T00:00:00.000Z'), 30)), '2028-03-30T00:00:00.000Z');
  });

  it('monthly: December rolls into January of the next year; short anchors never clamp', () => {
    assert.equal(iso(nextRunAfter('monthly', d('2026-12-15T10:00:00.000Z'), 15)), '2027-01-15T10:00:00.000Z');
    for (let m = 0; m < 24; m++) {
      const due = new Date(Date.UTC(2026, m, 1, 12));
      assert.equal(nextRunAfter('monthly', due, 1).getUTCDate(), 1);
    }
  });

  it('monthly: exhaustively, every anchor day in every month of a 4-year cycle', () => {
    for (let anchor = 1; anchor <= 31; anchor++) {
      let due = new Date(Date.UTC(2027, 0, Math.min(anchor, 31), 7, 45));
      for (let i = 0; i < 48; i++) {
        const next = nextRunAfter('monthly', due, anchor);
        const expectedMonth = (due.getUTCMonth() + 1) % 12;
        assert.equal(next.getUTCMonth(), expectedMonth, `anchor ${anchor} from ${iso(due)}`);
        const dim = daysInMonthUtc(next.getUTCFullYear(), next.getUTCMonth());
        assert.equal(next.getUTCDate(), Math.min(anchor, dim), `anchor ${anchor} from ${iso(due)}`);
        assert.equal(next.getUTCHours(), 7);
        assert.equal(next.getUTCMinutes(), 45);
        assert.ok(next > due);
        due = next;
      }
    }
  });

  it('default first run is one period after creation', () => {
    const created = d('2026-01-31T12:00:00.000Z');
    const cases: Array<[Cadence, string]> = [
      ['daily', '2026-02-01T12:00:00.000Z'],
      ['weekly', '2026-02-07T12:00:00.000Z'],
      ['monthly', '2026-02-28T12:00:00.000Z'],
    ];
    for (const [cadence, want] of cases) assert.equal(iso(defaultFirstRun(cadence, created)), want);
    assert.equal(anchorDayOf(d('2026-01-31T00:00:00.000Z')), 31);
  });

  it('previous due time: one step back, monthly to the previous month clamped (Mar 31 -> Feb 28/29, Mar 1 -> Feb 1)', () => {
    assert.equal(iso(previousRunBefore('daily', d('2026-03-01T09:30:00.000Z'), 1)), '2026-02-28T09:30:00.000Z');
    assert.equal(iso(previousRunBefore('weekly', d('2027-01-05T06:00:00.000Z'), 5)), '2026-12-29T06:00:00.000Z');
    assert.equal(iso(previousRunBefore('monthly', d('2026-03-31T08:15:00.000Z'), 31)), '2026-02-28T08:15:00.000Z');
    assert.equal(iso(previousRunBefore('monthly', d('2028-03-31T08:15:00.000Z'), 31)), '2028-02-29T08:15:00.000Z');
    assert.equal(iso(previousRunBefore('monthly', d('2026-03-01T00:00:00.000Z'), 1)), '2026-02-01T00:00:00.000Z');
    assert.equal(iso(previousRunBefore('monthly', d('2026-02-28T12:00:00.000Z'), 31)), '2026-01-31T12:00:00.000Z', 'back to the anchor day');
    assert.equal(iso(previousRunBefore('monthly', d('2027-01-15T10:00:00.000Z'), 15)), '2026-12-15T10:00:00.000Z', 'January to December');
  });

  it('previous due time: exhaustively the inverse of the next due time, every cadence and anchor over a 4-year cycle', () => {
    for (const cadence of ['daily', 'weekly', 'monthly'] as const) {
      for (let anchor = 1; anchor <= 31; anchor++) {
        let due = new Date(Date.UTC(2027, 0, Math.min(anchor, 31), 7, 45, 12, 345));
        for (let i = 0; i < (cadence === 'monthly' ? 48 : 60); i++) {
          const next = nextRunAfter(cadence, due, anchor);
          assert.equal(iso(previousRunBefore(cadence, next, anchor)), iso(due), `${cadence} anchor ${anchor}: before ${iso(next)}`);
          assert.ok(previousRunBefore(cadence, next, anchor) < next);
          due = next;
        }
      }
    }
  });

  it('rejects invalid input', () => {
    assert.throws(() => nextRunAfter('daily', new Date('nope'), 1), RangeError);
    assert.throws(() => nextRunAfter('monthly', d('2026-01-01T00:00:00Z'), 0), RangeError);
    assert.throws(() => nextRunAfter('monthly', d('2026-01-01T00:00:00Z'), 32), RangeError);
    assert.throws(() => previousRunBefore('weekly', new Date('nope'), 1), RangeError);
    assert.throws(() => previousRunBefore('monthly', d('2026-01-01T00:00:00Z'), 0), RangeError);
  });
});
