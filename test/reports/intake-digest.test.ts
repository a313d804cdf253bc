// The intake digest on real PostgreSQL: over a period with seeded intakes and cases it counts them per
// status and lists each one; records just outside the period (before it, and at its end, which is
// excluded) are absent; bank details in intake and case text are masked, contact data never appears.
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { buildReportContent } from '../../services/reports/build-report-content';
import { renderCsv, renderJson } from '../../services/reports/render-report';
import { testKnex } from '../support/platform';

const IBAN = 'GB82WEST12345698765432';

describe('intake digest report', () => {
  it('counts and lists the intakes and cases of its period, and nothing outside it', async () => {
    const knex = testKnex();
    const tag = randomUUID().slice(0, 8);
    // A period of its own: one day in a random past year, so other tests' records never fall in it.
    const start = new Date(Date.UTC(2001 + randomInt(0, 20), randomInt(0, 12), randomInt(1, 28)));
    const end = new Date(start.getTime() + 86_400_000);
    const at = (hours: number) => new Date(start.getTime() + hours * 3_600_000);

    const intake = (status: string, created: Date, extra: Record<string, unknown> = {}) => ({ id: randomUUID(), source: 'web', status, summary: `digest ${tag}`, submitted_by: 'digest@example.org', created_at: created, updated_at: created, ...extra });
    const inside = [
      intake('received', at(1), { summary: `paid to ${IBAN} (${tag})`, loss_amount: '1200.50', loss_currency: 'EUR' }),
      intake('received', at(5)),
      intake('linked', at(23)),
    ];
    const before = intake('received', new Date(start.getTime() - 1000));
    const atEnd = intake('received', end);
    await knex('intakes').insert([...inside, before, atEnd]);
    const kase = (status: string, created: Date, title = `case ${tag}`) => ({ id: randomUUID(), title, status, created_by: 'digest@example.org', created_at: created, updated_at: created });
    const cases = [kase('open', at(2), `refund to ${IBAN} ${tag}`), kase('referred', at(3))];
    const oldCase = kase('open', new Date(start.getTime() - 86_400_000));
    await knex('cases').insert([...cases, oldCase]);

    const content = await buildReportContent(
      knex,
      { template: 'intake-digest', scope: { entity_types: [] }, options: { format: 'json' }, asOf: end, periodStart: start },
      new Date(),
    );
    const section = (title: string) => content.sections.find((s) => s.title === title)!;
    assert.deepEqual(content.sections.map((s) => s.title), ['Intakes by status', 'Cases by status', 'Intakes', 'Cases']);
    assert.deepEqual(section('Intakes by status').rows, [
      { status: 'received', count: 2 },
      { status: 'linked', count: 1 },
      { status: 'total', count: 3 },
    ]);
    assert.deepEqual(section('Cases by status').rows, [
      { status: 'open', count: 1 },
      { status: 'referred', count: 1 },
      { status: 'total', count: 2 },
    ]);
    const intakeIds = section('Intakes').rows.map((r) => r.id);
    assert.deepEqual(intakeIds, [...inside].reverse().map((i) => i.id), 'newest first');
    assert.deepEqual(section('Cases').rows.map((r) => r.id), [...cases].reverse().map((c) => c.id));
    const first = section('Intakes').rows.find((r) => r.id === inside[0]!.id)!;
    assert.equal(first.loss, '1200.50 EUR');
    assert.equal(first.summary, `paid to GB82 **** **** **** 5432 (${tag})`);

    const json = renderJson(content).toString();
    const csv = renderCsv(content).toString();
    for (const out of [json, csv]) {
      for (const absent of [before.id, atEnd.id, oldCase.id, IBAN, 'No intakes in this period']) assert.ok(!out.includes(absent), `${absent} must not appear`);
      for (const present of [...inside, ...cases].map((r) => r.id)) assert.ok(out.includes(present), `${present} is listed`);
    }
  });
});
