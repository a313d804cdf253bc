// The case repository on a real PostgreSQL: creation, idempotent links, the status machine, and
// loss totals per currency in exact decimal arithmetic.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { caseLossTotals, createCase, findCase, linkToCase, listCaseLinks, updateCase } from '../../db/repositories/cases/case-repository';
import { testKnex } from '../support/platform';

describe('case repository', function () {
  this.timeout(60_000);
  let knex: Knex;
  before(() => {
    knex = testKnex();
  });

  it('creates a case (open, medium by default) and finds it', async () => {
    const created = await knex.transaction((trx) => createCase(trx, { title: 'Pig butchering ring' }, 'ana@example.org'));
    assert.equal(created.status, 'open');
    assert.equal(created.priority, 'medium');
    const found = await findCase(knex, created.id);
    assert.equal(found?.title, 'Pig butchering ring');
    assert.equal(found?.created_by, 'ana@example.org');
  });

  it('links a target once however often it is linked, and answers null for a missing case', async () => {
    const c = await createCase(knex, { title: 'links' }, 'ana@example.org');
    const target = { type: 'entity' as const, id: randomUUID() };
    const first = await knex.transaction((trx) => linkToCase(trx, c.id, target, 'ana@example.org'));
    const again = await linkToCase(knex, c.id, target, 'bob@example.org');
    assert.equal(first?.linked, true);
    assert.equal(again?.linked, false);
    assert.equal(again?.link.linked_by, 'ana@example.org');
    assert.equal((await listCaseLinks(knex, c.id)).length, 1);
    assert.equal(await linkToCase(knex, randomUUID(), target, 'ana@example.org'), null);
  });

  it('refuses a status move the machine does not allow and names the allowed ones', async () => {
    const c = await createCase(knex, { title: 'machine' }, 'ana@example.org');
    const closed = await updateCase(knex, c.id, { status: 'closed' });
    assert.equal(closed.ok, true);
    const illegal = await updateCase(knex, c.id, { status: 'referred' });
    assert.deepEqual(illegal, { ok: false, reason: 'illegal_transition', from: 'closed', to: 'referred', allowed: ['open'] });
    const reopened = await updateCase(knex, c.id, { status: 'open' });
    assert.equal(reopened.ok && reopened.row.status, 'open');
  });

  it('sums the case loss per currency exactly (no float rounding)', async () => {
    const c = await createCase(knex, { title: 'loss', loss_amount: '0.10', loss_currency: 'EUR' }, 'ana@example.org');
    assert.deepEqual(await caseLossTotals(knex, c.id), [{ currency: 'EUR', amount: '0.10' }]);
    const big = await createCase(knex, { title: 'big', loss_amount: '999999999999999999.99', loss_currency: 'USD' }, 'ana@example.org');
    assert.deepEqual(await caseLossTotals(knex, big.id), [{ currency: 'USD', amount: '999999999999999999.99' }]);
  });
  it('adds the losses of linked intakes per currency (intakes.loss_amount numeric, loss_currency varchar) to the case\'s own', async () => {
    // A temporary intakes table with the intake feature's loss columns (it shadows the real one in this transaction).
    await knex
      .transaction(async (trx) => {
        await trx.raw('CREATE TEMP TABLE intakes (id uuid PRIMARY KEY, loss_amount numeric(20,2), loss_currency varchar(3)) ON COMMIT DROP');
        const c = await createCase(trx, { title: 'with intakes', loss_amount: '100.05', loss_currency: 'EUR' }, 'ana@example.org');
        const rows = [
          { id: randomUUID(), loss_amount: '0.10', loss_currency: 'EUR' },
          { id: randomUUID(), loss_amount: '0.20', loss_currency: 'EUR' },
          { id: randomUUID(), loss_amount: '5000.00', loss_currency: 'USD' },
          { id: randomUUID(), loss_amount: null, loss_currency: null },
          { id: randomUUID(), loss_amount: '7.00', loss_currency: 'GBP' }, // not linked
        ];
        await trx('intakes').insert(rows);
        for (const r of rows.slice(0, 4)) await linkToCase(trx, c.id, { type: 'intake', id: r.id }, 'ana@example.org');
        assert.deepEqual(await caseLossTotals(trx, c.id), [
          { currency: 'EUR', amount: '100.35' },
          { currency: 'USD', amount: '5000.00' },
        ]);
        throw new Error('rollback');
      })
      .catch((err: Error) => {
        if (err.message !== 'rollback') throw err;
      });
  });
});
