// The dashboards, taxonomy browser, indicators and exports pages in real Chromium against the real
// API: figures are the API's (money per currency, as_of shown, no raw keys as titles), each figure
// links to its list, deep links survive a reload, the top entities are typed entity links, an
// indicator export downloads with the page's filters, and a researcher and a reviewer see values
// exactly as the API masks them for their role.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { refreshAnalytics } from '../../services/analytics/analytics-refresh';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { signInToConsole } from '../support/console-sign-in';

interface Amount { currency: string; amount: string }
interface Impact { as_of: string; kpis: Array<{ id: string; label: string; value: number | null; amounts?: Amount[] }>; loss_by_taxonomy: Array<{ taxonomy: string; losses: Amount[] }> }

/** As the console writes money: the currency, then the exact decimal with thousands grouped. */
const grouped = (a: Amount) => `${a.currency} ${a.amount.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

describe('console dashboards, taxonomy, indicators and exports (end to end, Chromium)', function () {
  this.timeout(240_000);
  const tag = randomUUID().slice(0, 8);
  const category = `dash-${tag}`;
  const wallet = `0x${randomBytes(20).toString('hex')}`;
  const email = `payee-${tag}@mail.example`;
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ids: { wallet: string; email: string };

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true', SVC_ANALYTICS__DASHBOARD_REFRESH_AFTER_WRITE_SECONDS: '0' })).url;
    users = await usersForEveryRole();
    const knex = testKnex();
    const created = await http<{ id: string }>(`${url}/cases`, { method: 'POST', headers: asUser(users.analyst), json: { title: `dashboards ${tag}`, loss: { amount: '1234567.50', currency: 'EUR' } } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await http(`${url}/cases/${created.body.id}`, { method: 'PATCH', headers: asUser(users.analyst), json: { taxonomy: 'romance' } })).status, 200);
    await recordSourceEntities(knex, { kind: 'case', id: created.body.id }, [{ type: 'wallet', value: wallet }, { type: 'email', value: email }]);
    const idOf = async (type: string, value: string) => ((await knex('entities').where({ type, value }).first()) as { id: string } | undefined)?.id;
    ids = { wallet: (await idOf('wallet', wallet))!, email: (await idOf('email', email))! };
    assert.ok(ids.wallet && ids.email, 'the seeded entities exist');
    // Both are indicator types: their indicators get this suite's own category.
    assert.equal(await knex('indicators').whereIn('entity_id', [ids.wallet, ids.email]).update({ category, confidence: 77 }), 2);
    await refreshAnalytics(knex);
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  async function signIn(who: string) {
    await page.goto(`${url}/console`);
    await signInToConsole(page, url, who, { fresh: true });
  }

  it('impact: the API\'s money per currency, as_of, human titles, and each figure opens its list', async () => {
    await signIn(users.analyst);
    const api = await http<Impact>(`${url}/impact/dashboard`, { headers: asUser(users.analyst) });
    assert.equal(api.status, 200, api.text);
    await page.goto(`${url}/console/dashboard?view=impact`);
    const total = page.locator('[data-kpi="total_loss"]');
    await total.waitFor();
    const eur = api.body.kpis.find((k) => k.id === 'total_loss')!.amounts!.find((a) => a.currency === 'EUR')!;
    assert.ok((await total.innerText()).includes(grouped(eur)), `total loss shows ${grouped(eur)}`);
    assert.equal(await page.locator('[data-as-of]').getAttribute('data-as-of'), api.body.as_of);
    const romance = page.locator('tr[data-taxonomy="romance"]');
    assert.ok((await romance.innerText()).includes(api.body.loss_by_taxonomy.find((i) => i.taxonomy === 'romance')!.losses.find((l) => l.currency === 'EUR')!.amount));
    const text = await page.locator('main').innerText();
    for (const raw of ['loss_by_taxonomy', 'lossByTaxonomy', 'total_loss', 'funnel30d', 'funnel_30d']) assert.ok(!text.includes(raw), `no raw key ${raw}`);
    await page.locator('[data-kpi="open_cases"] a').click();
    await page.waitForURL(/\/console\/cases\?status=open$/);
    await page.getByRole('heading', { name: 'Cases', level: 1 }).waitFor();
  });

  it('overview and analytics: pipeline and top entities as typed entity links; the view survives a reload', async () => {
    await page.goto(`${url}/console/dashboard?view=overview`);
    await page.getByRole('heading', { name: 'Pipeline over the last 30 days' }).waitFor();
    await page.goto(`${url}/console/dashboard?view=analytics`);
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard: analytics' }).waitFor();
    const api = await http<{ top_entities: Array<{ id: string; type: string; display_value: string }> }>(`${url}/intelligence/dashboard`, { headers: asUser(users.analyst) });
    const first = api.body.top_entities[0]!;
    const link = page.locator('table.top-entities a.entity').first();
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), `/console/entities/${first.id}`);
    assert.equal(await link.innerText(), first.display_value);
    assert.ok((await page.locator('table.top-entities .entity-type').first().innerText()).length > 0, 'each top entity says its type');
  });

  it('taxonomy: a node deep link reloads to its rolled-up cases and losses per currency', async () => {
    const loss = await http<{ items: Array<{ taxonomy: string; cases: number; losses: Amount[] }> }>(`${url}/analytics/widgets/loss-by-taxonomy`, { headers: asUser(users.analyst) });
    const node = loss.body.items.find((i) => i.taxonomy === 'romance')!;
    await page.goto(`${url}/console/taxonomy?node=romance`);
    await page.reload();
    const detail = page.locator('section.node-detail');
    await detail.waitFor();
    const eur = node.losses.find((l) => l.currency === 'EUR')!;
    assert.equal(await detail.locator('td[data-currency="EUR"]').innerText(), grouped(eur));
    assert.ok((await detail.innerText()).includes(String(node.cases.toLocaleString('en-GB'))));
    await page.locator('a[data-taxonomy="investment"]').click();
    await page.waitForURL(/node=investment$/);
  });

  it('indicators: the filtered list reloads from its URL, each value links to its entity, the detail page shows the API\'s fields', async () => {
    await page.goto(`${url}/console/indicators?category=${category}`);
    await page.reload();
    assert.equal(await page.getByLabel('Category').inputValue(), category);
    const table = page.getByRole('table', { name: /Indicators/ });
    await table.locator('a.entity').first().waitFor();
    const values = (await table.locator('a.entity').allInnerTexts()).sort();
    const api = await http<{ items: Array<{ id: string; display_value: string }> }>(`${url}/intelligence/indicators?category=${category}`, { headers: asUser(users.analyst) });
    assert.deepEqual(api.body.items.map((i) => i.id).sort(), [ids.wallet, ids.email].sort(), 'the category holds the two seeded indicators');
    assert.deepEqual(values, api.body.items.map((i) => i.display_value).sort());
    const shown = api.body.items.find((i) => i.id === ids.wallet)!.display_value;
    await page.goto(`${url}/console/indicators/${ids.wallet}`);
    await page.getByRole('heading', { name: `Indicator: ${shown}` }).waitFor();
    assert.match(await page.locator('dl.facts').innerText(), /77 of 100/);
  });

  it('exports: the indicator filters come from the URL and the CSV download holds exactly the filtered indicators', async () => {
    await page.goto(`${url}/console/exports?category=${category}`);
    await page.reload();
    assert.equal(await page.getByLabel('Category', { exact: true }).inputValue(), category);
    assert.ok((await page.locator('main').innerText()).includes(`${url}/taxii2/`), 'the TAXII address is shown');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Indicators' }) });
    const [dl] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = await readFile((await dl.path())!, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    assert.equal(lines.length, 3, 'a header and the two indicators of the category');
    assert.ok(csv.toLowerCase().includes(wallet) && csv.includes(email), 'the CSV holds the wallet and the e-mail');
  });

  it('a researcher and a reviewer see indicator values exactly as the API answers them for their role (masked for the researcher)', async () => {
    for (const who of [users.researcher, users.reviewer]) {
      await signIn(who);
      const api = await http<{ items: Array<{ id: string; display_value: string }> }>(`${url}/intelligence/indicators?category=${category}`, { headers: asUser(who) });
      assert.equal(api.status, 200, api.text);
      await page.goto(`${url}/console/indicators?category=${category}`);
      const table = page.getByRole('table', { name: /Indicators/ });
      await table.locator('a.entity').first().waitFor();
      assert.deepEqual((await table.locator('a.entity').allInnerTexts()).sort(), api.body.items.map((i) => i.display_value).sort());
      // Researchers get every value masked; reviewers see e-mails as they are.
      assert.equal(api.body.items.some((i) => i.display_value === email), who === users.reviewer, `${who}: the e-mail in clear only for the reviewer`);
    }
    // The researcher's exports page offers only the aggregate export.
    await signIn(users.researcher);
    await page.goto(`${url}/console/exports`);
    await page.getByRole('heading', { name: 'Anonymized aggregates' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Entities', exact: true }).count(), 0);
  });
});
