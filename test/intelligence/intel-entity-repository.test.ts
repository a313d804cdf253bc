// The entity list's repository on a real PostgreSQL: the loss definition (distinct cases and intakes
// per currency), min_loss on the largest per-currency total, keyset pagination in every order, and
// the streaming variant for exports.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { listIntelEntities, refreshEntityLoss, streamIntelEntities, type IntelEntityRow } from '../../db/repositories/intelligence/intel-entity-repository';
import { INTEL_ENTITY_ORDERS } from '../../domain/intelligence/entity-explorer';
import { testKnex } from '../support/platform';

const uniq = () => randomUUID().slice(0, 8);

/** A loss band no other test reaches: 10^12 plus a random multiple of 10^7. */
const band = () => 1_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 10_000_000;

async function intake(knex: Knex, amount: string | null, currency: string | null): Promise<string> {
  const id = randomUUID();
  await knex('intakes').insert({ id, source: 'web', summary: 'test', submitted_by: 't@example.org', loss_amount: amount, loss_currency: currency });
  return id;
}

async function kase(knex: Knex, amount: string | null, currency: string | null): Promise<string> {
  const [row] = (await knex('cases').insert({ title: 'test', created_by: 't@example.org', loss_amount: amount, loss_currency: currency }).returning('id')) as Array<{ id: string }>;
  return row!.id;
}

describe('intelligence entity list (repository)', function () {
  this.timeout(60_000);
  let knex: Knex;
  before(() => {
    knex = testKnex();
  });

  it('sums loss per currency over the distinct cases and intakes that mention an entity; victims are distinct intakes', async () => {
    const tag = uniq();
    const c1 = await kase(knex, '1000.00', 'EUR');
    const i1 = await intake(knex, '250.50', 'EUR');
    const i2 = await intake(knex, '300.00', 'USD');
    const i3 = await intake(knex, null, null);
    const wallet = { type: 'domain' as const, value: `loss-${tag}.example` };
    const other = { type: 'domain' as const, value: `other-${tag}.example` };
    const [w] = (await recordSourceEntities(knex, { kind: 'case', id: c1 }, [wallet])).entities;
    await recordSourceEntities(knex, { kind: 'intake', id: i1 }, [wallet, other]);
    await recordSourceEntities(knex, { kind: 'intake', id: i1 }, [wallet]);
    await recordSourceEntities(knex, { kind: 'intake', id: i2 }, [wallet]);
    await recordSourceEntities(knex, { kind: 'intake', id: i3 }, [wallet]);
    await recordSourceEntities(knex, { kind: 'investigation', id: `scan-${tag}` }, [wallet]);
    const o = (await knex('entities').where({ type: 'domain', value: other.value }).first()) as { id: string };
    await refreshEntityLoss(knex, [w!.id, o.id]);
    await refreshEntityLoss(knex, [w!.id, o.id]);
    const row = await knex('entities').where({ id: w!.id }).first();
    assert.deepEqual(row.loss_by_currency, { EUR: '1250.50', USD: '300.00' });
    assert.equal(row.loss_max, '1250.50');
    assert.equal(row.victim_count, 3);
    const orow = await knex('entities').where({ id: o.id }).first();
    assert.deepEqual(orow.loss_by_currency, { EUR: '250.50' });
    assert.equal(orow.loss_max, '250.50');
    assert.equal(orow.victim_count, 1);
  });

  it('filters on entity type and min_loss (largest per-currency total) and pages every order without skipping or repeating', async () => {
    const tag = uniq();
    const base = band();
    const ids: string[] = [];
    // Five persons with losses base+0..base+4 (two sharing one), one below the band.
    const amounts = [0, 1, 1, 3, 4, -5];
    for (const [k, delta] of amounts.entries()) {
      const i = await intake(knex, String(base + delta), 'GBP');
      const [e] = (await recordSourceEntities(knex, { kind: 'intake', id: i }, [{ type: 'person', value: `Person ${tag} ${k}` }])).entities;
      ids.push(e!.id);
    }
    await refreshEntityLoss(knex, ids);
    for (const orderBy of INTEL_ENTITY_ORDERS) {
      const seen: IntelEntityRow[] = [];
      let after;
      for (let pages = 0; pages < 100; pages++) {
        const page = await listIntelEntities(knex, { entityType: 'person', minLoss: base, orderBy }, { limit: 2, after });
        seen.push(...page.rows);
        if (!page.next) break;
        after = page.next;
      }
      assert.equal(new Set(seen.map((r) => r.id)).size, seen.length, `${orderBy}: no entity twice`);
      assert.ok(seen.every((r) => r.type === 'person' && Number(r.loss_max) >= base), `${orderBy}: filters hold`);
      const mine = seen.filter((r) => ids.includes(r.id));
      assert.deepEqual(mine.map((r) => r.id).sort(), ids.slice(0, 5).sort(), `${orderBy}: every entity in the band, none below`);
      if (orderBy === 'loss') {
        assert.deepEqual(
          mine.map((r) => Number(r.loss_max) - base),
          [4, 3, 1, 1, 0],
        );
        const tied = mine.filter((r) => Number(r.loss_max) === base + 1).map((r) => r.id);
        assert.deepEqual(tied, [...tied].sort().reverse(), 'ties broken by id descending');
      }
    }
    const streamed: string[] = [];
    for await (const r of streamIntelEntities(knex, { entityType: 'person', minLoss: base, orderBy: 'loss' }, 2)) streamed.push(r.id);
    const listed = (await listIntelEntities(knex, { entityType: 'person', minLoss: base, orderBy: 'loss' }, { limit: 500 })).rows.map((r) => r.id);
    assert.deepEqual(streamed, listed);
  });
});
