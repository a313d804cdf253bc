// Dashboards and widget views over seeded data on real PostgreSQL: numbers against hand-computed
// values (deltas across a refresh, or a window of days in 2001 that no other suite writes to),
// chart shapes (Sankey, heatmap, trend), the researcher rule (aggregates only) and bank masking.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import type { Role } from '../../domain/accounts/roles';
import { refreshAnalytics } from '../../services/analytics/analytics-refresh';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { cents, germanIban, insertCase, insertIntake, linkIntake, ukPhone } from './analytics-fixtures';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('analytics dashboards and widgets (API)', function () {
  this.timeout(120_000);
  let url: string;
  let as: Record<Role, Record<string, string>>;
  const get = async (path: string, role: Role = 'admin'): Promise<Json> => {
    const res = await http(`${url}${path}`, { headers: as[role] });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.body;
  };

  // Monday 5 February 2001, 10:00 UTC (and the week after): a window of days only this suite uses.
  const monday = new Date('2001-02-05T10:15:00Z');
  const window = 'since=2001-02-05&until=2001-02-11';
  const seeded = { caseIds: [] as string[], iban: germanIban(), phone: ukPhone(), domain: `shop-${randomUUID().slice(0, 8)}.fr`, intakeIds: [] as string[], entityIds: [] as string[] };
  let was: Record<string, Json>;
  let now: Record<string, Json>;
  let refreshStarted: Date;

  const snapshot = async () => ({
    kpis: await get('/analytics/widgets/impact-kpis'),
    loss: await get('/analytics/widgets/loss-by-taxonomy'),
    taxonomy: await get('/taxonomy'),
    sankey: await get('/analytics/widgets/taxonomy-sankey'),
    heatmap: await get('/analytics/widgets/heatmap?source=intakes'),
    countries: await get('/analytics/widgets/countries'),
    de: await get('/analytics/widgets/countries/de', 'analyst'),
  });

  before(async () => {
    const users = await usersForEveryRole();
    as = Object.fromEntries(Object.entries(users).map(([r, e]) => [r, asUser(e)])) as Record<Role, Record<string, string>>;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    const knex = testKnex();
    await refreshAnalytics(knex);
    was = await snapshot();

    // Seed: 2 intakes (one linked, EUR 1000.05; one unlinked, USD 7.00), 3 cases (two pig-butchering
    // with EUR 100.10 and 0.20, one romance with USD 50.00), 1 review, 1 referral, 3 entities.
    const linked = await insertIntake(knex, { created_at: monday, loss_amount: '1000.05', loss_currency: 'EUR' });
    const unlinked = await insertIntake(knex, { created_at: new Date(monday.getTime() + 20 * 60_000), loss_amount: '7.00', loss_currency: 'USD' });
    seeded.intakeIds.push(linked, unlinked);
    const a = await insertCase(knex, { created_at: monday, taxonomy: 'investment/crypto/pig-butchering', loss_amount: '100.10', loss_currency: 'EUR' });
    const b = await insertCase(knex, { created_at: new Date('2001-02-07T12:00:00Z'), taxonomy: 'investment/crypto/pig-butchering', loss_amount: '0.20', loss_currency: 'EUR' });
    const c = await insertCase(knex, { created_at: new Date('2001-02-07T13:00:00Z'), taxonomy: 'romance', loss_amount: '50.00', loss_currency: 'USD' });
    seeded.caseIds.push(a, b, c);
    await linkIntake(knex, a, linked);
    await knex('reviews').insert({ case_id: a, priority: 'high', priority_rank: 3, requested_by: 'analytics-test', created_at: new Date('2001-02-08T09:00:00Z') });
    await knex('lea_referrals').insert({ case_id: a, created_by: 'analytics-test', created_at: new Date('2001-02-09T09:00:00Z') });
    const rec = await recordSourceEntities(knex, { kind: 'intake', id: linked, observedAt: monday }, [
      { type: 'phone', value: seeded.phone },
      { type: 'bank_account', value: seeded.iban },
      { type: 'domain', value: seeded.domain },
    ]);
    assert.deepEqual(rec.rejected, []);
    seeded.entityIds.push(...rec.entities.map((e) => e.id));
    refreshStarted = new Date(Date.now() - 1000);
    const result = await refreshAnalytics(knex);
    assert.ok(result.classified_entities >= 3);
    now = await snapshot();
  });

  const card = (kpis: Json, id: string) => kpis.cards.find((c: Json) => c.id === id);
  const lossOf = (w: Json, taxonomy: string, currency: string) => w.items.find((i: Json) => i.taxonomy === taxonomy)?.losses.find((l: Json) => l.currency === currency)?.amount;
  const node = (nodes: Json[], path: string): Json => {
    for (const n of nodes) {
      if (n.path === path) return n;
      const found = node(n.children, path);
      if (found) return found;
    }
    return undefined;
  };

  it('impact KPI cards count the seeded intakes, cases, reviews and referrals and add the losses per currency exactly', () => {
    const delta = (id: string) => card(now.kpis, id).value - card(was.kpis, id).value;
    assert.equal(delta('intakes'), 2);
    assert.equal(delta('losses_recorded'), 5); // 3 cases' own losses + 2 intakes'
    assert.equal(delta('cases'), 3);
    assert.equal(delta('open_cases'), 3);
    assert.equal(delta('referrals'), 1);
    assert.equal(delta('entities'), 3);
    const money = (kpis: Json, cur: string) => cents(card(kpis, 'total_loss').amounts.find((a: Json) => a.currency === cur)?.amount);
    // EUR: 100.10 + 0.20 + 1000.05 (the linked intake); USD: 50.00 + 7.00 (the unlinked intake).
    assert.equal(money(now.kpis, 'EUR') - money(was.kpis, 'EUR'), 110035n);
    assert.equal(money(now.kpis, 'USD') - money(was.kpis, 'USD'), 5700n);
    assert.match(card(now.kpis, 'total_loss').amounts[0].amount, /^\d+\.\d{2}$/);
    assert.ok(Date.parse(now.kpis.as_of) >= refreshStarted.getTime(), `as_of ${now.kpis.as_of} is before the refresh`);
  });

  it('loss by taxonomy rolls each case\'s loss (its own plus its linked intakes\') up to the parents; an unlinked intake is unclassified', () => {
    const d = (t: string, cur: string) => cents(lossOf(now.loss, t, cur)) - cents(lossOf(was.loss, t, cur));
    assert.equal(d('investment/crypto/pig-butchering', 'EUR'), 110035n);
    assert.equal(d('investment/crypto', 'EUR'), 110035n);
    assert.equal(d('investment', 'EUR'), 110035n);
    assert.equal(d('romance', 'USD'), 5000n);
    assert.equal(d('unclassified', 'USD'), 700n);
    assert.equal(d('romance', 'EUR'), 0n);
    const inv = now.loss.items.find((i: Json) => i.taxonomy === 'investment');
    assert.equal(inv.depth, 1);
    assert.equal(inv.parent, null);
    assert.equal(now.loss.items.find((i: Json) => i.taxonomy === 'investment/crypto').parent, 'investment');
  });

  it('GET /taxonomy counts cases per node rolled up to the parents', () => {
    const d = (p: string) => node(now.taxonomy.nodes, p).cases - node(was.taxonomy.nodes, p).cases;
    assert.equal(d('investment'), 2);
    assert.equal(d('investment/crypto'), 2);
    assert.equal(d('investment/crypto/pig-butchering'), 2);
    assert.equal(d('investment/forex'), 0);
    assert.equal(d('romance'), 1);
    assert.equal(node(now.taxonomy.nodes, 'impersonation').children.map((c: Json) => c.slug).join(','), 'government,bank,tech-support,family');
  });

  it('the Sankey flow is {nodes, links} whose links join known nodes, and its flows grow by the seeded cases', () => {
    const ids = new Set(now.sankey.nodes.map((n: Json) => n.id));
    assert.ok(now.sankey.links.length > 0);
    for (const l of now.sankey.links) {
      assert.ok(ids.has(l.source) && ids.has(l.target), JSON.stringify(l));
      assert.ok(l.value > 0);
    }
    const flow = (s: Json, src: string, dst: string) => s.links.find((l: Json) => l.source === src && l.target === dst)?.value ?? 0;
    assert.equal(flow(now.sankey, 'all', 'investment') - flow(was.sankey, 'all', 'investment'), 2);
    assert.equal(flow(now.sankey, 'investment', 'investment/crypto') - flow(was.sankey, 'investment', 'investment/crypto'), 2);
    assert.equal(flow(now.sankey, 'all', 'romance') - flow(was.sankey, 'all', 'romance'), 1);
  });

  it('the heatmap is a 7 x 24 grid (Monday first, UTC hours) and the two Monday 10:xx intakes land in one cell', () => {
    assert.equal(now.heatmap.matrix.length, 7);
    for (const row of now.heatmap.matrix) assert.equal(row.length, 24);
    assert.equal(now.heatmap.cells.length, 7 * 24);
    assert.deepEqual(now.heatmap.weekdays, ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    assert.equal(now.heatmap.matrix[0][10] - was.heatmap.matrix[0][10], 2);
    const cell = now.heatmap.cells.find((c: Json) => c.weekday === 1 && c.hour === 10);
    assert.equal(cell.value, now.heatmap.matrix[0][10]);
  });

  it('the pipeline funnel over the seeded week counts 2 intakes -> 3 cases -> 1 review -> 1 referral with conversions', async () => {
    const f = await get(`/analytics/widgets/pipeline-funnel?${window}`, 'reviewer');
    assert.deepEqual(
      f.stages.map((s: Json) => [s.stage, s.count, s.conversion_from_previous]),
      [['intakes', 2, null], ['cases', 3, 1.5], ['reviews', 1, 0.3333], ['referrals', 1, 1]],
    );
    assert.deepEqual(f.window, { since: '2001-02-05', until: '2001-02-11' });
    const bad = await http(`${url}/analytics/widgets/pipeline-funnel?since=2001-02-11&until=2001-02-05`, { headers: as.admin });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'query.since');
  });

  it('the trend time-series is zero-filled per bucket: by day over the week, by week, and rejects an unknown metric', async () => {
    const t = await get(`/analytics/widgets/trend?${window}&metric=intakes,cases`);
    assert.deepEqual(t.series.map((s: Json) => s.metric), ['intakes', 'cases']);
    const cases = t.series[1].points;
    assert.equal(cases.length, 7);
    assert.deepEqual(cases.map((p: Json) => p.value), [1, 0, 2, 0, 0, 0, 0]);
    assert.equal(cases[0].t, '2001-02-05');
    assert.deepEqual(t.series[0].points.map((p: Json) => p.value), [2, 0, 0, 0, 0, 0, 0]);
    const weekly = await get('/analytics/widgets/trend?since=2001-01-29&until=2001-02-18&metric=cases&bucket=week');
    assert.deepEqual(weekly.series[0].points, [{ t: '2001-01-29', value: 0 }, { t: '2001-02-05', value: 3 }, { t: '2001-02-12', value: 0 }]);
    const bad = await http(`${url}/analytics/widgets/trend?metric=cases,nonsense`, { headers: as.admin });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.details[0].path, 'query.metric');
    // PostgreSQL has no year 0: such a day is a 400 naming the field, not a 500.
    const year0 = await http(`${url}/analytics/widgets/trend?since=0000-01-01&until=0000-01-02`, { headers: as.admin });
    assert.equal(year0.status, 400, year0.text);
    assert.equal(year0.body.error.details[0].path, 'query.since');
    const reversed = await http(`${url}/analytics/widgets/trend?since=2999-01-01`, { headers: as.admin });
    assert.equal(reversed.status, 400, reversed.text);
  });

  it('countries come from the phone number (GB), the IBAN (DE) and the ccTLD (FR), with the intakes that mention them', () => {
    const c = (w: Json, code: string) => w.items.find((i: Json) => i.country === code) ?? { entities: 0, intakes: 0, by_type: {} };
    assert.equal((c(now.countries, 'GB').by_type.phone ?? 0) - (c(was.countries, 'GB').by_type.phone ?? 0), 1);
    assert.equal((c(now.countries, 'DE').by_type.bank_account ?? 0) - (c(was.countries, 'DE').by_type.bank_account ?? 0), 1);
    assert.equal((c(now.countries, 'FR').by_type.domain ?? 0) - (c(was.countries, 'FR').by_type.domain ?? 0), 1);
    assert.equal(c(now.countries, 'GB').intakes - c(was.countries, 'GB').intakes, 1);
    assert.equal(now.de.country, 'DE');
    assert.equal(now.de.entities - was.de.entities, 1);
  });

  it('country detail shows the IBAN to analysts, masked to admins and reviewers, and no entity list to researchers', async () => {
    const mine = (w: Json) => w.top_entities.find((e: Json) => seeded.entityIds.includes(e.id));
    assert.equal(mine(await get('/analytics/widgets/countries/DE', 'analyst')).value, seeded.iban);
    for (const role of ['admin', 'reviewer'] as const) {
      const e = mine(await get('/analytics/widgets/countries/DE', role));
      assert.equal(e.value, `${seeded.iban.slice(0, 4)} **** **** **** ${seeded.iban.slice(-4)}`);
      assert.equal(e.display_value, e.value);
    }
    const r = await get('/analytics/widgets/countries/DE', 'researcher');
    assert.equal('top_entities' in r, false);
    assert.ok(r.entities >= 1);
  });

  it('researchers get every dashboard and widget, with no record ids or values of the seeded data', async () => {
    const paths = [
      '/intelligence/dashboard', '/impact/dashboard', '/dashboard/overview', '/analytics/overview', '/taxonomy',
      '/analytics/widgets/dashboard', '/analytics/widgets/impact-kpis', '/analytics/widgets/loss-by-taxonomy',
      `/analytics/widgets/pipeline-funnel?${window}`, '/analytics/widgets/taxonomy-sankey', '/analytics/widgets/heatmap?source=sightings',
      `/analytics/widgets/trend?${window}`, '/analytics/widgets/countries', '/analytics/widgets/countries/GB',
      `/analytics/widgets/activity-timeline?since=2001-02-01T00:00:00Z`,
    ];
    const secrets = [...seeded.caseIds, ...seeded.intakeIds, ...seeded.entityIds, seeded.iban, seeded.domain];
    for (const p of paths) {
      const text = JSON.stringify(await get(p, 'researcher'));
      for (const s of secrets) assert.equal(text.includes(s), false, `${p} shows ${s} to a researcher`);
    }
    const dash = await get('/intelligence/dashboard', 'researcher');
    assert.equal(dash.aggregate_only, true);
    assert.equal('top_entities' in dash, false);
    const adminDash = await get('/intelligence/dashboard', 'admin');
    assert.equal(adminDash.aggregate_only, false);
    assert.ok(Array.isArray(adminDash.top_entities));
  });

  it('the activity timeline lists the newest events with record ids, and counts per day and kind for researchers', async () => {
    const knex = testKnex();
    const fresh = await insertCase(knex);
    const since = new Date(Date.now() - 60_000).toISOString();
    const t = await get(`/analytics/widgets/activity-timeline?since=${encodeURIComponent(since)}&limit=500`, 'analyst');
    assert.ok(t.items.some((e: Json) => e.kind === 'case_opened' && e.record_id === fresh), JSON.stringify(t.items.slice(0, 5)));
    const times = t.items.map((e: Json) => e.at);
    assert.deepEqual(times, [...times].sort().reverse());
    const old = await get('/analytics/widgets/activity-timeline?since=2001-02-05T00:00:00Z&limit=500', 'researcher');
    assert.equal('items' in old, false);
    const day = (d: string, kind: string) => old.buckets.find((b: Json) => b.day === d && b.kind === kind)?.count;
    // Two reports a day are fewer victims than SVC_EXPORTS__MIN_GROUP_SIZE (5): withheld, but present.
    assert.equal(day('2001-02-05', 'intake_received'), null);
    assert.equal(day('2001-02-07', 'case_opened'), null);
  });

  it('the dashboards carry as_of and their parts: KPI cards, loss by taxonomy, funnel, trend, totals', async () => {
    const impact = await get('/impact/dashboard');
    assert.ok(impact.kpis.some((c: Json) => c.id === 'total_loss'));
    assert.ok(impact.loss_by_taxonomy.some((i: Json) => i.taxonomy === 'investment'));
    const overview = await get('/dashboard/overview', 'reviewer');
    assert.deepEqual(overview.funnel_30d.map((s: Json) => s.stage), ['intakes', 'cases', 'reviews', 'referrals']);
    assert.equal(overview.trend_30d[0].points.length, 30);
    const analytics = await get('/analytics/overview');
    assert.ok(analytics.totals.intakes >= 2);
    const catalog = await get('/analytics/widgets/dashboard');
    assert.equal(catalog.widgets.length, 12);
    assert.ok(catalog.widgets.some((w: Json) => w.route === '/intelligence/graph.png'));
    for (const d of [impact, overview, analytics]) assert.ok(!Number.isNaN(Date.parse(d.as_of)));
  });
});
