// Aggregates suppress small groups by victims, not by entities: a group of two intakes mentioning
// six values is still two victims, and their exact loss must not reach a researcher, in the
// anonymized export, the dashboards and widgets, or the entity explorer. A group of five is shown.
// The threshold is SVC_EXPORTS__MIN_GROUP_SIZE (default 5).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { refreshEntityLoss } from '../../db/repositories/intelligence/intel-entity-repository';
import type { Role } from '../../domain/accounts/roles';
import { showsFigure, suppressedFigure, suppressSmallGroups } from '../../domain/analytics/small-group-suppression';
import { refreshAnalytics } from '../../services/analytics/analytics-refresh';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { insertCase, insertIntake, linkIntake } from './analytics-fixtures';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A case of `taxonomy` with `n` attached intakes (case_id and a case link), each with `amount` EUR (or no loss); the intakes mention `values`. */
async function victims(knex: Knex, taxonomy: string, n: number, amount: string | null, values: Array<{ type: 'email' | 'domain'; value: string }> = []) {
  const caseId = await insertCase(knex, { taxonomy });
  const intakes: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = await insertIntake(knex, amount ? { loss_amount: amount, loss_currency: 'EUR', case_id: caseId } : { case_id: caseId });
    await linkIntake(knex, caseId, id);
    if (values.length) await recordSourceEntities(knex, { kind: 'intake', id }, values);
    intakes.push(id);
  }
  return { caseId, intakes };
}

