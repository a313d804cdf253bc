// Saved searches in the console, in real Chromium against the real API and PostgreSQL: save with
// tags, share with a role (viewer) and a user (editor); the viewer sees it read-only and runs it, the
// editor renames it; the tag filter; a built-in preset runs in one click; export of the listed
// searches then import of that file by another person (file contents checked); a file with one bad
// document imports nothing and lists each problem; no serious or critical axe violation.
// People and names are this file's own (random suffixes).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addUserRoles } from '../../db/repositories/accounts/user-repository';
import type { Role } from '../../domain/accounts/roles';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { seriousA11yViolations } from '../support/axe';
import { signInToConsole } from '../support/console-sign-in';
import { docScreenshot } from '../support/doc-screenshot';
import { asUser, http } from '../support/http';
import { startTestApi, testKnex } from '../support/platform';

interface SavedApi { id: string; name: string; query: string; types: string[]; tags: string[]; access: string; shares?: Array<{ grantee_kind: string; grantee: string; permission: string }> }

describe('console saved searches (end to end, Chromium)', function () {
  this.timeout(240_000);
  const run = randomUUID().slice(0, 8);
  const tagA = `ta${run}`;
  const tagB = `tb${run}`;
  const people = {} as Record<'owner' | 'viewer' | 'editor' | 'importer', string>;
  let url: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const person = async (label: string, role: Role) => {
    const email = `${label}-${run}@example.org`;
    await addUserRoles(testKnex(), email, [role]);
    return email;
  };
  const listOf = async (email: string, tag: string): Promise<SavedApi[]> => {
    const res = await http(`${url}/reviews/search/saved?tag=${tag}`, { headers: asUser(email) });
    assert.equal(res.status, 200, res.text);
    return res.body.items as SavedApi[];
  };
  const card = (name: string) => page.locator('li.saved-search').filter({ has: page.getByRole('link', { name: `Run ${name}`, exact: true }) });

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    people.owner = await person('owner', 'analyst');
    people.viewer = await person('viewer', 'reviewer');
    people.editor = await person('editor', 'analyst');
    people.importer = await person('importer', 'analyst');
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    await signInToConsole(page, url, people.owner);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  const nameA = `Wallet watch ${run}`;
  const nameB = `Romance losses ${run}`;

  it('saves searches with tags and shares one with a role as viewer and a user as editor', async () => {
    await page.goto(`${url}/console/search?q=${encodeURIComponent('wallet:TQ* loss>5000')}&types=case`);
    await page.getByLabel('Name').fill(nameA);
    await page.getByLabel('Tags (comma-separated)').fill(`${tagA}, crypto`);
    await page.getByRole('button', { name: 'Save this search' }).click();
    await page.getByRole('status').filter({ hasText: `Saved “${nameA}”` }).waitFor();
    await page.goto(`${url}/console/search?q=romance&sort=newest`);
    await page.getByLabel('Name').fill(nameB);
    await page.getByLabel('Tags (comma-separated)').fill(tagB);
    await page.getByRole('button', { name: 'Save this search' }).click();
    await page.getByRole('status').filter({ hasText: `Saved “${nameB}”` }).waitFor();

    const a = card(nameA);
    await a.getByRole('button', { name: 'Share…' }).click();
    await a.getByLabel('Share with').selectOption('role');
    await a.getByLabel('Role').selectOption('reviewer');
    await a.getByLabel('Permission').selectOption('viewer');
    await a.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'with role reviewer as viewer' }).waitFor();
    await a.getByRole('button', { name: 'Share…' }).click();
    await a.getByLabel('E-mail').fill(people.editor);
    await a.getByLabel('Permission').selectOption('editor');
    await a.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `with user ${people.editor} as editor` }).waitFor();
    await a.filter({ hasText: `${people.editor} (editor)` }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.getByRole('heading', { name: 'Saved searches' }).scrollIntoViewIfNeeded();
    await docScreenshot(page, 'console-saved-searches');

    const [saved] = await listOf(people.owner, tagA);
    assert.equal(saved.name, nameA);
    assert.equal(saved.query, 'wallet:TQ* loss>5000');
    assert.deepEqual(saved.types, ['case']);
    assert.deepEqual(saved.tags, ['crypto', tagA]);
    assert.deepEqual(saved.shares?.map((s) => [s.grantee_kind, s.grantee, s.permission]), [['role', 'reviewer', 'viewer'], ['user', people.editor, 'editor']]);
  });

  it('the viewer (by role) sees it read-only and runs it; the editor renames it but may not delete or share it', async () => {
    await signInToConsole(page, url, people.viewer, { fresh: true });
    await page.goto(`${url}/console/search`);
    await page.getByLabel('Only with tag').fill(tagA);
    const a = card(nameA);
    await a.waitFor();
    assert.match(await a.innerText(), /you are viewer \(read-only\)/);
    assert.equal(await a.getByRole('button', { name: /Rename|Share|Delete/ }).count(), 0, 'no change for a viewer');
    await a.getByRole('link', { name: `Run ${nameA}` }).click();
    await page.waitForURL(/types=case/);
    assert.equal(await page.getByRole('combobox', { name: 'Query' }).inputValue(), 'wallet:TQ* loss>5000');
    await page.getByText(/matching records|Nothing matches this query/).first().waitFor();

    await signInToConsole(page, url, people.editor, { fresh: true });
    await page.goto(`${url}/console/search`);
    await page.getByLabel('Only with tag').fill(tagA);
    const e = card(nameA);
    await e.waitFor();
    assert.match(await e.innerText(), /you are editor ·/);
    assert.equal(await e.getByRole('button', { name: /Delete|Share/ }).count(), 0, 'only the owner deletes and shares');
    await e.getByRole('button', { name: 'Rename…' }).click();
    await e.getByLabel('New name').fill(`${nameA} v2`);
    await e.getByRole('button', { name: 'Rename', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `Renamed “${nameA}” to “${nameA} v2”` }).waitFor();
    await card(`${nameA} v2`).waitFor();
    const [after] = await listOf(people.owner, tagA);
    assert.equal(after.name, `${nameA} v2`);
  });

  it('filters by tag (offered, typed or clicked) and runs a built-in preset in one click', async () => {
    await signInToConsole(page, url, people.owner, { fresh: true });
    await page.goto(`${url}/console/search`);
    await page.locator(`#saved-tag-options option[value="${tagA}"]`).waitFor({ state: 'attached' });
    await page.getByLabel('Only with tag').fill(tagB);
    await card(nameB).waitFor();
    assert.equal(await card(`${nameA} v2`).count(), 0, 'the other tag is filtered out');
    await card(nameB).getByRole('button', { name: `Only tag ${tagB}` }).waitFor();
    await page.getByLabel('Only with tag').fill('');
    await card(`${nameA} v2`).getByRole('button', { name: `Only tag ${tagA}` }).click();
    assert.equal(await page.getByLabel('Only with tag').inputValue(), tagA);
    await card(nameB).waitFor({ state: 'detached' });
    await card(`${nameA} v2`).waitFor();

    const presets = await http(`${url}/reviews/search/presets`, { headers: asUser(people.owner) });
    const preset = (presets.body.items as Array<{ name: string; query: string; types: string[] }>).find((p) => p.name === 'Open high-priority cases');
    assert.ok(preset);
    await page.getByRole('navigation', { name: 'Presets' }).getByRole('link', { name: `Run preset ${preset.name}` }).click();
    await page.waitForURL(/types=case/);
    assert.equal(await page.getByRole('combobox', { name: 'Query' }).inputValue(), preset.query);
    await page.getByText(/matching records|Nothing matches this query/).first().waitFor();
    assert.equal(await page.getByRole('alert').filter({ hasText: 'cannot run' }).count(), 0);
  });

  it('exports the listed searches as one JSON file that another person imports whole (contents checked)', async () => {
    await page.goto(`${url}/console/search`);
    await page.getByLabel('Only with tag').fill(tagB);
    await card(nameB).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export the 1 listed' }).click()]);
    assert.equal(download.suggestedFilename(), `saved-searches-${tagB}.fip-search.json`);
    const file = JSON.parse(await readFile((await download.path())!, 'utf8')) as { documents: Array<Record<string, unknown>> };
    assert.equal(file.documents.length, 1);
    const doc = file.documents[0];
    assert.equal(doc.format, 'fip-saved-search');
    assert.equal(doc.version, 1);
    assert.equal(doc.exported_by, people.owner);
    assert.deepEqual(doc.saved_search, { name: nameB, query: 'romance', types: [], filters: {}, sort: 'newest', tags: [tagB] });

    await signInToConsole(page, url, people.importer, { fresh: true });
    await page.goto(`${url}/console/search`);
    await page.getByLabel('Import saved searches (JSON file)').setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await page.getByRole('status').filter({ hasText: 'Imported 1 saved search from mine.json' }).waitFor();
    const [copy] = await listOf(people.importer, tagB);
    assert.deepEqual([copy.name, copy.query, copy.tags, copy.access], [nameB, 'romance', [tagB], 'owner']);
  });

  it('a file with one bad document imports nothing and lists each problem by document', async () => {
    const good = { format: 'fip-saved-search', version: 1, saved_search: { name: `Good ${run}`, query: 'romance', tags: [`bad${run}`] } };
    const broken = { format: 'fip-saved-search', version: 1, saved_search: { name: `Broken ${run}`, query: 'loss>>5', tags: [`bad${run}`] } };
    const old = { format: 'fip-saved-search', version: 7, saved_search: { name: `Old ${run}`, query: 'x', tags: [`bad${run}`] } };
    await page.getByLabel('Import saved searches (JSON file)').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ documents: [good, broken, old] })) });
    const alert = page.getByRole('alert').filter({ hasText: 'Nothing was imported' });
    await alert.waitFor();
    const problems = await alert.getByRole('listitem').allInnerTexts();
    assert.ok(problems.some((p) => /^Document 2 \(.*query\)/.test(p)), problems.join(' | '));
    assert.ok(problems.some((p) => /^Document 3 \(version\)/.test(p)), problems.join(' | '));
    assert.ok(!problems.some((p) => p.startsWith('Document 1')), problems.join(' | '));
    assert.deepEqual(await listOf(people.importer, `bad${run}`), [], 'nothing was written');
    await page.getByLabel('Import saved searches (JSON file)').setInputFiles({ name: 'junk.json', mimeType: 'application/json', buffer: Buffer.from('{not json') });
    await page.getByRole('alert').filter({ hasText: 'junk.json is not JSON' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
  });

  it('the owner deletes a saved search after confirming', async () => {
    await signInToConsole(page, url, people.owner, { fresh: true });
    await page.goto(`${url}/console/search`);
    await page.getByLabel('Only with tag').fill(tagB);
    await card(nameB).getByRole('button', { name: `Delete ${nameB}` }).click();
    await card(nameB).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `Deleted “${nameB}”` }).waitFor();
    assert.deepEqual(await listOf(people.owner, tagB), []);
  });
});
