// The intelligence routes over a seeded graph (each test seeds its own, tagged): shapes and numbers
// against hand-computed values, the risk explanation, researcher rules, masking of bank details,
// graph depth and truncation, the PNG, and the quick search.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import sharp from 'sharp';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { recomputeEntityRisk } from '../../services/intelligence/risk-score-service';
import type { Role } from '../../domain/accounts/roles';
import { GRAPH_ENTITY_TYPES } from '../../domain/intelligence/entity-types';
import { ENTITY_TYPE_COLOURS, layoutGraph } from '../../domain/intelligence/graph-picture';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

/** A valid German IBAN unique to this run (mod-97 check digits). */
function iban(): string {
  const bban = `${Math.floor(Math.random() * 1e9)}`.padStart(9, '0') + `${Math.floor(Math.random() * 1e9)}`.padStart(9, '0');
  const rearranged = `${bban}131400`; // D=13, E=14, check 00
  const check = 98n - (BigInt(rearranged) % 97n);
  return `DE${String(check).padStart(2, '0')}${bban}`;
}

/** A loss band no other test reaches. */
const band = () => 2_000_000_000_000 + Math.floor(Math.random() * 1_000_000) * 10_000_000;

interface Seeded {
  tag: string;
  base: number;
  ids: Record<'d1' | 'e1' | 'iban' | 'o1' | 'p1', string>;
  ibanValue: string;
  caseId: string;
}

/**
 *  case C (loss base EUR, in a campaign) mentions d1, o1                    (2026-11-10)
 *  intake I1 (200 EUR, attached to C) mentions d1, iban                     (2026-11-01)
 *  intake I2 (50 USD) mentions d1, e1                                       (2026-11-02)
 *  intake I3 (no loss) mentions d1, e1                                      (2026-11-02)
 *  manual M mentions e1, p1                                                 (2026-11-03)
 * Edges: d1–e1 weight 2, d1–iban 1, d1–o1 1, e1–p1 1.
 */
async function seed(knex: Knex): Promise<Seeded> {
  const tag = randomUUID().slice(0, 8);
  const base = band();
  const [campaign] = (await knex('campaigns').insert({ name: `Campaign ${tag}`, created_by: 't@example.org' }).returning('id')) as Array<{ id: string }>;
  const [c] = (await knex('cases').insert({ title: `case ${tag}`, created_by: 't@example.org', loss_amount: String(base), loss_currency: 'EUR', campaign_id: campaign!.id }).returning('id')) as Array<{ id: string }>;
  const intake = async (amount: string | null, currency: string | null, caseId: string | null = null) => {
    const id = randomUUID();
    await knex('intakes').insert({ id, source: 'web', summary: 't', submitted_by: 't@example.org', loss_amount: amount, loss_currency: currency, case_id: caseId });
    return id;
  };
  const i1 = await intake('200.00', 'EUR', c!.id);
  const i2 = await intake('50.00', 'USD');
  const i3 = await intake(null, null);
  const ibanValue = iban();
  const d1 = { type: 'domain' as const, value: `d1-${tag}.example` };
  const e1 = { type: 'email' as const, value: `e1-${tag}@mail.example` };
  const o1 = { type: 'organization' as const, value: `Org ${tag}` };
  const p1 = { type: 'person' as const, value: `Person ${tag}` };
  const bank = { type: 'bank_account' as const, value: ibanValue };
  const at = (d: string) => new Date(`${d}T12:00:00Z`);
  await recordSourceEntities(knex, { kind: 'case', id: c!.id, observedAt: at('2026-11-10') }, [d1, o1]);
  await recordSourceEntities(knex, { kind: 'intake', id: i1, observedAt: at('2026-11-01') }, [d1, bank]);
  await recordSourceEntities(knex, { kind: 'intake', id: i2, observedAt: at('2026-11-02') }, [d1, e1]);
  await recordSourceEntities(knex, { kind: 'intake', id: i3, observedAt: at('2026-11-02') }, [d1, e1]);
  await recordSourceEntities(knex, { kind: 'manual', id: `m-${tag}`, observedAt: at('2026-11-03') }, [e1, p1]);
  const idOf = async (type: string, value: string) => ((await knex('entities').where({ type, value }).first()) as { id: string }).id;
  const ids = {
    d1: await idOf('domain', d1.value),
    e1: await idOf('email', e1.value),
    iban: await idOf('bank_account', ibanValue),
    o1: await idOf('organization', o1.value.toLowerCase()),
    p1: await idOf('person', p1.value.toLowerCase()),
  };
  await recomputeEntityRisk(knex, Object.values(ids));
  return { tag, base, ids, ibanValue, caseId: c!.id };
}

