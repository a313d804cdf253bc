// Coin tabs whose script rebuilds the whole widget on every click (test/support/rebuilt-tabs-fixture.ts),
// through the real DISCOVER_COIN_TABS activity (sandboxed Chromium, routed requests, real database):
// each tab is found again by its label, the panel is read once it has settled (a late answer is
// waited for), and what it shows is read however it shows it (DOM, the click's JSON answer, a copy
// button's clipboard write, a QR image), every address with its coin tab.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { loadWalletAllowlist } from '../../config/wallet-allowlist';
import { createInvestigationActivities } from '../../activities/investigations/investigation-activities';
import { resolveChromium } from '../../infra/chromium';
import { checkChromiumSandbox } from '../../infra/chromium-sandbox';
import { createConfiguredBlobStore, type BlobStore } from '../../infra/blob-store';
import { createCrawlerBrowser, type CrawlerBrowser } from '../../infra/crawler/crawler-browser';
import { createEgressCheck } from '../../infra/crawler/crawler-egress';
import { createLogger } from '../../infra/logger';
import { insertInvestigation, listActions } from '../../db/repositories/investigations/investigation-repository';
import { startRebuiltTabsFixture, type RebuiltTabsFixture } from '../support/rebuilt-tabs-fixture';
import { testConfig, testKnex } from '../support/platform';

describe('coin tabs that a script rebuilds on every click', function () {
  this.timeout(180_000);
  let site: RebuiltTabsFixture;
  let crawler: CrawlerBrowser;
  let blobs: BlobStore;

  before(async () => {
    site = await startRebuiltTabsFixture();
    crawler = createCrawlerBrowser(() => resolveChromium(), checkChromiumSandbox(), { allowUnsandboxed: false });
  });
  after(async () => {
    await crawler.close();
    await blobs?.close();
    await site.close();
  });

  it('finds all five addresses, each with its coin tab (DOM, late answer, JSON answer, clipboard, QR image)', async () => {
    const config = testConfig({ SVC_SSI__ALLOW_PRIVATE_TARGETS: '127.0.0.1' });
    const knex = testKnex();
    blobs = createConfiguredBlobStore(config);
    const acts = createInvestigationActivities({
      knex, blobs, config, log: createLogger('silent', 'fip-test'),
      allowlist: loadWalletAllowlist(config.ssi.allowlist_path).pairs,
      browser: () => crawler.get(),
      egress: createEgressCheck(config.ssi.allow_private_targets),
      browserQueue: 'rebuilt-tabs-test',
    });
    const scanId = randomUUID();
    await insertInvestigation(knex, { scanId, url: site.url, domain: '127.0.0.1', requestedBy: 'tabs-test@example.org', playbookId: null, caseId: null, label: null, options: {} });
    try {
      const result = await acts.discoverCoinTabs({ scanId, pageTimeoutS: 20, url: site.url, selectors: [] });
      assert.equal(result.tabs, 5);
    } finally {
      await acts.closeInvestigationSession({ scanId });
    }
    // The final sweep reads the stored DOMs and JSON answers again (without their tab): the tab stays.
    await acts.sweepInvestigationWallets({ scanId });
    const rows = (await knex('wallets').where({ scan_id: scanId }).select('address', 'source', 'network')) as Array<{ address: string; source: string; network: string }>;
    const clicks = (await listActions(knex, scanId)).filter((a) => a.action === 'click_coin_tab');
    assert.deepEqual(clicks.map((c) => [c.target, c.outcome]), Object.keys(site.wallets).map((label) => [label, 'dom changed']));
    for (const [label, address] of Object.entries(site.wallets)) {
      const row = rows.find((r) => r.address === address);
      assert.ok(row, `${label}: ${address} found (found: ${rows.map((r) => `${r.address} ${r.source}`).join('; ')})`);
      assert.equal(row.source, `coin-tab:${label}`, `${label}'s address carries its tab`);
    }
  });
});
