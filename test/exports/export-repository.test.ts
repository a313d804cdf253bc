// The indicator export's reads (db/repositories/exports/export-repository.ts) on real PostgreSQL: keyset
// batches that neither skip nor repeat an indicator across batch boundaries, the filters, and the
// work of one batch: each batch's query reads no more entities than lie in its own key range,
// wherever the batch starts (an export of a million indicators read the entities index from its
// start for every batch).
// Each test writes its rows inside a transaction it rolls back, so no other test sees them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { streamIndicatorPages, streamIndicators } from '../../db/repositories/exports/export-repository';
import { testKnex } from '../support/platform';

/** `n` domain entities with their indicators, category `tag`, confidence i % 100; answers their ids in order. */
async function seedIndicators(trx: Knex.Transaction, tag: string, n: number): Promise<string[]> {
  const { rows } = (await trx.raw(
    `WITH e AS (
       INSERT INTO entities (id, type, value, display_value, attributes, first_seen_at, last_seen_at, sighting_count)
       SELECT gen_random_uuid(), 'domain', 'ix-' || ?::text || '-' || g || '.example', 'ix-' || ?::text || '-' || g || '.example', '{}', now(), now(), 1
         FROM generate_series(1, ?::int) g
       RETURNING id, value)
     INSERT INTO indicators (entity_id, category, confidence, valid_from)
     SELECT e.id, ?::text, (split_part(split_part(e.value, '-', 3), '.', 1))::int % 100, now() FROM e
     RETURNING entity_id::text AS id`,
    [tag, tag, n, tag],
  )) as { rows: Array<{ id: string }> };
  return rows.map((r) => r.id).sort();
}

describe('indicator export reads', function () {
  this.timeout(120_000);

  it('reads every filtered indicator once, in entity id order, across keyset batch boundaries, with its entity', async () => {
    await testKnex()
      .transaction(async (trx) => {
        const tag = `exprepo${randomUUID().replace(/-/g, "")}`;
        const ids = await seedIndicators(trx, tag, 1050);
        const rows = [];
        for await (const r of streamIndicators(trx, { category: tag }, 100)) rows.push(r);
        assert.deepEqual(
          rows.map((r) => r.entity_id),
          ids,
        );
        assert.ok(rows.every((r) => r.type === 'domain' && r.value.startsWith(`ix-${tag}-`) && r.valid_from instanceof Date));
        const strong = [];
        for await (const page of streamIndicatorPages(trx, { category: tag, min_confidence: 90 }, 7)) {
          assert.ok(page.length > 0 && page.length <= 7, `a batch of ${page.length}`);
          strong.push(...page);
        }
        assert.equal(strong.length, 100, 'confidence 90..99: 10 of every 100');
        assert.ok(strong.every((r) => r.confidence >= 90));
        assert.deepEqual(
          strong.map((r) => r.entity_id),
          [...strong.map((r) => r.entity_id)].sort(),
        );
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
  });

  it('reads timestamps as the same instants as pg parses them (microseconds truncated, before 1970 included)', async () => {
    await testKnex()
      .transaction(async (trx) => {
        const tag = `exprepo${randomUUID().replace(/-/g, '')}`;
        await seedIndicators(trx, tag, 1500);
        // Microseconds of every kind (…999, …000, …001), dates before and after the epoch.
        await trx.raw(
          `UPDATE indicators SET
             valid_from = timestamptz '1969-12-31 23:59:59.999999+00' + (abs(hashtext(entity_id::text)) % 2000000000)::bigint * interval '1 microsecond' * 997 * (CASE WHEN confidence % 2 = 0 THEN 1 ELSE -1 END),
             created_at = timestamptz '2026-11-22 10:00:00.000999+00' + confidence * interval '0.001001 second',
             updated_at = timestamptz '2026-11-22 10:00:00.000999+00' + confidence * interval '0.001001 second' + interval '0.000999 second'
           WHERE category = ?`,
          [tag],
        );
        const parsed = new Map(
          ((await trx('indicators').select('entity_id', 'valid_from', 'created_at', 'updated_at').where('category', tag)) as Array<{ entity_id: string; valid_from: Date; created_at: Date; updated_at: Date }>).map((r) => [r.entity_id, r]),
        );
        let compared = 0;
        for await (const r of streamIndicators(trx, { category: tag }, 200)) {
          const p = parsed.get(r.entity_id)!;
          assert.deepEqual([r.valid_from.getTime(), r.created_at.getTime(), r.updated_at.getTime()], [p.valid_from.getTime(), p.created_at.getTime(), p.updated_at.getTime()], r.entity_id);
          compared++;
        }
        assert.equal(compared, 1500);
        assert.ok([...parsed.values()].some((p) => p.valid_from.getTime() < 0), 'some timestamps before 1970');
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
  });

  it('a batch late in the export reads only the entities in its own key range, not those before it', async () => {
    const knex = testKnex();
    await knex
      .transaction(async (trx) => {
        const tag = `exprepo${randomUUID().replace(/-/g, "")}`;
        await seedIndicators(trx, tag, 40_000);
        await trx.raw('ANALYZE entities');
        await trx.raw('ANALYZE indicators');
        // The SQL of each batch query, as the stream sends it.
        const queries: Array<{ sql: string; bindings: unknown[] }> = [];
        const onQuery = (q: { sql: string; bindings?: unknown[] }) => {
          if (/from "indicators"|from \(select/i.test(q.sql)) queries.push({ sql: q.sql, bindings: q.bindings ?? [] });
        };
        knex.on('query', onQuery);
        const lastKeys: string[] = [];
        try {
          for await (const page of streamIndicatorPages(trx, {}, 500)) {
            lastKeys.push(page[page.length - 1]!.entity_id);
            if (lastKeys.length >= 60) break;
          }
        } finally {
          knex.removeListener('query', onQuery);
        }
        assert.ok(queries.length >= 60, `${queries.length} batch queries`);
        const late = queries[59]!;
        const [{ 'QUERY PLAN': plan }] = (await trx.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${late.sql.replace(/\$\d+/g, '?')}`, late.bindings as Knex.RawBinding[])).rows as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
        const entityRows = rowsReadFrom(plan[0]!.Plan, 'entities');
        // The entities whose ids fall in the batch's own key range (other suites' entities included).
        const [{ count }] = (await trx('entities').where('id', '>', lastKeys[58]!).andWhere('id', '<=', lastKeys[59]!).count('* as count')) as Array<{ count: string }>;
        assert.ok(entityRows <= Number(count), `the 60th batch of 500 read ${entityRows} entity rows; ${count} entities lie in its key range`);
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
  });
});

class Rollback extends Error {}

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** Rows the plan's scans of `relation` produced (rows per loop times loops). */
function rowsReadFrom(node: PlanNode, relation: string): number {
  const own = node['Relation Name'] === relation ? node['Actual Rows'] * node['Actual Loops'] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsReadFrom(child, relation), 0);
}
