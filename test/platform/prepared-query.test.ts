// db/prepared-query.ts: the busiest reads go to PostgreSQL as named statements, one per SQL shape.
import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { prepared } from '../../db/prepared-query';

const nameOf = (q: Knex.QueryBuilder | Knex.Raw) => (q.toSQL() as unknown as { options: { name?: string } }).options.name;

describe('prepared queries', function () {
  this.timeout(30_000);
  let knex: Knex;

  before(() => {
    // One connection: the statement prepared by one query is visible to the next.
    knex = createKnex(process.env.DATABASE_URL!, 1);
  });
  after(() => knex.destroy());

  it('names a query after its SQL text: one name per shape, whatever the values', () => {
    const a = nameOf(prepared(knex('entities').where({ type: 'domain' }).select('id')));
    const b = nameOf(prepared(knex('entities').where({ type: 'wallet' }).select('id')));
    const c = nameOf(prepared(knex('entities').where({ type: 'wallet', value: 'x' }).select('id')));
    assert.match(a!, /^fip_[0-9a-f]{24}$/);
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  it('names a raw query from its written SQL when its values are plain, else from its compiled text', () => {
    const plain = (v: unknown) => nameOf(prepared(knex.raw('SELECT ?::text AS v', [v as string])));
    assert.equal(plain('a'), plain(['b']));
    assert.notEqual(plain('a'), nameOf(prepared(knex.raw('SELECT ?::int AS v', [1]))));
    // An identifier or a query among the values becomes part of the text: each text its own name.
    const ident = (col: string) => nameOf(prepared(knex.raw('SELECT ?? FROM entities', [col])));
    assert.notEqual(ident('id'), ident('type'));
    const inner = (sql: string) => nameOf(prepared(knex.raw('SELECT (?) AS v', [knex.raw(sql)])));
    assert.notEqual(inner('SELECT 1'), inner('SELECT 2'));
  });

  it('runs as a named statement of the session, answering the rows of each call', async () => {
    const q = (n: number) => prepared(knex.raw('SELECT ?::int + 1 AS v', [n]));
    assert.deepEqual((await q(1)).rows, [{ v: 2 }]);
    assert.deepEqual((await q(41)).rows, [{ v: 42 }]);
    const name = nameOf(q(0));
    const { rows } = await knex.raw('SELECT name, from_sql FROM pg_prepared_statements WHERE name = ?', [name!]);
    assert.deepEqual(rows, [{ name, from_sql: false }]);
  });
});