const money = (n: number) => `${n}.00`;

describe('intelligence analytics (API)', function () {
  this.timeout(90_000);
  let url: string;
  let as: Record<Role, Record<string, string>>;
  let knex: Knex;

  before(async () => {
    const users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    knex = testKnex();
  });

  it('lists entities with loss per currency and victims, filtered by type and min_loss, in loss order with a cursor', async () => {
    const s = await seed(knex);
    const res = await http(`${url}/intelligence/entities?entity_type=domain&min_loss=${s.base}&order_by=loss&limit=500`, { headers: as.analyst });
    assert.equal(res.status, 200, res.text);
    const d1 = res.body.items.find((e: { id: string }) => e.id === s.ids.d1);
    assert.ok(d1, 'd1 is listed');
    assert.deepEqual(d1.loss, { max: money(s.base + 200), by_currency: { EUR: money(s.base + 200), USD: '50.00' } });
    assert.equal(d1.victim_count, 3);
    assert.equal(d1.sighting_count, 4);
    assert.equal(d1.value, `d1-${s.tag}.example`);
    assert.ok(res.body.items.every((e: { type: string; loss: { max: string } }) => e.type === 'domain' && Number(e.loss.max) >= s.base));
    // Two pages of one follow the cursor to the same entities as one page of two (a second seed makes two domains at least).
    await seed(knex);
    const two = await http(`${url}/intelligence/entities?entity_type=domain&order_by=loss&limit=2`, { headers: as.analyst });
    const first = await http(`${url}/intelligence/entities?entity_type=domain&order_by=loss&limit=1`, { headers: as.analyst });
    assert.equal(typeof first.body.next_cursor, 'string');
    const second = await http(`${url}/intelligence/entities?entity_type=domain&order_by=loss&limit=1&cursor=${first.body.next_cursor}`, { headers: as.analyst });
    assert.equal(two.body.items.length, 2);
    assert.deepEqual([...first.body.items, ...second.body.items].map((e: { id: string }) => e.id), two.body.items.map((e: { id: string }) => e.id));
    const above = await http(`${url}/intelligence/entities?entity_type=domain&min_loss=${s.base + 201}&order_by=loss&limit=500`, { headers: as.analyst });
    assert.ok(!above.body.items.some((e: { id: string }) => e.id === s.ids.d1), 'min_loss above its largest per-currency total drops it');
    const bad = await http(`${url}/intelligence/entities?min_loss=abc&cursor=zzz`, { headers: as.analyst });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.details.map((d: { path: string }) => d.path).sort(), ['query.cursor', 'query.min_loss']);
  });

  it('explains the risk score factor by factor and gives linked cases, sightings per source kind and loss per currency', async () => {
    const s = await seed(knex);
    const res = await http(`${url}/intelligence/entities/${s.ids.d1}`, { headers: as.analyst });
    assert.equal(res.status, 200, res.text);
    const f = Object.fromEntries(res.body.risk.factors.map((x: { factor: string; points: number; input: number }) => [x.factor, x]));
    assert.equal(f.loss.points, 30, 'a loss over 1,000,000 earns the full 30');
    assert.equal(f.victims.input, 3);
    assert.equal(f.victims.points, 15);
    assert.equal(f.campaigns.points, 10, 'its case is in a campaign');
    assert.equal(f.confidence.input, 85, 'indicator confidence after four sources');
    assert.equal(f.confidence.points, 8.5);
    const sum = res.body.risk.factors.reduce((a: number, x: { points: number }) => a + x.points, 0);
    assert.equal(res.body.risk.score, Math.round(sum));
    assert.equal(res.body.risk_score, res.body.risk.score);
    assert.deepEqual(res.body.loss_by_currency, [
      { currency: 'EUR', amount: money(s.base + 200) },
      { currency: 'USD', amount: '50.00' },
    ]);
    assert.deepEqual(
      res.body.sightings_by_source.map((x: { source_kind: string; sightings: number }) => [x.source_kind, x.sightings]),
      [['case', 1], ['intake', 3]],
    );
    assert.deepEqual(
      res.body.sightings_by_source.map((x: { first_observed_at: string; last_observed_at: string }) => [x.first_observed_at, x.last_observed_at]),
      [
        ['2026-11-10T12:00:00.000Z', '2026-11-10T12:00:00.000Z'],
        ['2026-11-01T12:00:00.000Z', '2026-11-02T12:00:00.000Z'],
      ],
    );
    assert.equal(res.body.linked_case_count, 1);
    assert.deepEqual(res.body.linked_cases[0], {
      id: s.caseId,
      title: `case ${s.tag}`,
      status: res.body.linked_cases[0].status,
      campaign_id: res.body.linked_cases[0].campaign_id,
      loss_amount: money(s.base),
      loss_currency: 'EUR',
      via: ['intake', 'sighting'],
    });
    assert.equal(typeof res.body.linked_cases[0].campaign_id, 'string');
    const byKey = await http(`${url}/intelligence/entities/domain/${encodeURIComponent(`D1-${s.tag}.EXAMPLE`)}`, { headers: as.reviewer });
    assert.equal(byKey.status, 200, byKey.text);
    assert.equal(byKey.body.id, s.ids.d1);
    const missing = await http(`${url}/intelligence/entities/${randomUUID()}`, { headers: as.analyst });
    assert.equal(missing.status, 404);
  });

  it('masks bank accounts for every role but analyst and every value for researchers; researchers get 403 on detail by key and indicator detail', async () => {
    const s = await seed(knex);
    const masked = `${s.ibanValue.slice(0, 4)} **** **** **** ${s.ibanValue.slice(-4)}`;
    const analyst = await http(`${url}/intelligence/entities/${s.ids.iban}`, { headers: as.analyst });
    assert.equal(analyst.body.value, s.ibanValue);
    for (const role of ['admin', 'reviewer'] as const) {
      const r = await http(`${url}/intelligence/entities/${s.ids.iban}`, { headers: as[role] });
      assert.equal(r.body.value, masked, role);
      assert.equal(r.body.display_value, masked, role);
      const nb = await http(`${url}/intelligence/entities/domain/d1-${s.tag}.example/neighbors`, { headers: as[role] });
      assert.equal(nb.body.nodes.find((n: { id: string }) => n.id === s.ids.iban).value, masked, `${role} neighbors`);
      const g = await http(`${url}/intelligence/graph?seed=${s.ids.d1}&depth=1`, { headers: as[role] });
      assert.equal(g.body.nodes.find((n: { id: string }) => n.id === s.ids.iban).value, masked, `${role} graph`);
    }
    const researcher = await http(`${url}/intelligence/entities/${s.ids.d1}`, { headers: as.researcher });
    assert.equal(researcher.status, 200);
    assert.equal(researcher.body.value, 'd1****le');
    assert.deepEqual(researcher.body.linked_cases, []);
    assert.equal(researcher.body.linked_case_count, 1);
    const rIban = await http(`${url}/intelligence/entities/${s.ids.iban}`, { headers: as.researcher });
    assert.equal(rIban.body.value, masked);
    assert.equal((await http(`${url}/intelligence/entities/domain/d1-${s.tag}.example`, { headers: as.researcher })).status, 403);
    assert.equal((await http(`${url}/intelligence/indicators/${s.ids.d1}`, { headers: as.researcher })).status, 403);
    const ind = await http(`${url}/intelligence/indicators/${s.ids.d1}`, { headers: as.reviewer });
    assert.equal(ind.status, 200, ind.text);
    assert.equal(ind.body.confidence, 85);
    assert.equal(ind.body.category, 'unclassified');
    assert.equal(ind.body.value, `d1-${s.tag}.example`);
    const search = await http(`${url}/discovery/search?q=${s.ibanValue.slice(6, 16)}`, { headers: as.reviewer });
    assert.ok(!search.body.items.some((h: { id: string }) => h.id === s.ids.iban), 'no partial search over bank details for non-analysts');
    const aSearch = await http(`${url}/discovery/search?q=${s.ibanValue.slice(6, 16)}`, { headers: as.analyst });
    assert.ok(aSearch.body.items.some((h: { id: string }) => h.id === s.ids.iban));
  });

  it('answers the activity sparkline per day and per week, and one-hop neighbours with edge weights', async () => {
    const s = await seed(knex);
    const day = await http(`${url}/intelligence/entities/domain/d1-${s.tag}.example/activity?bucket=day&since=2026-11-01T00:00:00Z`, { headers: as.reviewer });
    assert.equal(day.status, 200, day.text);
    assert.equal(day.body.bucket, 'day');
    assert.equal(day.body.since, '2026-11-01T00:00:00.000Z');
    assert.deepEqual(day.body.points.slice(0, 3), [
      { t: '2026-11-01T00:00:00.000Z', sightings: 1 },
      { t: '2026-11-02T00:00:00.000Z', sightings: 2 },
      { t: '2026-11-03T00:00:00.000Z', sightings: 0 },
    ]);
    assert.equal(day.body.points[9].sightings, 1);
    assert.equal(day.body.points.reduce((a: number, p: { sightings: number }) => a + p.sightings, 0), 4);
    const week = await http(`${url}/intelligence/entities/domain/d1-${s.tag}.example/activity?bucket=week&since=2026-11-01T00:00:00Z`, { headers: as.analyst });
    assert.deepEqual(week.body.points.slice(0, 3), [
      { t: '2026-10-26T00:00:00.000Z', sightings: 1 },
      { t: '2026-11-02T00:00:00.000Z', sightings: 2 },
      { t: '2026-11-09T00:00:00.000Z', sightings: 1 },
    ]);
    const nb = await http(`${url}/intelligence/entities/domain/d1-${s.tag}.example/neighbors`, { headers: as.analyst });
    assert.equal(nb.status, 200, nb.text);
    assert.equal(nb.body.entity.id, s.ids.d1);
    const weights = Object.fromEntries(nb.body.edges.map((e: { src: string; dst: string; weight: number }) => [e.src === s.ids.d1 ? e.dst : e.src, e.weight]));
    assert.deepEqual(weights, { [s.ids.e1]: 2, [s.ids.iban]: 1, [s.ids.o1]: 1 });
    assert.equal(nb.body.edges[0].weight, 2, 'heaviest first');
    assert.deepEqual(nb.body.nodes.map((n: { id: string }) => n.id).sort(), [s.ids.e1, s.ids.iban, s.ids.o1].sort());
    assert.deepEqual(Object.keys(nb.body.edges[0]).sort(), ['dst', 'id', 'kind', 'src', 'weight']);
    const one = await http(`${url}/intelligence/entities/domain/d1-${s.tag}.example/neighbors?limit=1`, { headers: as.analyst });
    assert.deepEqual(one.body.edges.map((e: { weight: number }) => e.weight), [2]);
    assert.deepEqual(one.body.nodes.map((n: { id: string }) => n.id), [s.ids.e1]);
    const none = await http(`${url}/intelligence/entities/domain/nothing-${s.tag}.example/neighbors`, { headers: as.analyst });
    assert.equal(none.status, 404, none.text);
  });

  it('traverses the graph breadth-first with the depth of each node and edge, and says truncated when max_nodes cuts it', async () => {
    const s = await seed(knex);
    const d2 = await http(`${url}/intelligence/graph?seed=domain:D1-${s.tag}.example&depth=2`, { headers: as.analyst });
    assert.equal(d2.status, 200, d2.text);
    const depth = Object.fromEntries(d2.body.nodes.map((n: { id: string; depth: number }) => [n.id, n.depth]));
    assert.deepEqual(depth, { [s.ids.d1]: 0, [s.ids.e1]: 1, [s.ids.iban]: 1, [s.ids.o1]: 1, [s.ids.p1]: 2 });
    assert.equal(d2.body.truncated, false);
    assert.equal(d2.body.edges.length, 4);
    assert.equal(d2.body.edges.find((e: { src: string; dst: string }) => [e.src, e.dst].includes(s.ids.p1)).depth, 2);
    const d1 = await http(`${url}/intelligence/graph?seed=${s.ids.d1}&depth=1`, { headers: as.analyst });
    assert.equal(d1.body.nodes.length, 4);
    const capped = await http(`${url}/intelligence/graph?seed=${s.ids.d1}&depth=3&max_nodes=2`, { headers: as.analyst });
    assert.equal(capped.body.truncated, true);
    assert.deepEqual(capped.body.nodes.map((n: { id: string }) => n.id).sort(), [s.ids.d1, s.ids.e1].sort(), 'the heaviest neighbour is kept');
    assert.equal(capped.body.edges.length, 1);
    const heavy = await http(`${url}/intelligence/graph?seed=${s.ids.d1}&depth=2&min_weight=2`, { headers: as.analyst });
    assert.deepEqual(heavy.body.nodes.map((n: { id: string }) => n.id).sort(), [s.ids.d1, s.ids.e1].sort());
    const kinds = await http(`${url}/intelligence/graph?seed=${s.ids.d1}&edge_kinds=hosts`, { headers: as.analyst });
    assert.deepEqual(kinds.body.nodes.map((n: { id: string }) => n.id), [s.ids.d1]);
    const unknown = await http(`${url}/intelligence/graph?seed=domain:nowhere-${s.tag}.example`, { headers: as.analyst });
    assert.equal(unknown.status, 404);
    // An id that names no entity, as the second seed, and even when max_nodes leaves it out.
    const noSuchId = randomUUID();
    for (const cap of [10, 1]) {
      const unknownId = await http(`${url}/intelligence/graph?seed=${s.ids.d1}&seed=${noSuchId}&max_nodes=${cap}`, { headers: as.analyst });
      assert.equal(unknownId.status, 404, `max_nodes ${cap}`);
      assert.equal(unknownId.body.error.message, `query.seed.1: no entity ${noSuchId}`);
    }
    const twoSeedsOneRoom = await http(`${url}/intelligence/graph?seed=${s.ids.d1}&seed=${s.ids.p1}&max_nodes=1`, { headers: as.analyst });
    assert.equal(twoSeedsOneRoom.status, 200);
    assert.deepEqual(twoSeedsOneRoom.body.nodes.map((n: { id: string }) => n.id), [s.ids.d1]);
    assert.equal(twoSeedsOneRoom.body.truncated, true);
    const bad = await http(`${url}/intelligence/graph?seed=planet:x&depth=5`, { headers: as.analyst });
    assert.equal(bad.status, 400);
  });

  it('renders the graph as a PNG of the asked size that is not blank, with a deterministic layout', async () => {
    const s = await seed(knex);
    const res = await fetch(`${url}/intelligence/graph.png?seed=${s.ids.d1}&depth=2&width=800&height=600`, { headers: as.reviewer });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(png).metadata();
    assert.equal(meta.format, 'png');
    assert.deepEqual([meta.width, meta.height], [800, 600]);
    const stats = await sharp(png).stats();
    assert.ok(stats.channels.slice(0, 3).every((c) => c.stdev > 5), `pixel variance: ${stats.channels.map((c) => c.stdev).join(',')}`);
    assert.ok(stats.channels[0]!.min < 100, 'something dark is drawn on the white background');

    const nodes = ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({ id, type: 'domain' as const, label: id, depth: i ? 1 : 0 }));
    const edges = [
      { src: 'a', dst: 'b', weight: 3 },
      { src: 'a', dst: 'c', weight: 1 },
      { src: 'c', dst: 'd', weight: 1 },
      { src: 'd', dst: 'e', weight: 2 },
    ];
    const one = layoutGraph(nodes, edges);
    const two = layoutGraph([...nodes].reverse(), [...edges].reverse());
    assert.deepEqual([...two.entries()].sort(), [...one.entries()].sort());
    assert.ok(new Set([...one.values()].map((p) => `${p.x.toFixed(3)},${p.y.toFixed(3)}`)).size === 5, 'nodes are spread out');
  });

  it('gives every entity type a colour of its own, clearly apart from every other', () => {
    const rgb = Object.values(ENTITY_TYPE_COLOURS).map((c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)));
    assert.equal(rgb.length, GRAPH_ENTITY_TYPES.length);
    let closest = Infinity;
    for (let i = 0; i < rgb.length; i++) {
      for (let j = i + 1; j < rgb.length; j++) closest = Math.min(closest, Math.hypot(...rgb[i]!.map((v, k) => v - rgb[j]![k]!)));
    }
    assert.ok(closest >= 60, `the two closest colours are ${closest.toFixed(0)} apart in RGB`);
  });

  it('searches entity values by exact value, prefix and substring', async () => {
    const s = await seed(knex);
    const exact = await http(`${url}/discovery/search?q=d1-${s.tag}.example`, { headers: as.analyst });
    assert.equal(exact.status, 200, exact.text);
    assert.deepEqual(exact.body.items.map((h: { id: string; match: string }) => [h.id, h.match]), [[s.ids.d1, 'exact']]);
    const prefix = await http(`${url}/discovery/search?q=E1-${s.tag}`, { headers: as.analyst });
    assert.deepEqual(prefix.body.items.map((h: { id: string; match: string }) => [h.id, h.match]), [[s.ids.e1, 'prefix']]);
    const sub = await http(`${url}/discovery/search?q=${s.tag}&entity_type=person`, { headers: as.analyst });
    assert.deepEqual(sub.body.items.map((h: { id: string; match: string }) => [h.id, h.match]), [[s.ids.p1, 'substring']]);
    const short = await http(`${url}/discovery/search?q=ab`, { headers: as.analyst });
    assert.equal(short.status, 400);
  });
});
