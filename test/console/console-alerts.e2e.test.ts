// The alerts area in real Chromium against the real API, PostgreSQL and Temporal: an analyst
// presses Watch on an entity page (a watchlist is created through the API), sees it on the
// Watchlists page, the entity's risk changes and the alerts workflow runs on a worker, the alert is
// listed on the Alerts page, acknowledged there, and moves to the acknowledged filter. Both pages
// have no serious or critical axe violations.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addUserRoles } from '../../db/repositories/accounts/user-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { WATCHLIST_ALERTS_SCHEDULE_ID } from '../../services/alerts/watchlist-alerts-schedule';
import { startPlatformWorkflow } from '../../services/tasks/platform-workflows';
import { watchlistAlertsWorkflow } from '../../workflows/alerts/watchlist-alerts-workflow';
import { seriousA11yViolations } from '../support/axe';
import { signInToConsole } from '../support/console-sign-in';
import { startTestApi, startTestWorker, testKnex, testTemporal } from '../support/platform';

describe('console alerts and watchlists (end to end, Chromium)', function () {
  this.timeout(240_000);
  let url: string;
  let queue: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const tag = randomUUID().slice(0, 8);
  const analyst = `alerts-ui-${tag}@example.org`;
  const domain = `watch-ui-${tag}.example`;
  let entityId: string;

  before(async () => {
    queue = `alerts-ui-${tag}`;
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    await startTestWorker(queue);
    await addUserRoles(testKnex(), analyst, ['analyst']);
    const r = await recordSourceEntities(testKnex(), { kind: 'manual', id: `alerts-ui-${tag}` }, [{ type: 'domain', value: domain }]);
    entityId = r.entities[0]!.id;
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  it('watches an entity from its page, lists the watchlist, shows the alert it raises and acknowledges it', async () => {
    await page.goto(`${url}/console`);
    await signInToConsole(page, url, analyst, { fresh: true });
    await page.goto(`${url}/console/entities/${entityId}`);
    await page.getByRole('heading', { level: 1 }).filter({ hasText: domain }).waitFor();
    await page.getByRole('button', { name: new RegExp(`^Watch .*${domain.replace(/\./g, '\\.')}`) }).click();
    await page.getByRole('status').filter({ hasText: 'Watching as' }).waitFor();
    const [w] = await testKnex()('watchlists').where({ owner: analyst, target_id: entityId });
    assert.ok(w, 'the Watch button created a watchlist for the entity');
    assert.deepEqual(w.rules.map((r: { kind: string }) => r.kind), ['new_sightings', 'new_linked_sites', 'risk_change']);

    await page.getByRole('link', { name: 'Watchlists' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Watchlists' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: `Watch Domain ${domain}` });
    await row.waitFor();
    assert.match(await row.innerText(), /new sightings, new linked sites, risk change ≥ 10/);
    assert.deepEqual(await seriousA11yViolations(page), []);

    await testKnex()('entities').where({ id: entityId }).update({ risk_score: 64 });
    const handle = await startPlatformWorkflow(await testTemporal(), {
      workflow: watchlistAlertsWorkflow, workflowId: `watchlist-alerts-ui-${tag}`, taskQueue: queue, args: [], recordId: WATCHLIST_ALERTS_SCHEDULE_ID, title: 'Watchlist alerts',
    });
    await handle.result();

    await page.getByRole('link', { name: 'Alerts' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    const alertRow = page.getByRole('row').filter({ hasText: `${domain}: risk 0 → 64` });
    await alertRow.waitFor();
    assert.match(await alertRow.innerText(), /risk change/);
    assert.deepEqual(await seriousA11yViolations(page), []);
    await alertRow.getByRole('button', { name: /^Acknowledge/ }).click();
    await page.getByRole('status').filter({ hasText: 'Acknowledged:' }).waitFor();
    await alertRow.waitFor({ state: 'detached' });

    await page.getByLabel('Show').selectOption('acknowledged');
    await page.waitForURL(/show=acknowledged/);
    const acked = page.getByRole('row').filter({ hasText: `${domain}: risk 0 → 64` });
    await acked.waitFor();
    assert.match(await acked.innerText(), new RegExp(`by ${analyst}`));
  });
});