describe('small groups are suppressed by victims for researchers', function () {
  this.timeout(120_000);
  let url: string;
  let as: Record<Role, Record<string, string>>;
  let knex: Knex;
  const get = async (path: string, role: Role): Promise<Json> => {
    const res = await http(`${url}${path}`, { headers: as[role] });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.body;
  };

  before(async () => {
    const users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    knex = testKnex();
  });

  it('one rule: a figure is shown when at least the threshold of distinct victims stand behind it', () => {
    assert.equal(showsFigure(4, 5), false);
    assert.equal(showsFigure(5, 5), true);
    assert.equal(suppressedFigure('12.00', 2, 5), null);
    assert.equal(suppressedFigure('12.00', 7, 5), '12.00');
    assert.deepEqual(suppressSmallGroups([{ v: 2 }, { v: 5 }, { v: 9 }, { v: 0 }], (g) => g.v, 5), { kept: [{ v: 5 }, { v: 9 }], suppressed: 2 });
  });

  it('the anonymized export leaves out a group of two intakes (six entities) and shows a group of five intakes', async () => {
    const tag = randomUUID().slice(0, 8);
    const [two, five] = [`test/two-victims-${tag}`, `test/five-victims-${tag}`];
    const emails = (label: string) => Array.from({ length: 6 }, (_, i) => ({ type: 'email' as const, value: `v${i}-${label}-${tag}@scam.example` }));
    await victims(knex, two, 2, '400.00', emails('two'));
    await victims(knex, five, 5, '30.00', emails('five'));
    for (const role of ['researcher', 'analyst'] as const) {
      const res = await get('/exports/researcher/entities', role);
      assert.equal(res.min_group_size, 5);
      assert.deepEqual(res.groups.filter((g: { taxonomy: string }) => g.taxonomy === two), [], `${role}: two victims are not a group, however many entities they mention`);
      const shown = res.groups.filter((g: { taxonomy: string }) => g.taxonomy === five);
      assert.deepEqual(shown.map((g: Json) => [g.entity_count, g.victim_count, g.losses]), [[6, 5, [{ currency: 'EUR', amount: '150.00' }]]]);
    }
    const csv = await http(`${url}/exports/researcher/entities?fmt=csv`, { headers: as.researcher });
    assert.ok(!csv.text.includes(two) && !csv.text.includes('800.00'), 'the CSV leaves the small group out too');
  });

  it('the export shows a group of six victims but not a currency whose loss one of them alone reported', async () => {
    const tag = randomUUID().slice(0, 8);
    const taxonomy = `test/one-loss-${tag}`;
    const values = Array.from({ length: 5 }, (_, i) => ({ type: 'email' as const, value: `w${i}-${tag}@scam.example` }));
    await victims(knex, taxonomy, 5, null, values);
    const lone = await insertCase(knex, { taxonomy, loss_amount: '9999.99', loss_currency: 'EUR' });
    await recordSourceEntities(knex, { kind: 'case', id: lone }, values);
    const group = (await get('/exports/researcher/entities', 'researcher')).groups.find((g: { taxonomy: string }) => g.taxonomy === taxonomy);
    assert.ok(group, 'six victims: shown');
    assert.equal(group.victim_count, 6);
    assert.deepEqual(group.losses, [], 'the EUR loss rests on one victim (the case) and is left out');
  });

  it('researcher dashboards leave out a taxonomy node of two victims and show one of five; other roles see both', async () => {
    // advance-fee/inheritance and advance-fee/lottery: nodes no other suite writes to.
    await victims(knex, 'advance-fee/inheritance', 2, '1234.56');
    await victims(knex, 'advance-fee/lottery', 5, '10.01');
    await refreshAnalytics(knex);
    const item = (body: { items?: Json[]; loss_by_taxonomy?: Json[] }, node: string) => (body.items ?? body.loss_by_taxonomy)!.find((i: { taxonomy: string }) => i.taxonomy === node);
    for (const path of ['/analytics/widgets/loss-by-taxonomy', '/impact/dashboard']) {
      const analyst = await get(path, 'analyst');
      const researcher = await get(path, 'researcher');
      assert.ok(item(analyst, 'advance-fee/inheritance'), `${path}: an analyst sees the small node`);
      assert.equal(item(researcher, 'advance-fee/inheritance'), undefined, `${path}: a researcher does not`);
      const lottery = item(researcher, 'advance-fee/lottery');
      assert.ok(lottery, `${path}: five victims are shown`);
      assert.deepEqual(lottery, item(analyst, 'advance-fee/lottery'));
      assert.ok(Number(lottery.losses.find((l: Json) => l.currency === 'EUR').amount) >= 50.05);
      // The parent holds seven victims: shown, with the small child's loss inside its total.
      assert.ok(item(researcher, 'advance-fee'));
      assert.ok(!JSON.stringify(researcher).includes('1234.56') && !JSON.stringify(researcher).includes('2469.12'));
    }
    assert.ok((await get('/analytics/widgets/loss-by-taxonomy', 'researcher')).suppressed_groups >= 1);
    assert.equal((await get('/analytics/widgets/loss-by-taxonomy', 'analyst')).suppressed_groups, 0);
    // The tree and the Sankey: the small node's case count is withheld, its flow left out.
    const node = (tree: Json, path: string): Json => {
      for (const n of tree.nodes ?? tree.children) if (n.path === path || path.startsWith(`${n.path}/`)) return n.path === path ? n : node(n, path);
      return undefined;
    };
    const [treeA, treeR] = [await get('/taxonomy', 'analyst'), await get('/taxonomy', 'researcher')];
    assert.ok(node(treeA, 'advance-fee/inheritance').cases >= 1);
    assert.equal(node(treeR, 'advance-fee/inheritance').cases, null);
    assert.equal(node(treeR, 'advance-fee/lottery').cases, node(treeA, 'advance-fee/lottery').cases);
    const [sankeyA, sankeyR] = [await get('/analytics/widgets/taxonomy-sankey', 'analyst'), await get('/analytics/widgets/taxonomy-sankey', 'researcher')];
    assert.ok(sankeyA.links.some((l: Json) => l.target === 'advance-fee/inheritance'));
    assert.ok(!sankeyR.links.some((l: Json) => l.target === 'advance-fee/inheritance'));
    assert.ok(sankeyR.links.some((l: Json) => l.target === 'advance-fee/lottery'));
  });

  it('researchers get no day of the trend, funnel or activity timeline counting two reports, and see a day of five', async () => {
    // 3 and 4 March 1999: days no other suite writes to.
    for (let i = 0; i < 2; i++) await insertIntake(knex, { created_at: new Date('1999-03-03T10:00:00Z') });
    for (let i = 0; i < 5; i++) await insertIntake(knex, { created_at: new Date('1999-03-04T10:00:00Z') });
    await refreshAnalytics(knex);
    const window = 'since=1999-03-03&until=1999-03-04';
    const points = async (role: Role) => (await get(`/analytics/widgets/trend?metric=intakes&bucket=day&${window}`, role)).series[0].points.map((p: Json) => p.value);
    assert.deepEqual(await points('analyst'), [2, 5]);
    assert.deepEqual(await points('researcher'), [null, 5]);
    const funnel = async (role: Role, w: string) => (await get(`/analytics/widgets/pipeline-funnel?${w}`, role)).stages[0].count;
    assert.equal(await funnel('analyst', 'since=1999-03-03&until=1999-03-03'), 2);
    assert.equal(await funnel('researcher', 'since=1999-03-03&until=1999-03-03'), null);
    assert.equal(await funnel('researcher', 'since=1999-03-04&until=1999-03-04'), 5);
    const timeline = await get('/analytics/widgets/activity-timeline?since=1999-03-03T00:00:00Z', 'researcher');
    const day = (d: string) => timeline.buckets.find((b: Json) => b.day === d && b.kind === 'intake_received');
    assert.equal(day('1999-03-03').count, null);
    assert.equal(day('1999-03-04').count, 5);
  });

  it('the entity explorer withholds the loss and victims of an entity that two victims mention from researchers, and its loss filter ignores it', async () => {
    const tag = randomUUID().slice(0, 8);
    const few = { type: 'domain' as const, value: `few-${tag}.example` };
    const many = { type: 'domain' as const, value: `many-${tag}.example` };
    await victims(knex, `test/explorer-${tag}`, 2, '777777.77', [few]);
    await victims(knex, `test/explorer-${tag}`, 5, '155555.55', [many]);
    const ids = await knex('entities').whereIn('value', [few.value, many.value]).select('id', 'value');
    const idOf = (v: string) => ids.find((r: { value: string }) => r.value === v)!.id as string;
    await refreshEntityLoss(knex, ids.map((r: { id: string }) => r.id));

    const fewA = await get(`/intelligence/entities/${idOf(few.value)}`, 'analyst');
    assert.equal(fewA.victim_count, 2);
    assert.equal(fewA.loss.max, '1555555.54');
    const fewR = await get(`/intelligence/entities/${idOf(few.value)}`, 'researcher');
    assert.equal(fewR.loss, null);
    assert.equal(fewR.victim_count, null);
    assert.deepEqual(fewR.loss_by_currency, []);
    assert.deepEqual(fewR.risk.factors, []);
    const manyR = await get(`/intelligence/entities/${idOf(many.value)}`, 'researcher');
    assert.equal(manyR.victim_count, 5);
    assert.equal(manyR.loss.max, '777777.75');

    // A loss threshold would otherwise tell the hidden loss to a researcher by bisection.
    const listed = async (role: Role, q: string) => (await get(`/intelligence/entities?entity_type=domain&limit=500&${q}`, role)).items.map((e: { id: string }) => e.id);
    assert.ok((await listed('analyst', 'min_loss=1555555.54&order_by=loss')).includes(idOf(few.value)));
    assert.ok(!(await listed('researcher', 'min_loss=1555555.54&order_by=loss')).includes(idOf(few.value)));
    assert.ok(!(await listed('researcher', 'min_loss=1555555.54')).includes(idOf(few.value)));
    assert.ok((await listed('researcher', 'min_loss=777777.75&order_by=loss')).includes(idOf(many.value)));
    // Five victims mention it, but its EUR loss is one case's alone: withheld as well, and not bisectable.
    const lone = { type: 'domain' as const, value: `lone-${tag}.example` };
    await victims(knex, `test/explorer-${tag}`, 5, null, [lone]);
    const loneCase = await insertCase(knex, { loss_amount: '4444.44', loss_currency: 'EUR' });
    await recordSourceEntities(knex, { kind: 'case', id: loneCase }, [lone]);
    const loneId = ((await knex('entities').where(lone).first()) as { id: string }).id;
    await refreshEntityLoss(knex, [loneId]);
    assert.equal((await get(`/intelligence/entities/${loneId}`, 'analyst')).loss.max, '4444.44');
    assert.equal((await get(`/intelligence/entities/${loneId}`, 'researcher')).loss, null);
    assert.ok((await listed('analyst', 'min_loss=4444.44')).includes(loneId));
    assert.ok(!(await listed('researcher', 'min_loss=4444.44')).includes(loneId));

    // Listed by last sighting (just now: among the first 500), with its figures withheld.
    const page = await get(`/intelligence/entities?entity_type=domain&order_by=last_seen&limit=500`, 'researcher');
    const row = page.items.find((e: { id: string }) => e.id === idOf(few.value));
    assert.ok(row, 'listed');
    assert.equal(row.loss, null);
    assert.equal(row.victim_count, null);
  });
});
