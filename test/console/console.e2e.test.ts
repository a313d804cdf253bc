// The console end to end: real Chromium (playwright-core) drives /console against the real API,
// worker, PostgreSQL and Temporal. An analyst signs in locally, investigates a fixture scam site on
// 127.0.0.1, watches it complete, reads the Results tab, exports the CSV, downloads the evidence
// bundle from the Evidence tab and finds the wallet on the SSI Wallets page; a reviewer claims,
// annotates and decides a review.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';
import { startScamSiteFixture, type ScamSiteFixture } from '../support/scam-site-fixture';
import { signInToConsole } from '../support/console-sign-in';
import { seriousA11yViolations } from '../support/axe';

interface Wallet {
  address: string;
  token: string;
  network: string;
  confidence: string;
  source: string;
  page_url: string | null;
  provenance: { warc_record_id: string; warc_target_uri: string } | null;
  provenance_reason: string | null;
}

describe('analysts\' console (end to end, Chromium)', function () {
  this.timeout(180_000);
  const queue = `console-${randomUUID().slice(0, 8)}`;
  let site: ScamSiteFixture;
  /** Answers every page 30 s late: an investigation of it is still running when the test cancels it. */
  let slowSite: ScamSiteFixture;
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    site = await startScamSiteFixture();
    slowSite = await startScamSiteFixture({ delayMs: 30_000 });
    const env = {
      SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true',
      SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port},127.0.0.1:${slowSite.port}`, SVC_WORKER__INSTANCE: `t-${queue}`,
    };
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
    users = await usersForEveryRole();
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await site?.close();
    await slowSite?.close();
  });

  async function signIn(email: string) {
    await signInToConsole(page, url, email);
    assert.ok((await page.locator('.who').innerText()).includes(email), 'the header names the signed-in user');
  }

  it('investigates a site, shows its wallets and their export, and finds a wallet on the SSI Wallets page', async () => {
    const analyst = asUser(users.analyst);
    await signIn(users.analyst);
    await page.getByRole('link', { name: 'Investigations', exact: true }).click();
    await page.getByLabel('Site URL').fill(`${site.origin}/r1`);
    await page.getByLabel('Label (optional)').fill(`console ${queue}`);
    await page.getByLabel('Pages at most').fill('3');
    await page.getByRole('button', { name: 'Start investigation' }).click();

    await page.waitForURL(/\/console\/investigations\/[0-9a-f-]{36}$/);
    const scanId = /investigations\/([0-9a-f-]{36})/.exec(page.url())![1];
    await page.getByRole('heading', { name: `console ${queue}` }).waitFor();
    // Live state while it runs, then the completed badge (the page reloads the detail at the end).
    await page.locator('.badge-completed').first().waitFor({ timeout: 150_000 });
    const detail = await http(`${url}/investigations/ssi/${scanId}`, { headers: analyst });
    assert.equal(detail.body.status, 'completed', JSON.stringify(detail.body.error));
    const wallets = detail.body.wallets as Wallet[];
    assert.ok(wallets.some((w) => w.address === site.wallets.home), 'the home page wallet was found');

    await page.getByRole('tab', { name: /Overview/ }).click();
    const overview = await page.getByRole('tabpanel').innerText();
    assert.ok(overview.includes(`${site.origin}/home`), 'the overview shows the final URL');
    assert.ok(overview.includes(`${site.origin}/r2`), 'the overview shows the redirect chain');

    await page.getByRole('tab', { name: /Results/ }).click();
    await page.waitForURL(new RegExp(`/console/investigations/${scanId}/results$`));
    const table = page.getByRole('table');
    await table.waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.querySelector('code')?.textContent ?? td.textContent ?? '').trim())),
    );
    const expected = wallets.map((w) => [w.address, w.token, w.network, w.confidence, w.source, w.page_url ?? '—', w.provenance?.warc_target_uri ?? w.provenance_reason ?? '—']);
    const key = (r: string[]) => r.join('|');
    assert.deepEqual(rows.map(key).sort(), expected.map(key).sort(), 'one row per wallet with address, token, network, confidence, source, page and the record it was seen in');
    const home = wallets.find((w) => w.address === site.wallets.home)!;
    const explorer = await table.locator('tr', { hasText: home.address }).getByRole('link', { name: /explorer/i }).getAttribute('href');
    assert.ok(explorer?.includes(home.address), `explorer link ${explorer} names the address`);

    // Seen in: the record that holds the wallet, its id, and the screenshot taken at that step, on demand.
    assert.ok(home.provenance, `the home wallet has provenance (${home.provenance_reason})`);
    const homeRow = table.locator('tr', { hasText: home.address });
    assert.ok((await homeRow.innerText()).includes(home.provenance.warc_record_id), 'the row shows the WARC-Record-ID');
    await homeRow.getByRole('button', { name: 'Screenshot after this step' }).click();
    const shot = homeRow.getByRole('img', { name: /^Screenshot after / });
    await shot.waitFor();
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await shot.elementHandle());

    // Sorting by token: the rows come back in token order.
    await page.getByRole('button', { name: 'Token' }).click();
    const tokens = await table.locator('tbody tr td:nth-child(2)').allInnerTexts();
    assert.deepEqual(tokens, [...tokens].sort((a, b) => a.localeCompare(b)));
    // Filtering narrows the table to the matching wallet.
    await page.getByLabel('Filter').fill(home.address.slice(4, 20));
    assert.equal(await table.locator('tbody tr').count(), 1);
    await page.getByLabel('Filter').fill('');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.equal(download.suggestedFilename(), `wallets-${scanId}.csv`);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    for (const w of wallets) assert.ok(csv.includes(w.address), `the CSV holds ${w.address}`);

    // Evidence: the tab finds the evidence routes in /openapi.json by their templates
    // (/investigations/ssi/{scan_id}/...) and downloads the bundle, showing the SHA-256 of its bytes.
    await page.getByRole('tab', { name: /Evidence/ }).click();
    await page.waitForURL(new RegExp(`/console/investigations/${scanId}/evidence$`));
    const panel = page.getByRole('tabpanel');
    for (const label of ['Evidence bundle (WACZ)', 'Law-enforcement package (ZIP)', 'PDF report']) {
      await panel.getByRole('button', { name: `Download ${label}` }).waitFor();
    }
    assert.equal(await panel.getByText('not available').count(), 0, 'no "not available" note');
    const [bundle] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download Evidence bundle (WACZ)' }).click()]);
    assert.match(bundle.suggestedFilename(), /\.wacz$/);
    const bundleBytes = fs.readFileSync((await bundle.path())!);
    assert.equal(bundleBytes.subarray(0, 4).toString('hex'), '504b0304', 'the bundle is a ZIP (WACZ)');
    const bundleSha = createHash('sha256').update(bundleBytes).digest('hex');
    await panel.getByText(`${bundle.suggestedFilename()}: SHA-256`).waitFor();
    assert.equal(await panel.locator('li', { hasText: 'Evidence bundle' }).locator('code').innerText(), bundleSha, 'the page shows the SHA-256 of the bytes saved');

    // Another site showed the same wallet: the SSI Wallets page marks it and lists both sites.
    const otherUrl = `https://other-${queue}.scam.test/deposit`;
    await upsertWallets(testKnex(), `other-${queue}`, [{ address: home.address, token: home.token, network: home.network, confidence: 'high', source: 'dom', context: 'pay here', pageUrl: otherUrl }]);
    await page.getByRole('link', { name: 'SSI wallets' }).click();
    await page.getByLabel('Address contains').fill(home.address.slice(5, 17));
    await page.getByRole('button', { name: 'Search' }).click();
    const card = page.locator('li.wallet', { hasText: home.address });
    await card.waitFor();
    const text = await card.innerText();
    assert.match(text, /Seen on \d+ sites/);
    assert.ok(text.includes(otherUrl), 'the other site is listed');
    assert.ok(text.includes(`${site.origin}/r1`), 'the investigated site is listed');
  });

  it('a reviewer claims, annotates and decides a review from the queue', async () => {
    const analyst = asUser(users.analyst);
    const created = await http(`${url}/cases`, { method: 'POST', headers: analyst, json: { title: `console review ${queue}`, priority: 'critical' } });
    assert.equal(created.status, 201, created.text);
    const review = await http(`${url}/reviews/`, { method: 'POST', headers: analyst, json: { case_id: created.body.id, reason: `please check ${queue}` } });
    assert.equal(review.status, 201, review.text);

    await page.evaluate(() => sessionStorage.clear());
    await signIn(users.reviewer);
    await page.getByRole('link', { name: 'Review queue' }).click();
    const card = page.locator('li.review', { hasText: `please check ${queue}` });
    await card.getByRole('button', { name: 'Claim' }).click();
    await page.getByRole('status').filter({ hasText: 'Claimed the review' }).waitFor();
    const claimed = page.locator('li.review', { hasText: `please check ${queue}` });
    await claimed.getByLabel('Note').fill('wallets match the intake');
    await claimed.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('status').filter({ hasText: 'Note added' }).waitFor();
    await claimed.getByLabel('Decision').selectOption('close_no_action');
    await claimed.getByLabel('Rationale').fill('duplicate of an earlier case');
    await claimed.getByRole('button', { name: 'Decide' }).click();
    await page.getByRole('status').filter({ hasText: 'Decision recorded' }).waitFor();

    const after = await http(`${url}/reviews/${review.body.id}`, { headers: analyst });
    assert.equal(after.body.status, 'decided');
    assert.equal(after.body.decision, 'close_no_action');
    assert.equal(after.body.decided_by, users.reviewer);
    assert.equal(after.body.rationale, 'duplicate of an earlier case');
    const log = await http(`${url}/reviews/${review.body.id}/actions`, { headers: analyst });
    const actions = (log.body.items as Array<{ action: string; actor: string; details: { note?: string } }>).map((a) => [a.action, a.actor, a.details.note ?? null]);
    assert.deepEqual(actions.filter(([a]) => a === 'claim' || a === 'annotate'), [['claim', users.reviewer, null], ['annotate', users.reviewer, 'wallets match the intake']]);
  });

  it('cancels a running investigation after confirming, and re-runs it past a warning naming the other recent run of the same URL', async () => {
    const analyst = asUser(users.analyst);
    const target = `${slowSite.origin}/home`;
    const start = async (label: string) => {
      const r = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: target, label, options: { max_pages: 2 } } });
      assert.equal(r.status, 202, r.text);
      return r.body as { scan_id: string; task_id: string };
    };
    const earlier = await start(`earlier ${queue}`);
    const current = await start(`cancel me ${queue}`);
    await signInToConsole(page, url, users.analyst, { fresh: true });
    await page.goto(`${url}/console/investigations/${current.scan_id}`);
    await page.getByRole('heading', { name: `cancel me ${queue}` }).waitFor();
    await page.getByRole('button', { name: 'Cancel investigation' }).click();
    await page.getByRole('alertdialog', { name: 'Cancel investigation?' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'the investigation page with its confirmation has no serious accessibility violation');
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor();
    await page.locator('.badge-cancelled').first().waitFor({ timeout: 60_000 });
    assert.equal((await http(`${url}/investigations/ssi/${current.scan_id}`, { headers: analyst })).body.status, 'cancelled');

    // Re-run: the page names the other recent investigation of the same URL before starting.
    await page.getByRole('button', { name: 'Re-run' }).click();
    const warning = page.getByRole('alertdialog', { name: 'Re-run this investigation?' });
    await warning.getByText('This URL was investigated 1 other time in the last 7 days').waitFor();
    assert.equal(await warning.getByRole('link').getAttribute('href'), `/console/investigations/${earlier.scan_id}`, 'the warning links the earlier run');
    await warning.getByRole('button', { name: 'Re-run anyway' }).click();
    await page.waitForURL((u) => /\/console\/investigations\/[0-9a-f-]{36}$/.test(u.pathname) && !u.pathname.endsWith(current.scan_id));
    const rerunId = /investigations\/([0-9a-f-]{36})/.exec(page.url())![1];
    const rerun = await http(`${url}/investigations/ssi/${rerunId}`, { headers: analyst });
    assert.equal(rerun.body.url, target);
    assert.equal(rerun.body.label, `cancel me ${queue}`);
    assert.equal(rerun.body.requested_by, users.analyst);
    // The slow site would hold the worker: both remaining runs stop here.
    for (const t of [earlier.task_id, rerun.body.task_id as string]) {
      const c = await http(`${url}/tasks/${t}/update`, { method: 'POST', headers: analyst, json: { status: 'cancelled' } });
      assert.equal(c.status, 200, c.text);
    }
  });

  it('shows a captured page\'s screenshot at full size, with next/previous and Esc to close', async () => {
    const analyst = asUser(users.analyst);
    const r = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}/home`, label: `shots ${queue}`, options: { max_pages: 3 } } });
    assert.equal(r.status, 202, r.text);
    const scanId = r.body.scan_id as string;
    await signInToConsole(page, url, users.analyst, { fresh: true });
    await page.goto(`${url}/console/investigations/${scanId}/pages`);
    await page.locator('.badge-completed').first().waitFor({ timeout: 150_000 });
    const detail = await http(`${url}/investigations/ssi/${scanId}`, { headers: analyst });
    const pages = detail.body.pages as Array<{ url: string }>;
    assert.ok(pages.length >= 2, `at least two pages captured (${pages.length})`);
    await page.getByRole('button', { name: `Enlarge: Screenshot of ${pages[0].url}` }).click();
    const viewer = page.getByRole('dialog', { name: `Screenshot 1 of ${pages.length}, full size` });
    await viewer.waitFor();
    const full = viewer.getByRole('img', { name: `Screenshot of ${pages[0].url}` });
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await full.elementHandle());
    // Full size: the image is drawn at its own width, not the thumbnail's.
    const sizes = await full.evaluate((img) => ({ natural: (img as HTMLImageElement).naturalWidth, shown: (img as HTMLImageElement).getBoundingClientRect().width }));
    assert.equal(Math.round(sizes.shown), sizes.natural, 'the viewer shows the screenshot at full size');
    assert.deepEqual(await seriousA11yViolations(page), [], 'the screenshot viewer has no serious accessibility violation');
    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: `Screenshot 2 of ${pages.length}, full size` }).getByRole('img', { name: `Screenshot of ${pages[1].url}` }).waitFor();
    await page.getByRole('button', { name: '← Previous' }).click();
    await viewer.waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('dialog').count(), 0, 'Esc closed the viewer');
  });
});
