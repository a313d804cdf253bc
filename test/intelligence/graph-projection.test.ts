// The in-memory graph (services/intelligence/graph-projection.ts) against the SQL traversal it
// replaces: the same answers on random graphs with ties, filters and caps; and fresh: edges written
// through the platform's upsert path, weights that change, a transaction that commits after a read
// began, node fields changed after they were cached (also by racing writers, and by a slow read of
// uncached fields that a feed read overtakes), and deletes (which make it rebuild).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { entityNodes } from '../../db/repositories/intelligence/intel-read-repository';
import { traverseGraph, type TraversalOptions } from '../../db/repositories/intelligence/graph-traversal-repository';
import { RELATIONSHIP_KINDS, type RelationshipKind } from '../../domain/intelligence/entity-types';
import { GraphAdjacency } from '../../domain/intelligence/adjacency';
import { uuidWords } from '../../domain/intelligence/uuid-words';
import { GraphProjection, graphProjectionFor, traverseRelationshipGraph } from '../../services/intelligence/graph-projection';
import { testKnex } from '../support/platform';

/** A deterministic pseudo-random sequence (mulberry32), so that a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface RandomGraph {
  nodes: string[];
  isolated: string;
  edges: Array<{ id: string; src: string; dst: string; kind: RelationshipKind }>;
}

/** `n` tagged entities, a hub linked to a third of them, and about 3n random edges of weights 1-4 (many ties). */
async function randomGraph(knex: Knex, random: () => number, n: number): Promise<RandomGraph> {
  const tag = randomUUID().slice(0, 8);
  const now = new Date();
  const entities = Array.from({ length: n + 1 }, (_, i) => ({ id: randomUUID(), type: 'domain', value: `g${i}-${tag}.example`, display_value: `g${i}-${tag}.example`, first_seen_at: now, last_seen_at: now }));
  await knex('entities').insert(entities);
  const nodes = entities.slice(0, n).map((e) => e.id);
  const seen = new Set<string>();
  const rows: Array<{ id: string; src_entity_id: string; dst_entity_id: string; kind: RelationshipKind; weight: number; first_seen_at: Date; last_seen_at: Date }> = [];
  const add = (a: string, b: string, kind: RelationshipKind) => {
    if (a === b) return;
    const [src, dst] = kind === 'co_occurs' && b < a ? [b, a] : [a, b];
    const key = `${src}|${dst}|${kind}`;
    if (seen.has(key)) return;
    seen.add(key);
    rows.push({ id: randomUUID(), src_entity_id: src, dst_entity_id: dst, kind, weight: 1 + Math.floor(random() * 4), first_seen_at: now, last_seen_at: now });
  };
  const kinds: RelationshipKind[] = ['co_occurs', 'links_to', 'hosts', 'pays_to'];
  for (let i = 1; i < n; i += 3) add(nodes[0]!, nodes[i]!, random() < 0.5 ? 'co_occurs' : 'links_to');
  for (let k = 0; k < 3 * n; k++) add(nodes[Math.floor(random() * n)]!, nodes[Math.floor(random() * n)]!, kinds[Math.floor(random() * kinds.length)]!);
  await knex('relationships').insert(rows);
  return { nodes, isolated: entities[n]!.id, edges: rows.map((r) => ({ id: r.id, src: r.src_entity_id, dst: r.dst_entity_id, kind: r.kind })) };
}

function randomOptions(random: () => number): TraversalOptions {
  const caps = [1, 2, 3, 5, 8, 13, 40, 500];
  const kinds = RELATIONSHIP_KINDS.filter(() => random() < 0.35);
  return {
    depth: 1 + Math.floor(random() * 4),
    maxNodes: caps[Math.floor(random() * caps.length)]!,
    edgeKinds: random() < 0.4 && kinds.length ? kinds : undefined,
    minWeight: random() < 0.3 ? 1 + Math.floor(random() * 3) : 0,
  };
}

