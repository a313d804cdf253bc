// Campaigns in real Chromium against the real API and PostgreSQL, through the console only: create,
// rename, add an entity (from its entity page), a case (from its case page) and an investigation's
// entities (from its page), remove members on the campaign page; the list's filters are a deep link
// that survives a reload; a reviewer sees the member values exactly as the API masks them; no
// serious accessibility violation on the list and the detail.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { findEntityByValue, recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { signInToConsole } from '../support/console-sign-in';
import { seriousA11yViolations } from '../support/axe';
import { ibanOf } from '../support/iban-arbitraries';
import { docScreenshot } from '../support/doc-screenshot';

interface Detail {
  id: string;
  name: string;
  member_cases: Array<{ id: string }>;
  member_entities: Array<{ id: string; display_value: string; via: string[] }>;
}

describe('console campaigns (end to end, Chromium)', function () {
  this.timeout(180_000);
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const tag = randomUUID().slice(0, 8);
  const wallet = `0x${randomBytes(20).toString('hex')}`;
  const invWallet = `0x${randomBytes(20).toString('hex')}`;
  const iban = fc.sample(ibanOf(['DE']), 1)[0]!;
  const caseTitle = `campaign case ${tag}`;
  const name = `Ring ${tag}`;
  const renamed = `Butcher ring ${tag}`;
  let scanId: string;
  let caseId: string;
  let walletId: string;
  let invWalletId: string;
  let ibanId: string;
  let campaignId: string;

  const detail = async (who = users.analyst): Promise<Detail> => {
    const r = await http(`${url}/intelligence/campaigns/${campaignId}`, { headers: asUser(who) });
    assert.equal(r.status, 200, r.text);
    return r.body as Detail;
  };

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    users = await usersForEveryRole();
    const knex = testKnex();
    const [c] = (await knex('cases').insert({ title: caseTitle, created_by: users.analyst }).returning('id')) as Array<{ id: string }>;
    caseId = c!.id;
    scanId = randomUUID();
    await insertInvestigation(knex, { scanId, url: `https://camp-${tag}.scam.test/`, domain: `camp-${tag}.scam.test`, requestedBy: users.analyst, playbookId: null, caseId: null, label: `campaign scan ${tag}`, options: {} });
    await upsertWallets(knex, scanId, [{ address: invWallet, token: 'ETH', network: 'ethereum', confidence: 'high', source: 'dom', context: 'pay here', pageUrl: null }]);
    await knex('investigations').where({ scan_id: scanId }).update({ status: 'completed', state: 'done', wallet_count: 1, started_at: new Date(), completed_at: new Date() });
    const rec = await recordSourceEntities(knex, { kind: 'manual', id: randomUUID() }, [{ type: 'wallet', value: wallet }, { type: 'bank_account', value: iban }]);
    assert.deepEqual(rec.rejected, []);
    await recordSourceEntities(knex, { kind: 'investigation', id: scanId }, [{ type: 'wallet', value: invWallet }]);
    walletId = (await findEntityByValue(knex, 'wallet', wallet))!.id;
    invWalletId = (await findEntityByValue(knex, 'wallet', invWallet))!.id;
    ibanId = (await findEntityByValue(knex, 'bank_account', iban))!.id;
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  async function addFromHere(what: RegExp) {
    await page.getByRole('button', { name: 'Add to campaign' }).click();
    await page.getByLabel('Campaign', { exact: true }).selectOption({ label: renamed });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('status').filter({ hasText: what }).filter({ hasText: renamed }).waitFor();
  }

  it('an analyst creates and renames a campaign, and adds an entity, a case and an investigation\'s entities from their pages', async () => {
    await page.goto(`${url}/console`);
    await signInToConsole(page, url, users.analyst, { fresh: true });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByText('New campaign').click();
    const form = page.getByRole('form', { name: 'New campaign' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Taxonomy').selectOption('investment/crypto/pig-butchering');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    campaignId = /\/console\/campaigns\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    assert.equal((await detail()).name, name);

    await page.getByLabel('Name', { exact: true }).fill(renamed);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    assert.equal((await detail()).name, renamed, 'renamed in the API');
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.goto(`${url}/console/entities/${walletId}`);
    await page.getByRole('heading', { level: 1 }).filter({ hasText: wallet }).waitFor();
    await addFromHere(/Added this entity to/);
    await page.goto(`${url}/console/entities/${ibanId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await addFromHere(/Added this entity to/);
    await page.goto(`${url}/console/cases/${caseId}`);
    await page.getByRole('heading', { level: 1, name: caseTitle }).waitFor();
    await addFromHere(/Added this case to/);
    await page.goto(`${url}/console/investigations/${scanId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await addFromHere(/Added this investigation's entities to/);

    const d = await detail();
    assert.deepEqual(d.member_cases.map((c) => c.id), [caseId]);
    const own = d.member_entities.filter((e) => e.via.includes('campaign')).map((e) => e.id).sort();
    assert.deepEqual(own, [walletId, invWalletId, ibanId].sort(), 'the entity, the bank account and the investigation\'s wallet are members');
  });

  it('the campaign page lists the members and removes an entity and the case', async () => {
    await page.goto(`${url}/console/campaigns/${campaignId}`);
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    await page.getByRole('link', { name: caseTitle }).waitFor();
    const members = page.locator('section', { has: page.getByRole('heading', { name: /^Entities/ }) });
    await members.locator('a.entity', { hasText: invWallet }).waitFor();
    await docScreenshot(page, 'console-campaign');
    await page.getByRole('button', { name: `Remove entity ${wallet}` }).click();
    await page.getByRole('status').filter({ hasText: `Removed ${wallet}` }).waitFor();
    await page.getByRole('button', { name: `Remove case ${caseTitle}` }).click();
    await page.getByRole('status').filter({ hasText: `Removed ${caseTitle}` }).waitFor();
    await page.getByRole('link', { name: caseTitle }).waitFor({ state: 'detached' });
    const d = await detail();
    assert.deepEqual(d.member_cases, [], 'the case left the campaign');
    assert.ok(!d.member_entities.some((e) => e.id === walletId), 'the wallet left the campaign');
    assert.ok(d.member_entities.some((e) => e.id === invWalletId), 'the other members stay');
    await page.getByRole('heading', { name: 'LEA referral suggestions' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
  });

  it('the list\'s filters are a deep link that survives a reload', async () => {
    await page.goto(`${url}/console/campaigns?q=${tag}&status=active`);
    const row = page.getByRole('row').filter({ hasText: renamed });
    await row.waitFor();
    await page.reload();
    await row.waitFor();
    assert.equal(await page.getByLabel('Name or description contains').inputValue(), tag);
    assert.equal(await page.getByLabel('Status').inputValue(), 'active');
    await page.getByLabel('Status').selectOption('closed');
    await page.getByText('No campaign matches.').waitFor();
    assert.match(page.url(), /status=closed/);
    assert.deepEqual(await seriousA11yViolations(page), []);
  });

  it('a reviewer sees the member values exactly as the API masks them, and no way to change the campaign', async () => {
    const d = await detail(users.reviewer);
    const member = d.member_entities.find((e) => e.id === ibanId);
    assert.ok(member, 'the bank account is a member');
    assert.notEqual(member.display_value.replace(/\s/g, ''), iban, 'the API masks it for reviewers');
    await signInToConsole(page, url, users.reviewer, { fresh: true });
    await page.goto(`${url}/console/campaigns/${campaignId}`);
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    await page.locator('section', { has: page.getByRole('heading', { name: /^Entities/ }) }).locator('a.entity', { hasText: member.display_value }).waitFor();
    const text = await page.locator('main').innerText();
    assert.ok(!text.replace(/\s/g, '').includes(iban), 'the unmasked IBAN is nowhere on the page');
    assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0, 'no change form for a reviewer');
  });
});
