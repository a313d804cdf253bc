// domain/iso-time.ts: the explorer writes its timestamps as text itself; the bytes must be those
// JSON.stringify writes for the Date (its toJSON: toISOString, null when invalid).
import assert from 'node:assert/strict';
import { isoTime, jsonTime } from '../../domain/iso-time';

describe('timestamps as JSON text (domain/iso-time.ts)', () => {
  it('writes what toISOString writes, over the whole range of dates', () => {
    const edges = [0, -1, 1, 253402300799999, 253402300800000, -30610224000000, -30610224000001, -62198755200000, 8.64e15, -8.64e15, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 1, 28, 12)];
    const random = Array.from({ length: 20_000 }, () => Math.floor((Math.random() * 2 - 1) * 8.64e15 * (Math.random() < 0.9 ? 0.01 : 1)));
    for (const t of [...edges, ...random]) assert.equal(isoTime(new Date(t)), new Date(t).toISOString(), `time ${t}`);
  });

  it('gives JSON.stringify the same bytes as the Date would, invalid dates and non-dates included', () => {
    for (const v of [new Date(Date.UTC(2026, 10, 22, 21, 41, 8, 123)), new Date(-62198755200000), new Date(NaN), null, Infinity, -Infinity]) {
      assert.equal(JSON.stringify({ at: jsonTime(v as Date | null) }), JSON.stringify({ at: v }));
    }
  });
});