describe('graph traversal in memory', () => {
  let knex: Knex;

  before(async () => {
    knex = testKnex();
  });

  it('reads UUIDs as four words and refuses what is not one', () => {
    assert.deepEqual(uuidWords('00000000-0000-4000-8000-0000000000ff'), [0, 0x4000, 0x80000000, 0xff]);
    assert.deepEqual(uuidWords('FFFFFFFF-0000-4000-8000-000000000001'), [0xffffffff, 0x4000, 0x80000000, 1]);
    assert.equal(uuidWords('00000000-0000-4000-8000-00000000000g'), null);
    assert.equal(uuidWords('00000000000040008000000000000001'), null);
  });

  it('builds its index in slices, letting the event loop run between them', async () => {
    const g = new GraphAdjacency();
    const words = (n: number) => [Math.imul(n, 2654435761) >>> 0, n, 0x4000, 7];
    for (let e = 0; e < 300_000; e++) g.loadEdge(words(e + 1_000_000), words(e % 50_000), words((e * 7 + 1) % 50_000), 1, 1 + (e % 5));
    const events: string[] = [];
    const ticks = setInterval(() => events.push('timer'), 0);
    try {
      await g.buildIndex();
      events.push('built');
    } finally {
      clearInterval(ticks);
    }
    assert.ok(events.indexOf('built') >= 2, `timers ran ${events.indexOf('built')} times during the build`);
    const walked = g.traverse([g.nodeNumber('00000000-0000-0000-0000-400000000007')], { depth: 1, maxNodes: 3 });
    assert.equal(walked.nodes.length, 3);
    assert.equal(walked.truncated, true);
  });

  it('answers exactly as the SQL traversal on random graphs (ties, kinds, min_weight, caps, several seeds), before and after edges are added and reweighted', async () => {
    const random = rng(20261122);
    const graphs = [await randomGraph(knex, random, 60), await randomGraph(knex, random, 25)];
    const projection = graphProjectionFor(knex);
    await projection.warm();
    assert.ok(projection.ready, 'the projection was built');
    let compared = 0;
    let truncatedSeen = 0;
    let edgesSeen = 0;
    const compareRandomTraversals = async (g: RandomGraph, times: number) => {
      for (let k = 0; k < times; k++) {
        const count = 1 + Math.floor(random() * 3);
        const seeds = [...new Set(Array.from({ length: count }, () => g.nodes[Math.floor(random() * g.nodes.length)]!))];
        if (random() < 0.15) seeds.push(g.isolated);
        const opts = randomOptions(random);
        const sql = await traverseGraph(knex, seeds, opts);
        const walked = await projection.traverse(seeds, opts);
        assert.ok(walked, 'the projection answered (not the SQL fallback)');
        const memory = await traverseRelationshipGraph(knex, seeds, opts, { inMemory: true });
        assert.deepEqual(memory, sql, `seeds ${seeds.join(',')} options ${JSON.stringify(opts)}`);
        compared++;
        if (sql.truncated) truncatedSeen++;
        edgesSeen += sql.edges.length;
      }
    };
    for (const g of graphs) await compareRandomTraversals(g, 40);
    // Then changes after the build (new edges, and weights that move up and down across ties), which
    // the projection holds in its overlay.
    const g = graphs[0]!;
    const now = new Date();
    const extra = Array.from({ length: 40 }, () => [g.nodes[Math.floor(random() * g.nodes.length)]!, g.nodes[Math.floor(random() * g.nodes.length)]!] as const)
      .filter(([a, b]) => a !== b)
      .map(([a, b]) => ({ id: randomUUID(), src_entity_id: a, dst_entity_id: b, kind: 'member_of' as const, weight: 1 + Math.floor(random() * 4), first_seen_at: now, last_seen_at: now }));
    await knex('relationships').insert(extra).onConflict(['src_entity_id', 'dst_entity_id', 'kind']).ignore();
    for (const e of g.edges.filter(() => random() < 0.3)) await knex('relationships').where({ id: e.id }).update({ weight: 1 + Math.floor(random() * 4) });
    await compareRandomTraversals(g, 40);
    // The cases compared cover both sides of the caps and real edges, not only empty answers.
    assert.equal(compared, 120);
    assert.ok(truncatedSeen >= 15 && truncatedSeen <= 105, `truncated in ${truncatedSeen} of 120`);
    assert.ok(edgesSeen >= 300, `${edgesSeen} edges compared`);
    assert.ok(projection.ready, 'still in memory: the changes were applied, not rebuilt');
  });

  it('sees edges and weights written through the upsert path by the next request', async () => {
    const tag = randomUUID().slice(0, 8);
    const projection = graphProjectionFor(knex);
    const a = { type: 'domain' as const, value: `fresh-a-${tag}.example` };
    const b = { type: 'domain' as const, value: `fresh-b-${tag}.example` };
    await recordSourceEntities(knex, { kind: 'manual', id: `m1-${tag}`, observedAt: new Date() }, [a]);
    const aId = ((await knex('entities').where(a).first('id')) as { id: string }).id;
    await projection.warm();
    assert.ok(projection.ready);
    const before = await traverseRelationshipGraph(knex, [aId], { depth: 1, maxNodes: 10 }, { inMemory: true });
    assert.equal(before.edges.length, 0);

    await recordSourceEntities(knex, { kind: 'manual', id: `m2-${tag}`, observedAt: new Date() }, [a, b]);
    const once = await traverseRelationshipGraph(knex, [aId], { depth: 1, maxNodes: 10 }, { inMemory: true });
    assert.deepEqual(once.edges.map((e) => [e.kind, e.weight]), [['co_occurs', 1]]);
    assert.equal(once.nodes.length, 2);

    // The same source again adds no weight; another source adds one.
    await recordSourceEntities(knex, { kind: 'manual', id: `m2-${tag}`, observedAt: new Date() }, [a, b]);
    await recordSourceEntities(knex, { kind: 'manual', id: `m3-${tag}`, observedAt: new Date() }, [a, b]);
    const twice = await traverseRelationshipGraph(knex, [aId], { depth: 1, maxNodes: 10 }, { inMemory: true });
    assert.deepEqual(twice.edges.map((e) => [e.kind, e.weight]), [['co_occurs', 2]]);
    assert.deepEqual(twice, await traverseGraph(knex, [aId], { depth: 1, maxNodes: 10 }));
    // A heavier edge now comes first at its level, and takes the only room left.
    const c = { type: 'domain' as const, value: `fresh-c-${tag}.example` };
    for (let k = 0; k < 3; k++) await recordSourceEntities(knex, { kind: 'manual', id: `m4-${tag}-${k}`, observedAt: new Date() }, [a, c]);
    const capped = await traverseRelationshipGraph(knex, [aId], { depth: 1, maxNodes: 2 }, { inMemory: true });
    assert.deepEqual(capped.edges.map((e) => e.weight), [3]);
    assert.equal(capped.truncated, true);
    assert.deepEqual(capped, await traverseGraph(knex, [aId], { depth: 1, maxNodes: 2 }));
  });

  it('does not lose an edge whose transaction commits after a read that began before the commit', async () => {
    const random = rng(7);
    const g = await randomGraph(knex, random, 6);
    const projection = graphProjectionFor(knex);
    await projection.warm();
    const [x, y] = [g.nodes[4]!, g.nodes[5]!];
    const id = randomUUID();
    const seenInside = await knex.transaction(async (trx) => {
      await trx('relationships').insert({ id, src_entity_id: x, dst_entity_id: y, kind: 'pays_to', weight: 9, first_seen_at: new Date(), last_seen_at: new Date() });
      // A read of the feed while the writer is still open: it must not see the row, nor skip it later.
      const during = await projection.traverse([x], { depth: 1, maxNodes: 50 });
      return during!.edges.some((e) => during!.graph.edgeId(e.edge) === id);
    });
    assert.equal(seenInside, false);
    const after = await traverseRelationshipGraph(knex, [x], { depth: 1, maxNodes: 50 }, { inMemory: true });
    assert.ok(after.edges.some((e) => e.id === id && e.weight === 9), 'the committed edge is in the next answer');
    assert.deepEqual(after, await traverseGraph(knex, [x], { depth: 1, maxNodes: 50 }));
  });

  it('answers node fields written after they were cached: committed ones by the next request, uncommitted ones not', async () => {
    const g = await randomGraph(knex, rng(31), 10);
    const projection = graphProjectionFor(knex);
    await projection.warm();
    const seed = g.nodes[0]!;
    const opts = { depth: 2, maxNodes: 100 };
    const first = await traverseRelationshipGraph(knex, [seed], opts, { inMemory: true });
    assert.ok(first.nodes.length >= 3, `${first.nodes.length} nodes`);
    const cached = projection.stats()!.cachedNodeFields;
    // A second answer reads no entity from PostgreSQL: the nodes are cached.
    assert.ok(cached >= first.nodes.length, `${cached} node fields cached`);
    const target = first.nodes[first.nodes.length - 1]!;
    await knex('entities').where({ id: target.id }).update({ risk_score: 87, display_value: `renamed-${target.value}` });
    const second = await traverseRelationshipGraph(knex, [seed], opts, { inMemory: true });
    const seen = second.nodes.find((n) => n.id === target.id)!;
    assert.deepEqual([seen.risk_score, seen.display_value], [87, `renamed-${target.value}`]);
    assert.deepEqual(second, await traverseGraph(knex, [seed], opts));
    // A writer still open when a request reads the feed: its fields are not answered, nor lost once it commits.
    const during = await knex.transaction(async (trx) => {
      await trx('entities').where({ id: target.id }).update({ risk_score: 12 });
      return traverseRelationshipGraph(knex, [seed], opts, { inMemory: true });
    });
    assert.equal(during.nodes.find((n) => n.id === target.id)!.risk_score, 87);
    const after = await traverseRelationshipGraph(knex, [seed], opts, { inMemory: true });
    assert.equal(after.nodes.find((n) => n.id === target.id)!.risk_score, 12);
    assert.deepEqual(after, await traverseGraph(knex, [seed], opts));
  });

  it('with the node-field cache off, keeps no fields and reads them fresh for every answer', async () => {
    const g = await randomGraph(knex, rng(17), 5);
    const projection = new GraphProjection(knex, undefined, 0);
    await projection.warm();
    const seed = g.nodes[0]!;
    const fieldsOf = async () => {
      const walked = await projection.traverse([seed], { depth: 1, maxNodes: 10 });
      return projection.nodeFields(walked!.nodes.map((n) => walked!.graph.nodes.string(n.node)));
    };
    assert.equal((await fieldsOf()).get(seed)!.risk_score, null);
    await knex('entities').where({ id: seed }).update({ risk_score: 41 });
    assert.equal((await fieldsOf()).get(seed)!.risk_score, 41);
    assert.equal(projection.stats()!.cachedNodeFields, 0);
  });

  it('does not cache fields read before a write that a feed read completed meanwhile has already passed', async () => {
    const g = await randomGraph(knex, rng(13), 6);
    const target = g.nodes[1]!;
    // The reads of uncached fields go to PostgreSQL as always, then wait until the test lets them
    // return: a slow answer, for which the rest of the race is ordered by hand.
    let release: () => void = () => undefined;
    let readStarted: () => void = () => undefined;
    const started = new Promise<void>((r) => (readStarted = r));
    const gate = new Promise<void>((r) => (release = r));
    let slow = true;
    const projection = new GraphProjection(knex, undefined, 100, async (k, ids) => {
      const rows = await entityNodes(k, ids);
      if (slow && ids.includes(target)) {
        readStarted();
        await gate;
      }
      return rows;
    });
    await projection.warm();
    const opts = { depth: 1, maxNodes: 50 };
    // Request A reads the target's fields (not cached yet) before the write, and is slow to get them.
    const walkA = await projection.traverse([target], opts);
    const answerA = projection.nodeFields(walkA!.nodes.map((n) => walkA!.graph.nodes.string(n.node)));
    await started;
    // The write commits, and request B's feed read (which begins after it) completes while A waits.
    await knex('entities').where({ id: target }).update({ risk_score: 77 });
    assert.ok(await projection.traverse([g.nodes[0]!], opts));
    release();
    assert.notEqual((await answerA).get(target)!.risk_score, 77, 'A read the fields before the write');
    slow = false;
    // Request C, after both: the feed hands the target over no more, so only a read of its own is fresh.
    const walkC = await projection.traverse([target], opts);
    const answerC = await projection.nodeFields(walkC!.nodes.map((n) => walkC!.graph.nodes.string(n.node)));
    assert.equal(answerC.get(target)!.risk_score, 77);
  });

  it('never answers node fields older than the request, with writers racing readers and a cache too small to hold the walk', async () => {
    const g = await randomGraph(knex, rng(11), 30);
    // 12 entries for walks of up to 30 nodes: most of each walk's nodes are read from entities,
    // while feed reads of the other readers complete; those reads race the writers' commits.
    const projection = new GraphProjection(knex, undefined, 12);
    await projection.warm();
    assert.ok(projection.ready);
    // Each write raises one entity's display value by one (v000000001, v000000002, ...) under its row
    // lock, so the committed value of an entity only grows: an answer must show at least the value
    // committed before the request began.
    const bump = `display_value = CASE WHEN display_value ~ '^v[0-9]{9}$'
      THEN 'v' || lpad((substring(display_value FROM 2)::bigint + 1)::text, 9, '0') ELSE 'v000000001' END`;
    const counter = (v: string) => (/^v\d{9}$/.test(v) ? Number(v.slice(1)) : 0);
    const random = rng(12);
    let stop = false;
    let writes = 0;
    let answers = 0;
    let fieldsChecked = 0;
    const writer = async () => {
      while (!stop) {
        const id = g.nodes[Math.floor(random() * g.nodes.length)]!;
        const hold = random() < 0.3 ? Math.floor(random() * 4) : 0;
        await knex.transaction(async (trx) => {
          await trx.raw(`UPDATE entities SET ${bump} WHERE id = ?`, [id]);
          if (hold) await new Promise((r) => setTimeout(r, hold));
        });
        writes++;
      }
    };
    const reader = async (seed: string) => {
      while (!stop) {
        const before = (await knex('entities').whereIn('id', g.nodes).select('id', 'display_value')) as Array<{ id: string; display_value: string }>;
        const committed = new Map(before.map((r) => [r.id, counter(r.display_value)]));
        const walked = await projection.traverse([seed], { depth: 4, maxNodes: 31 });
        assert.ok(walked);
        const fields = await projection.nodeFields(walked.nodes.map((n) => walked.graph.nodes.string(n.node)));
        for (const [id, row] of fields) {
          assert.ok(counter(row.display_value) >= committed.get(id)!, `${id}: answered ${row.display_value}, committed before the request: ${committed.get(id)}`);
          fieldsChecked++;
        }
        answers++;
      }
    };
    const runs = [writer(), writer(), ...[0, 1, 2, 3].map((i) => reader(g.nodes[i * 3]!))];
    await new Promise((r) => setTimeout(r, 2000));
    stop = true;
    await Promise.all(runs);
    assert.ok(writes >= 20 && answers >= 10 && fieldsChecked >= 100, `${writes} writes, ${answers} answers, ${fieldsChecked} fields checked`);
  });

  it('keeps a sighting that changes no node field out of the entities\' feed', async () => {
    const tag = randomUUID().slice(0, 8);
    const e = { type: 'domain' as const, value: `quiet-${tag}.example` };
    await recordSourceEntities(knex, { kind: 'manual', id: `q1-${tag}`, observedAt: new Date() }, [e]);
    const before = (await knex('entities').where(e).first('write_xid', 'sighting_count')) as { write_xid: string; sighting_count: number };
    assert.notEqual(before.write_xid, '0', 'an insert sets write_xid');
    await recordSourceEntities(knex, { kind: 'manual', id: `q2-${tag}`, observedAt: new Date() }, [e]);
    const after = (await knex('entities').where(e).first('write_xid', 'sighting_count')) as { write_xid: string; sighting_count: number };
    assert.equal(after.sighting_count, before.sighting_count + 1);
    assert.equal(after.write_xid, before.write_xid);
  });

  it('rebuilds after an entity is deleted, and no longer answers it', async () => {
    const g = await randomGraph(knex, rng(5), 4);
    const projection = graphProjectionFor(knex);
    await projection.warm();
    const opts = { depth: 1, maxNodes: 10 };
    const cachedAnswer = await traverseRelationshipGraph(knex, [g.isolated], opts, { inMemory: true });
    assert.deepEqual(cachedAnswer.nodes.map((n) => n.id), [g.isolated]);
    assert.ok((await projection.traverse([g.isolated], opts)) !== null, 'answered in memory');
    await knex('entities').where({ id: g.isolated }).del();
    assert.equal(await projection.traverse([g.isolated], opts), null, 'the delete makes it rebuild');
    await projection.warm();
    assert.ok(projection.ready, 'rebuilt');
    assert.deepEqual((await traverseRelationshipGraph(knex, [g.isolated], opts, { inMemory: true })).nodes, []);
  });

  it('rebuilds after relationships are deleted, answering through SQL meanwhile', async () => {
    const random = rng(99);
    const g = await randomGraph(knex, random, 12);
    const projection = graphProjectionFor(knex);
    await projection.warm();
    const seed = g.nodes[0]!;
    const opts = { depth: 2, maxNodes: 100 };
    const gone = g.edges.find((e) => e.src === seed || e.dst === seed)!;
    await knex('relationships').where({ id: gone.id }).del();
    // The next read sees the reset: no in-memory answer until rebuilt, and the SQL answer lacks the edge.
    assert.equal(await projection.traverse([seed], opts), null);
    const meanwhile = await traverseRelationshipGraph(knex, [seed], opts, { inMemory: true });
    assert.ok(!meanwhile.edges.some((e) => e.id === gone.id));
    await projection.warm();
    assert.ok(projection.ready, 'rebuilt');
    const rebuilt = await projection.traverse([seed], opts);
    assert.ok(rebuilt && !rebuilt.edges.some((e) => rebuilt.graph.edgeId(e.edge) === gone.id));
    assert.deepEqual(await traverseRelationshipGraph(knex, [seed], opts, { inMemory: true }), await traverseGraph(knex, [seed], opts));
  });
});
