// Entity links and the entity page in real Chromium against the real API and PostgreSQL: a wallet
// in an investigation's Results is a link to its entity page (value, type, each risk factor,
// sightings by source, the case it is in, related entities as links), a case's entities are links,
// and a researcher sees the values masked exactly as the API answers them.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { recomputeEntityRisk } from '../../services/intelligence/risk-score-service';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { signInToConsole } from '../support/console-sign-in';

describe('console entity links and entity page (end to end, Chromium)', function () {
  this.timeout(180_000);
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const tag = randomUUID().slice(0, 8);
  const wallet = `0x${randomBytes(20).toString('hex')}`;
  const email = `payee-${tag}@mail.example`;
  let scanId: string;
  let caseId: string;
  let ids: { wallet: string; email: string };

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    users = await usersForEveryRole();
    const knex = testKnex();
    scanId = randomUUID();
    await insertInvestigation(knex, { scanId, url: `https://ent-${tag}.scam.test/`, domain: `ent-${tag}.scam.test`, requestedBy: users.analyst, playbookId: null, caseId: null, label: `entities ${tag}`, options: {} });
    await upsertWallets(knex, scanId, [{ address: wallet, token: 'ETH', network: 'ethereum', confidence: 'high', source: 'dom', context: 'pay here', pageUrl: null }]);
    await knex('investigations').where({ scan_id: scanId }).update({ status: 'completed', state: 'done', wallet_count: 1, started_at: new Date(), completed_at: new Date() });
    const [c] = (await knex('cases').insert({ title: `entity case ${tag}`, created_by: users.analyst, loss_amount: '1200.00', loss_currency: 'EUR' }).returning('id')) as Array<{ id: string }>;
    caseId = c!.id;
    const inv = await recordSourceEntities(knex, { kind: 'investigation', id: scanId }, [{ type: 'wallet', value: wallet }, { type: 'email', value: email }]);
    assert.deepEqual(inv.rejected, [], 'the seeded values are valid entities');
    await recordSourceEntities(knex, { kind: 'case', id: caseId }, [{ type: 'wallet', value: wallet }, { type: 'email', value: email }]);
    const idOf = async (type: string, value: string) => ((await knex('entities').where({ type, value }).first()) as { id: string }).id;
    ids = { wallet: await idOf('wallet', wallet), email: await idOf('email', email) };
    await recomputeEntityRisk(knex, Object.values(ids));
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
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

  it('a wallet in the investigation Results opens its entity page: value, type, each risk factor, sightings, case, related entities', async () => {
    await signIn(users.analyst);
    const api = await http(`${url}/intelligence/entities/${ids.wallet}`, { headers: asUser(users.analyst) });
    assert.equal(api.status, 200, api.text);
    await page.goto(`${url}/console/investigations/${scanId}/results`);
    await page.getByRole('table').locator('a.entity', { hasText: wallet }).click();
    await page.waitForURL(/\/console\/entities\?type=wallet&value=0x/);
    const h1 = page.getByRole('heading', { level: 1 });
    await h1.filter({ hasText: wallet }).waitFor();
    assert.match(await h1.innerText(), /wallet/i);
    const factors = page.getByRole('table', { name: /Risk factors/ });
    const factorRows = await factors.locator('tbody tr').allInnerTexts();
    assert.equal(factorRows.length, api.body.risk.factors.length, 'one row per risk factor');
    for (const f of api.body.risk.factors as Array<{ points: number; max: number; rule: string }>) {
      assert.ok(factorRows.some((r) => r.includes(`${f.points} of ${f.max}`) && r.includes(f.rule)), `factor ${f.rule} shown with its points`);
    }
    const sightings = await page.locator('section', { has: page.getByRole('heading', { name: 'Sightings by source' }) }).innerText();
    assert.match(sightings, /investigation: 1 sighting/);
    assert.match(sightings, /case: 1 sighting/);
    await page.getByRole('link', { name: `entity case ${tag}` }).waitFor();
    await page.getByRole('img', { name: /sightings/ }).waitFor();
    const appears = page.locator('section', { has: page.getByRole('heading', { name: 'Investigations and intakes' }) });
    await appears.getByRole('link', { name: `entities ${tag}` }).waitFor();
    const related = page.locator('section', { has: page.getByRole('heading', { name: 'Related entities' }) });
    await related.locator('a.entity', { hasText: email }).click();
    await page.waitForURL(new RegExp(`/console/entities/${ids.email}$`));
    await page.getByRole('heading', { level: 1 }).filter({ hasText: email }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: email }).waitFor();
  });

  it('a case\'s entities are links to their pages', async () => {
    await page.goto(`${url}/console/cases/${caseId}`);
    const link = page.locator('a.entity', { hasText: email });
    await link.click();
    await page.waitForURL(new RegExp(`/console/entities/${ids.email}$`));
    await page.getByRole('heading', { level: 1 }).filter({ hasText: email }).waitFor();
  });

  it('a researcher sees the values masked exactly as the API answers them', async () => {
    const api = await http(`${url}/intelligence/entities/${ids.email}`, { headers: asUser(users.researcher) });
    assert.equal(api.status, 200, api.text);
    assert.notEqual(api.body.display_value, email, 'the API masks the e-mail for researchers');
    await signIn(users.researcher);
    await page.goto(`${url}/console/entities/${ids.email}`);
    const h1 = page.getByRole('heading', { level: 1 });
    await h1.filter({ hasText: api.body.display_value }).waitFor();
    const body = await page.locator('main').innerText();
    assert.ok(!body.includes(email), 'the unmasked e-mail is nowhere on the page');
    assert.ok(body.includes(api.body.value), 'the value shown is the API\'s masked value');
  });
});
