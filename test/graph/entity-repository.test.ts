// The graph's one upsert path on a real PostgreSQL: entities, sightings and co-occurrence edges in
// one transaction, idempotent under retries and concurrent calls.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { findEntityByValue, listSourceEntities, recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import type { Knex } from 'knex';
import { testKnex } from '../support/platform';

const uniq = () => randomUUID().slice(0, 8);

describe('graph upsert path (entity repository)', function () {
  this.timeout(60_000);
  let knex: Knex;
  before(() => {
    knex = testKnex();
  });

  it('records entities with a sighting each and co-occurrence edges between them, once however often it is called', async () => {
    const tag = uniq();
    const source = { kind: 'investigation' as const, id: `scan-${tag}` };
    const mentions = [
      { type: 'domain' as const, value: `Pay-${tag}.Example`, context: { page: 1 } },
      { type: 'email' as const, value: `Support-${tag}@Mail.Example` },
      { type: 'wallet' as const, value: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', attributes: { network: 'tron', token: 'USDT' } },
    ];
    const first = await recordSourceEntities(knex, source, mentions);
    assert.equal(first.entities.length, 3);
    assert.ok(first.entities.every((e) => e.new_sighting));
    assert.equal(first.edges_added, 3);
    const again = await recordSourceEntities(knex, source, mentions);
    assert.ok(again.entities.every((e) => !e.new_sighting));
    assert.equal(again.edges_added, 0);
    assert.deepEqual(again.entities.map((e) => e.id).sort(), first.entities.map((e) => e.id).sort());

    const ids = first.entities.map((e) => e.id);
    const edges = await knex('relationships').whereIn('src_entity_id', ids).whereIn('dst_entity_id', ids);
    assert.equal(edges.length, 3);
    for (const e of edges) {
      assert.equal(e.kind, 'co_occurs');
      assert.equal(e.weight, 1);
      assert.ok(e.src_entity_id < e.dst_entity_id, 'undirected edges are stored with ordered ids');
    }
    const domain = await findEntityByValue(knex, 'domain', `pay-${tag}.example`);
    assert.equal(domain?.sighting_count, 1);
    const listed = await listSourceEntities(knex, 'investigation', source.id);
    assert.deepEqual(listed.map((e) => e.type).sort(), ['domain', 'email', 'wallet']);
    assert.deepEqual(listed.find((e) => e.type === 'domain')!.context, { page: 1 });
  });

  it('keeps one indicator per url/domain/ip/email/wallet entity: created unclassified at amber, confidence rising with independent sightings, a new revision only on a change', async () => {
    const tag = uniq();
    const domain = { type: 'domain' as const, value: `ind-${tag}.example` };
    const phone = { type: 'phone' as const, value: '+44 20 7946 0958' };
    const first = await recordSourceEntities(knex, { kind: 'intake', id: `ind-a-${tag}` }, [domain, phone]);
    const domainId = first.entities.find((e) => e.type === 'domain')!.id;
    const phoneId = first.entities.find((e) => e.type === 'phone')!.id;
    const one = await knex('indicators').where({ entity_id: domainId }).first();
    assert.equal(one.category, 'unclassified');
    assert.equal(one.tlp, 'amber');
    assert.equal(one.confidence, 40);
    assert.equal(await knex('indicators').where({ entity_id: phoneId }).first(), undefined, 'phones are not indicators');

    await recordSourceEntities(knex, { kind: 'intake', id: `ind-a-${tag}` }, [domain]);
    assert.equal((await knex('indicators').where({ entity_id: domainId }).first()).revision, one.revision, 'a repeat changes nothing');

    await recordSourceEntities(knex, { kind: 'investigation', id: `ind-b-${tag}` }, [domain]);
    const two = await knex('indicators').where({ entity_id: domainId }).first();
    assert.equal(two.confidence, 55);
    assert.ok(BigInt(two.revision) > BigInt(one.revision));
    assert.equal(two.valid_from.getTime(), one.valid_from.getTime());
  });

  it('links the same entity across sources: one entity, two sightings, edge weight counts sources', async () => {
    const tag = uniq();
    const wallet = { type: 'wallet' as const, value: `0x${tag.padEnd(40, '0')}`.slice(0, 42) };
    const phone = { type: 'phone' as const, value: '+49 30 901820' };
    await recordSourceEntities(knex, { kind: 'intake', id: `intake-${tag}` }, [wallet, phone]);
    const r = await recordSourceEntities(knex, { kind: 'investigation', id: `scan-${tag}` }, [{ ...wallet, value: wallet.value.toUpperCase().replace('0X', '0x') }, phone]);
    assert.equal(r.edges_added, 1);
    const w = await findEntityByValue(knex, 'wallet', wallet.value);
    assert.equal(w?.sighting_count, 2);
    const edge = await knex('relationships').where({ kind: 'co_occurs' }).whereIn('src_entity_id', r.entities.map((e) => e.id)).whereIn('dst_entity_id', r.entities.map((e) => e.id)).first();
    assert.equal(edge.weight, 2);
  });

  it('reports invalid values and stores nothing for them', async () => {
    const tag = uniq();
    const r = await recordSourceEntities(knex, { kind: 'manual', id: `m-${tag}` }, [
      { type: 'email', value: 'nope' },
      { type: 'domain', value: `ok-${tag}.example` },
    ]);
    assert.deepEqual(r.rejected, [{ type: 'email', value: 'nope', reason: 'not a valid email' }]);
    assert.equal(r.entities.length, 1);
  });

  it('stores explicit directed links with their evidence, once per source', async () => {
    const tag = uniq();
    const link = { src: { type: 'domain' as const, value: `host-${tag}.example` }, dst: { type: 'ip' as const, value: '127.0.0.9' }, kind: 'resolves_to' as const };
    const a = await recordSourceEntities(knex, { kind: 'investigation', id: `scan-a-${tag}` }, [], [link]);
    await recordSourceEntities(knex, { kind: 'investigation', id: `scan-a-${tag}` }, [], [link]);
    await recordSourceEntities(knex, { kind: 'investigation', id: `scan-b-${tag}` }, [], [link]);
    const domain = a.entities.find((e) => e.type === 'domain')!;
    const edge = await knex('relationships').where({ src_entity_id: domain.id, kind: 'resolves_to' }).first();
    assert.equal(edge.weight, 2);
    const evidence = await knex('relationship_evidence').where({ relationship_id: edge.id }).orderBy('source_id');
    assert.deepEqual(evidence.map((e) => e.source_id), [`scan-a-${tag}`, `scan-b-${tag}`]);
  });

  it('concurrent calls for overlapping entities neither deadlock nor duplicate', async () => {
    const tag = uniq();
    const shared = Array.from({ length: 30 }, (_, i) => ({ type: 'domain' as const, value: `c${i}-${tag}.example` }));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, k) => recordSourceEntities(knex, { kind: 'intake', id: `conc-${tag}-${k % 4}` }, k % 2 ? [...shared].reverse() : shared)),
    );
    assert.equal(results.length, 8);
    const rows = await knex('entities').where('value', 'like', `%-${tag}.example`);
    assert.equal(rows.length, 30);
    for (const row of rows) assert.equal(row.sighting_count, 4, 'one sighting per distinct source');
  });
});
