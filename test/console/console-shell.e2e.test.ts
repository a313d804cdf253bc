// The console's shell in real Chromium against the real API and PostgreSQL: deep links (every
// filter and sort in the URL) survive a reload, a 10,000-row table keeps a bounded number of rows in
// the DOM while it scrolls to the end, rows and the header search answer the keyboard.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { signInToConsole } from '../support/console-sign-in';

const ROWS = 10_000;

/** An investigation, completed, with `count` wallets (addresses 0x…0000 to 0x…<count-1>, half on tron). */
async function seedBigInvestigation(count: number): Promise<{ scanId: string; addresses: string[] }> {
  const scanId = randomUUID();
  await insertInvestigation(testKnex(), {
    scanId, url: `https://big-${scanId.slice(0, 8)}.scam.test/`, domain: `big-${scanId.slice(0, 8)}.scam.test`, requestedBy: 'seed@example.org',
    playbookId: null, caseId: null, label: `big ${scanId.slice(0, 8)}`, options: {},
  });
  const addresses: string[] = [];
  const wallets = Array.from({ length: count }, (_, i) => {
    const address = `0x${scanId.replace(/-/g, '').slice(0, 28)}${i.toString(16).padStart(12, '0')}`;
    addresses.push(address);
    return { address, token: i % 2 ? 'USDT' : 'ETH', network: i % 2 ? 'tron' : 'ethereum', confidence: 'high' as const, source: 'dom', context: 'pay here', pageUrl: null };
  });
  for (let i = 0; i < wallets.length; i += 2000) await upsertWallets(testKnex(), scanId, wallets.slice(i, i + 2000));
  await testKnex()('investigations').where({ scan_id: scanId }).update({ status: 'completed', state: 'done', wallet_count: count, started_at: new Date(), completed_at: new Date() });
  return { scanId, addresses };
}

describe('console shell: deep links, virtualized tables, keyboard (end to end, Chromium)', function () {
  this.timeout(180_000);
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let big: { scanId: string; addresses: string[] };

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    users = await usersForEveryRole();
    big = await seedBigInvestigation(ROWS);
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await signInToConsole(page, url, users.analyst);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  it('a 10,000-row Results table keeps a bounded number of rows in the DOM and scrolls to the last row', async () => {
    await page.goto(`${url}/console/investigations/${big.scanId}/results`);
    const table = page.getByRole('table');
    await table.locator('tbody tr:not(.spacer)').first().waitFor();
    assert.equal(await page.locator('.table-wrap').getAttribute('data-rows'), String(ROWS), 'the table holds every row');
    const rowsAtTop = await table.locator('tbody tr:not(.spacer)').count();
    assert.ok(rowsAtTop > 5 && rowsAtTop < 100, `${rowsAtTop} rows in the DOM at the top`);
    const sorted = [...big.addresses].sort((a, b) => a.localeCompare(b));
    assert.equal(await table.locator('tbody tr:not(.spacer) code').first().innerText(), sorted[0]);

    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      await page.locator('.table-wrap.virtual').evaluate((el) => el.scrollBy(0, 20_000));
      await page.waitForTimeout(25);
    }
    await page.locator('.table-wrap.virtual').evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await table.locator('tbody tr', { hasText: sorted[ROWS - 1] }).waitFor();
    const scrolledMs = Date.now() - started;
    const rowsAtEnd = await table.locator('tbody tr:not(.spacer)').count();
    assert.ok(rowsAtEnd < 100, `${rowsAtEnd} rows in the DOM at the end`);
    assert.equal(await table.locator('tbody tr', { hasText: sorted[0] }).count(), 0, 'the first row left the DOM');
    assert.ok(scrolledMs < 20_000, `scrolled through ${ROWS} rows in ${scrolledMs} ms`);
  });

  it('the Results sort and filters are a deep link that survives a reload', async () => {
    await page.goto(`${url}/console/investigations/${big.scanId}/results`);
    await page.getByRole('button', { name: 'Address', exact: true }).click();
    await page.waitForURL(/sort=-address/);
    await page.getByLabel('Network').selectOption('tron');
    await page.waitForURL(/network=tron/);
    await page.reload();
    const header = page.getByRole('columnheader', { name: /Address/ });
    await header.waitFor();
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    assert.equal(await page.getByLabel('Network').inputValue(), 'tron');
    const tronSorted = big.addresses.filter((_, i) => i % 2 === 1).sort((a, b) => b.localeCompare(a));
    assert.equal(await page.getByRole('table').locator('tbody tr:not(.spacer) code').first().innerText(), tronSorted[0], 'the first row is the highest tron address');
    assert.match(await page.locator('[aria-live="polite"]', { hasText: 'wallets' }).innerText(), new RegExp(`${ROWS / 2} of ${ROWS} wallets`));
  });

  it('list filters are in the URL: a pasted link shows the same filters after a reload', async () => {
    const q = `nothing-${randomUUID().slice(0, 8)}`;
    await page.goto(`${url}/console/cases`);
    await page.getByLabel('Status').selectOption('in_review');
    await page.getByLabel('Title or description contains').fill(q);
    await page.waitForURL(new RegExp(`q=${q}`));
    assert.match(page.url(), /status=in_review/);
    await page.reload();
    await page.getByRole('heading', { name: 'Cases' }).waitFor();
    assert.equal(await page.getByLabel('Status').inputValue(), 'in_review');
    assert.equal(await page.getByLabel('Title or description contains').inputValue(), q);
    await page.getByText('No case matches.').waitFor();
  });

  it('keyboard: arrow keys move between rows, "/" focuses the header search and Enter opens the search page', async () => {
    await page.goto(`${url}/console/investigations/${big.scanId}/results`);
    const first = page.locator('tbody tr[data-index="0"]');
    await first.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-index')), '2');
    await page.keyboard.press('End');
    await page.waitForFunction((n) => document.activeElement?.getAttribute('data-index') === String(n - 1), ROWS);
    await page.locator('h1').click();
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'global-q');
    await page.keyboard.type('domain:example.org');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/search\?q=domain%3Aexample\.org$/);
  });
});
