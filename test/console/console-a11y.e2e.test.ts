// axe-core on every console page type in real Chromium against the real API, as an analyst with
// seeded data: the dashboards (overview, impact, analytics), search with results, an entity page,
// the investigations list and each tab of an investigation, SSI wallets, intakes and an intake,
// cases and a case, the review queue, scheduled reports, the taxonomy browser with a node open,
// the indicators list and an indicator, and the exports page. No serious or critical violation.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { recomputeEntityRisk } from '../../services/intelligence/risk-score-service';
import { refreshAnalytics } from '../../services/analytics/analytics-refresh';
import { seriousA11yViolations } from '../support/axe';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { signInToConsole } from '../support/console-sign-in';
import { insertIntake } from '../analytics/analytics-fixtures';

describe('console accessibility: every page type has no serious or critical axe violation (Chromium)', function () {
  this.timeout(300_000);
  const tag = randomUUID().slice(0, 8);
  const wallet = `0x${randomBytes(20).toString('hex')}`;
  let url: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pages: Array<[string, string]> = [];

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true', SVC_ANALYTICS__DASHBOARD_REFRESH_AFTER_WRITE_SECONDS: '0' })).url;
    const users = await usersForEveryRole();
    const knex = testKnex();
    const analyst = asUser(users.analyst);
    const scanId = randomUUID();
    await insertInvestigation(knex, { scanId, url: `https://a11y-${tag}.scam.test/`, domain: `a11y-${tag}.scam.test`, requestedBy: users.analyst, playbookId: null, caseId: null, label: `a11y ${tag}`, options: {} });
    await upsertWallets(knex, scanId, [{ address: wallet, token: 'USDT', network: 'ethereum', confidence: 'high', source: 'dom', context: 'pay here', pageUrl: null }]);
    await knex('investigations').where({ scan_id: scanId }).update({ status: 'completed', state: 'done', wallet_count: 1, started_at: new Date(), completed_at: new Date() });
    const created = await http<{ id: string }>(`${url}/cases`, { method: 'POST', headers: analyst, json: { title: `a11y case ${tag}`, loss: { amount: '2500.00', currency: 'EUR' } } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await http(`${url}/cases/${created.body.id}`, { method: 'PATCH', headers: analyst, json: { taxonomy: 'investment/crypto' } })).status, 200);
    const review = await http(`${url}/reviews/`, { method: 'POST', headers: analyst, json: { case_id: created.body.id, reason: `a11y ${tag}` } });
    assert.equal(review.status, 201, review.text);
    const intakeId = await insertIntake(knex, { loss_amount: '100.00', loss_currency: 'EUR' });
    await recordSourceEntities(knex, { kind: 'investigation', id: scanId }, [{ type: 'wallet', value: wallet }, { type: 'domain', value: `a11y-${tag}.scam.test` }]);
    await recordSourceEntities(knex, { kind: 'case', id: created.body.id }, [{ type: 'wallet', value: wallet }]);
    const entity = (await knex('entities').where({ type: 'wallet', value: wallet }).first()) as { id: string };
    await recomputeEntityRisk(knex, [entity.id]);
    await refreshAnalytics(knex);
    pages.push(
      ['dashboard overview', '/console/dashboard'],
      ['dashboard impact', '/console/dashboard?view=impact'],
      ['dashboard analytics', '/console/dashboard?view=analytics'],
      ['search', `/console/search?q=${encodeURIComponent(wallet)}`],
      ['entity', `/console/entities/${entity.id}`],
      ['investigations', '/console/investigations'],
      ...(['overview', 'results', 'pages', 'actions', 'evidence'].map((t) => [`investigation ${t}`, `/console/investigations/${scanId}/${t}`] as [string, string])),
      ['wallets', '/console/wallets'],
      ['intakes', '/console/intakes'],
      ['intake', `/console/intakes/${intakeId}`],
      ['cases', '/console/cases'],
      ['case', `/console/cases/${created.body.id}`],
      ['reviews', '/console/reviews'],
      ['reports', '/console/reports'],
      ['taxonomy', '/console/taxonomy?node=investment%2Fcrypto'],
      ['indicators', '/console/indicators'],
      ['indicator', `/console/indicators/${entity.id}`],
      ['exports', '/console/exports?category=unclassified'],
    );
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await page.goto(`${url}/console`);
    await signInToConsole(page, url, users.analyst, { fresh: true });
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  it('opens each page type with data and finds no serious or critical violation', async () => {
    const found: Record<string, string[]> = {};
    for (const [name, path] of pages) {
      await page.goto(`${url}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // Wait until every loading state is gone, so axe sees the page with its data.
      await page.waitForFunction(() => !Array.from(document.querySelectorAll('[role="status"]')).some((e) => /^Loading /.test(e.textContent ?? '')), null, { timeout: 30_000 });
      const violations = await seriousA11yViolations(page);
      if (violations.length) found[name] = violations;
    }
    assert.deepEqual(found, {}, 'serious or critical axe violations per page');
  });
});
