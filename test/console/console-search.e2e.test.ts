// The search page in real Chromium against the real API and PostgreSQL: autocomplete of fields and
// values from /reviews/search/schema, results grouped by type with highlighted words, the query as a
// deep link, a saved search created with tags, shared with a role and run again, and a query the
// API refuses shown as a sentence naming line and column (never JSON).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi } from '../support/platform';
import { signInToConsole } from '../support/console-sign-in';

describe('console search (end to end, Chromium)', function () {
  this.timeout(180_000);
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const word = `zebrafraud${randomUUID().slice(0, 8).replace(/-/g, '')}`;
  let caseId: string;

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    users = await usersForEveryRole();
    const created = await http(`${url}/cases`, { method: 'POST', headers: asUser(users.analyst), json: { title: `Refund scam ${word}`, description: `victims paid ${word} twice`, priority: 'critical' } });
    assert.equal(created.status, 201, created.text);
    caseId = created.body.id;
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await signInToConsole(page, url, users.analyst);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  it('autocompletes a field and its value, runs the query, groups the results by type with the words highlighted', async () => {
    await page.getByRole('link', { name: 'Search', exact: true }).click();
    const q = page.getByRole('combobox', { name: 'Query' });
    await q.fill('pri');
    const options = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
    await options.filter({ hasText: 'priority:' }).waitFor();
    await q.press('Tab');
    assert.equal(await q.inputValue(), 'priority:');
    await q.pressSequentially('cri');
    await options.filter({ hasText: 'priority:critical' }).waitFor();
    await q.press('Tab');
    assert.equal(await q.inputValue(), 'priority:critical ');
    await q.pressSequentially(word);
    await q.press('Enter');
    await page.waitForURL(/\/console\/search\?q=/, { waitUntil: 'commit' });
    assert.equal(new URL(page.url()).searchParams.get('q'), `priority:critical ${word}`, 'the query is in the URL');
    const group = page.getByRole('region', { name: /Cases \(1\)/ });
    await group.waitFor();
    await group.getByRole('link', { name: `Refund scam ${word}` }).waitFor();
    const marks = await group.locator('mark').allInnerTexts();
    assert.ok(marks.some((m) => m.toLowerCase() === word), `the matched word is highlighted (${marks.join(', ')})`);
    assert.equal(await group.locator('.snippet').first().evaluate((el) => el.innerHTML.includes('&lt;mark')), false, 'the highlight is markup, not escaped text');
    await page.reload();
    await group.getByRole('link', { name: `Refund scam ${word}` }).waitFor();
    assert.equal(await q.inputValue(), `priority:critical ${word}`, 'the query survives a reload');
    await group.getByRole('link', { name: `Refund scam ${word}` }).click();
    await page.waitForURL(new RegExp(`/console/cases/${caseId}$`));
  });

  it('a query the API refuses (400) is a sentence with line and column, never JSON, even opened from a link', async () => {
    await page.goto(`${url}/console/search?q=${encodeURIComponent('loss:>abc')}`);
    const alert = page.getByRole('alert').filter({ hasText: 'This query cannot run' });
    await alert.waitFor();
    const text = await alert.innerText();
    assert.match(text, /line 1, column \d+/);
    assert.ok(!/[{}]|"error"|invalid_query|query_syntax/.test(text), `no JSON or codes: ${text}`);
    await page.goto(`${url}/console/search?q=${encodeURIComponent('status:(open')}`);
    const syntax = page.getByRole('alert').filter({ hasText: 'This query cannot run' });
    await syntax.waitFor();
    assert.match(await syntax.innerText(), /could not be read at line 1, column \d+/);
    const body = await page.locator('body').innerText();
    assert.ok(!body.includes('"code"'), 'no raw JSON on the page');
  });

  it('saves a search with tags, shares it with a role as viewer, and runs it again from the list', async () => {
    const name = `Critical ${word}`;
    await page.goto(`${url}/console/search?q=${encodeURIComponent(`priority:critical ${word}`)}&types=case`);
    assert.equal(await page.getByRole('checkbox', { name: 'Cases' }).isChecked(), true, 'the record types are in the URL');
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Tags (comma-separated)').fill('triage, weekly');
    await page.getByRole('button', { name: 'Save this search' }).click();
    await page.getByRole('status').filter({ hasText: `Saved “${name}”` }).waitFor();
    const card = page.locator('li.saved-search', { hasText: name });
    await card.waitFor();
    assert.match(await card.innerText(), /triage/);
    await card.getByRole('button', { name: 'Share…' }).click();
    await card.getByLabel('Share with').selectOption('role');
    await card.getByLabel('Role').selectOption('reviewer');
    await card.getByLabel('Permission').selectOption('viewer');
    await card.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Shared' }).waitFor();

    const list = await http(`${url}/reviews/search/saved?tag=weekly`, { headers: asUser(users.analyst) });
    const saved = (list.body.items as Array<{ id: string; name: string; query: string; types: string[]; tags: string[]; shares: Array<{ grantee_kind: string; grantee: string; permission: string }> }>).find((s) => s.name === name);
    assert.ok(saved, 'the API lists the saved search under its tag');
    assert.equal(saved.query, `priority:critical ${word}`);
    assert.deepEqual(saved.types, ['case']);
    assert.deepEqual([...saved.tags].sort(), ['triage', 'weekly']);
    assert.deepEqual(saved.shares.map((s) => [s.grantee_kind, s.grantee, s.permission]), [['role', 'reviewer', 'viewer']]);
    const asReviewer = await http(`${url}/reviews/search/saved/${saved.id}`, { headers: asUser(users.reviewer) });
    assert.equal(asReviewer.status, 200, 'a reviewer may open it now');
    assert.equal(asReviewer.body.access, 'viewer');

    await page.goto(`${url}/console/search`);
    await page.getByRole('link', { name: `Run ${name}` }).click();
    await page.waitForURL(/types=case/);
    await page.getByRole('region', { name: /Cases \(1\)/ }).getByRole('link', { name: `Refund scam ${word}` }).waitFor();
    assert.equal(await page.getByRole('combobox', { name: 'Query' }).inputValue(), `priority:critical ${word}`);
  });

  it('a researcher gets the counts per type the API gives, not the records, and no saved searches (the API answers 403)', async () => {
    const api = await http(`${url}/reviews/search/query`, { method: 'POST', headers: asUser(users.researcher), json: { query: word } });
    assert.equal(api.status, 200, api.text);
    const cases = (api.body.aggregates as Array<{ type: string; count: number }>).find((a) => a.type === 'case');
    assert.equal(cases?.count, 1);
    await signInToConsole(page, url, users.researcher, { fresh: true });
    await page.goto(`${url}/console/search?q=${word}`);
    const counts = page.getByRole('region', { name: 'Counts' });
    await counts.getByText('Cases: 1').waitFor();
    assert.equal(await page.getByRole('link', { name: `Refund scam ${word}` }).count(), 0, 'no record, no title');
    assert.ok(!(await page.locator('main').innerText()).includes(`Refund scam ${word}`));
    const saved = await http(`${url}/reviews/search/saved`, { headers: asUser(users.researcher) });
    assert.equal(saved.status, 403, saved.text);
    assert.equal(await page.getByRole('heading', { name: 'Saved searches' }).count(), 0, 'no saved-searches section');
    assert.equal(await page.getByRole('form', { name: 'Save this search' }).count(), 0, 'no save form');
    assert.equal(await page.getByRole('navigation', { name: 'Presets' }).count(), 0, 'no presets (403 too)');
  });
});
