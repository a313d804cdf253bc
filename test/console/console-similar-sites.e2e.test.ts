// The investigation page's "Similar sites" section in real Chromium against the real API and
// PostgreSQL: two investigations of one kit (fingerprints written from kit A's HTML, no crawl) show
// each other as linked with their reasons, an unrelated one shows none, and the page stays axe-clean.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { replaceSiteFingerprints } from '../../db/repositories/similarity/fingerprint-repository';
import { minhash } from '../../domain/similarity/locality-hashes';
import { pageStructure } from '../../domain/similarity/page-structure';
import { siteBuckets, type PageFingerprint } from '../../domain/similarity/site-similarity';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { signInToConsole } from '../support/console-sign-in';
import { seriousA11yViolations } from '../support/axe';
import { inEdition, kitAPage, unrelatedPage } from '../support/kit-family-fixture';

/** `n` made-up words of this tag's own: page text no other file's page shares. */
const ownWords = (tag: string, n: number) => Array.from({ length: n }, (_, i) => createHash('sha256').update(`${tag}:${i}`).digest('hex').replace(/[0-9]/g, '').slice(0, 7)).join(' ');

describe('console: similar sites on the investigation page (end to end, Chromium)', function () {
  this.timeout(180_000);
  let url: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const tag = randomUUID().slice(0, 8);
  const ids = { a: randomUUID(), b: randomUUID(), lone: randomUUID() };

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    const users = await usersForEveryRole();
    const knex = testKnex();
    const pages: Record<keyof typeof ids, string> = {
      // Editions of their own: the kit-family test's copies of kit A and of the unrelated page are in the same database.
      a: inEdition(kitAPage(`Alpha${tag}`, '#123456', `0x${'1'.repeat(40)}`, '/a'), tag),
      b: inEdition(kitAPage(`Beta${tag}`, '#654321', `0x${'2'.repeat(40)}`, '/b'), tag),
      // The lone site must resemble nothing in the run's database, where other files investigate
      // the same unrelated page: its own wallet, its own structure (edition) and text of its own.
      lone: inEdition(unrelatedPage(`0x${createHash('sha256').update(tag).digest('hex').slice(0, 40)}`), `${tag}-lone`).replace('</body>', `<p>${ownWords(tag, 400)}</p></body>`),
    };
    for (const [name, scanId] of Object.entries(ids) as Array<[keyof typeof ids, string]>) {
      await insertInvestigation(knex, { scanId, url: `https://${name}-${tag}.scam.test/`, domain: `${name}-${tag}.scam.test`, requestedBy: users.analyst, playbookId: null, caseId: null, label: `similar ${name} ${tag}`, options: {} });
      await knex('investigations').where({ scan_id: scanId }).update({ status: 'completed', state: 'COMPLETE', started_at: new Date(), completed_at: new Date() });
      const s = pageStructure(pages[name]);
      const fp: PageFingerprint = { pageUrl: `https://${name}-${tag}.scam.test/`, domSimhash: s.domSimhash, domElements: s.elements, textMinhash: minhash(s.shingles), assetHashes: name === 'lone' ? [] : [`kit-${tag}`], faviconHash: null, screenshotHash: null };
      await replaceSiteFingerprints(knex, scanId, [{ ...fp, screenshotBlank: false }], siteBuckets({ scanId, pages: [fp], wallets: [], contacts: [], serverIps: [] }));
    }
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

  it('shows the other site of the kit as linked, with its reasons, as a link to its investigation; axe finds nothing serious', async () => {
    await page.goto(`${url}/console/investigations/${ids.a}`);
    const section = page.getByRole('region', { name: 'Similar sites' });
    await section.getByRole('link', { name: ids.b }).waitFor({ timeout: 30_000 });
    const text = await section.innerText();
    assert.match(text, /linked/);
    assert.match(text, /dom: page structure/);
    assert.match(text, /assets: 1 identical/);
    assert.ok(!text.includes(ids.lone), 'the unrelated site is not listed');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await section.getByRole('link', { name: ids.b }).click();
    await page.waitForURL(new RegExp(`/console/investigations/${ids.b}$`));
  });

  it('an unrelated site shows "No similar site."', async () => {
    await page.goto(`${url}/console/investigations/${ids.lone}`);
    await page.getByRole('region', { name: 'Similar sites' }).getByText('No similar site.').waitFor({ timeout: 30_000 });
  });
});
