// The administration pages in real Chromium against the real API and PostgreSQL: only admins get
// the Administration item (an analyst gets a clear "not allowed" page); an admin adds a user,
// changes its roles and disables it (after confirming); creates an API key whose secret is shown
// once with a copy button and revokes it (after confirming; the API then refuses the key); reads
// the audit log with its filters and page cursor in the URL; creates, edits and finds playbooks with
// the test-match tool. axe-core finds no serious or critical violation on any of these pages.
// FIP_ADMIN_SCREENSHOTS=<dir> also saves each page's screenshot there (the docs' images).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { seriousA11yViolations } from '../support/axe';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi } from '../support/platform';
import { signInToConsole } from '../support/console-sign-in';

describe('console administration: users, API keys, audit log, playbooks (end to end, Chromium)', function () {
  this.timeout(180_000);
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const tag = randomUUID().slice(0, 8);

  before(async () => {
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    users = await usersForEveryRole();
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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

  async function checkPage(name: string) {
    assert.deepEqual(await seriousA11yViolations(page), [], `${name}: no serious or critical axe violation`);
    const dir = process.env.FIP_ADMIN_SCREENSHOTS;
    if (dir) await page.screenshot({ path: path.join(dir, `admin-${name}.png`), fullPage: true });
  }

  it('an analyst has no Administration item and gets a "not allowed" page', async () => {
    await signIn(users.analyst);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Cases' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Administration' }).count(), 0);
    await page.goto(`${url}/console/admin/keys`);
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    assert.match(await page.getByRole('alert').innerText(), /for administrators only/);
    assert.equal(await page.getByRole('button', { name: 'Create key' }).count(), 0);
    await checkPage('not-allowed');
  });

  it('an admin adds a user, changes its roles and disables it after confirming', async () => {
    await signIn(users.admin);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).click();
    await page.waitForURL(/\/console\/admin$/);
    await page.getByRole('heading', { name: 'Users and roles' }).waitFor();
    const email = `console-user-${tag}@example.org`;
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('group', { name: 'Roles' }).getByLabel('analyst').uncheck();
    await page.getByRole('group', { name: 'Roles' }).getByLabel('reviewer').check();
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('status').filter({ hasText: `Added ${email} (reviewer)` }).waitFor();
    await page.getByLabel('E-mail contains').fill(tag);
    await page.waitForURL(new RegExp(`q=${tag}`));
    const row = page.getByRole('row').filter({ hasText: email });
    await row.filter({ hasText: 'reviewer' }).waitFor();
    await checkPage('users');

    await row.getByRole('button', { name: `Change roles of ${email}` }).click();
    await row.getByRole('group', { name: `Roles of ${email}` }).getByLabel('analyst').check();
    await row.getByRole('button', { name: `Save roles of ${email}` }).click();
    await page.getByRole('status').filter({ hasText: `${email} now has the roles analyst, reviewer.` }).waitFor();
    const listed = await http(`${url}/accounts/users?q=${tag}`, { headers: asUser(users.admin) });
    assert.deepEqual(listed.body.items[0].roles, ['analyst', 'reviewer']);

    await row.getByRole('button', { name: `Disable ${email}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Disable ${email}?` });
    await confirm.getByRole('button', { name: 'Keep the user' }).click();
    assert.equal((await http(`${url}/accounts/users?q=${tag}`, { headers: asUser(users.admin) })).body.items[0].active, true, 'keeping changed nothing');
    await row.getByRole('button', { name: `Disable ${email}` }).click();
    await confirm.getByRole('button', { name: `Yes, disable ${email}` }).click();
    await page.getByRole('status').filter({ hasText: `Disabled ${email}` }).waitFor();
    await row.getByRole('cell', { name: 'disabled', exact: true }).waitFor();
    assert.deepEqual((await http(`${url}/accounts/me`, { headers: asUser(email) })).body.roles, [], 'the API gives the disabled user no role');
  });

  it('an admin creates an API key shown once with a copy button, and revokes it after confirming: the API refuses it', async () => {
    await page.goto(`${url}/console/admin/keys`);
    const name = `console-key-${tag}`;
    await page.getByLabel('Name (who uses the key, e.g. intake-bot)').fill(name);
    await page.getByLabel('reports:read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('region', { name: `The key ${name}` });
    const secret = (await shown.locator('code').innerText()).trim();
    assert.match(secret, /^fip_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    assert.match(await shown.innerText(), /shown this once/);
    await shown.getByRole('button', { name: `Copy the key ${name}` }).waitFor();
    assert.equal((await http(`${url}/reports/generated?limit=1`, { headers: { 'X-API-KEY': secret } })).status, 200, 'the key shown works');
    await checkPage('keys');
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('reports:read').waitFor();
    assert.ok(!(await page.content()).includes(secret.split('_')[2]!), 'the secret is never shown again');

    await row.getByRole('button', { name: `Revoke the key ${name}` }).click();
    await page.getByRole('alertdialog', { name: `Revoke the key ${name}?` }).getByRole('button', { name: `Yes, revoke ${name}` }).click();
    await page.getByRole('status').filter({ hasText: `Revoked the key ${name}` }).waitFor();
    await row.getByText(/^revoked/).waitFor();
    assert.equal((await http(`${url}/reports/generated?limit=1`, { headers: { 'X-API-KEY': secret } })).status, 401, 'the revoked key is refused');
  });

  it('the audit log filters by actor, action and time from the URL and pages by its cursor', async () => {
    // Two audit events of this test's own: a key created and revoked by the admin.
    const created = await http(`${url}/accounts/api-keys`, { method: 'POST', headers: asUser(users.admin), json: { name: `audit-key-${tag}`, scopes: ['taxii:read'] } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await http(`${url}/accounts/api-keys/${created.body.id}/revoke`, { method: 'POST', headers: asUser(users.admin) })).status, 200);
    const q = new URLSearchParams({ actor: users.admin, target_id: created.body.id, limit: '1' });
    await page.goto(`${url}/console/admin/audit?${q.toString()}`);
    const table = page.getByRole('table', { name: /Audit events/ });
    await table.getByRole('row').filter({ hasText: 'api_key.revoke' }).waitFor();
    assert.equal(await page.getByLabel('Actor (e-mail, service:<name>, cli)').inputValue(), users.admin, 'the form shows the filters of the URL');
    assert.equal(await table.locator('tbody tr').count(), 1);
    await checkPage('audit');
    await page.getByRole('button', { name: 'Next page of audit events' }).click();
    await page.waitForURL(/cursor=/);
    await table.getByRole('row').filter({ hasText: 'api_key.create' }).waitFor();
    assert.equal(await table.locator('tbody tr').count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Next page of audit events' }).count(), 0, 'two events, two pages');

    await page.getByLabel('Action (e.g. user.disable)').fill('api_key.revoke');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((u) => u.searchParams.get('action') === 'api_key.revoke' && !u.searchParams.has('cursor'));
    await table.getByRole('row').filter({ hasText: 'api_key.revoke' }).waitFor();

    await page.getByLabel('From (UTC)').fill('2099-01-01T00:00');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((u) => u.searchParams.get('since') === '2099-01-01T00:00:00Z');
    await page.getByText('No audit event matches these filters.').waitFor();
  });

  it('an admin creates and edits a playbook, and the test-match tool names it for a matching URL', async () => {
    await page.goto(`${url}/console/admin/playbooks`);
    await page.getByRole('button', { name: 'New playbook' }).click();
    await page.getByLabel('Name').fill(`Console playbook ${tag}`);
    await page.getByLabel(/URL patterns/).fill(`pb-${tag}.scam.test/**`);
    await page.getByLabel(/Steps \(JSON/).fill('[{"type": "click", "selector": "#deposit"}, {"type": "limit_pages", "max": 5}]');
    await page.getByRole('button', { name: 'Create playbook' }).click();
    await page.waitForURL(/\/console\/admin\/playbooks\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: `Playbook Console playbook ${tag}` }).waitFor();
    assert.equal(await page.getByRole('listitem').filter({ hasText: '"limit_pages"' }).count(), 1);
    await checkPage('playbook');

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name').fill(`Console playbook ${tag} v2`);
    await page.getByLabel(/Steps \(JSON/).fill('[{"type": "click"}]');
    await page.getByRole('button', { name: 'Save playbook' }).click();
    assert.match(await page.getByRole('alert').innerText(), /steps.*selector/i, 'the API names the field of the mistake');
    await page.getByLabel(/Steps \(JSON/).fill('[{"type": "click", "selector": "#pay"}]');
    await page.getByRole('button', { name: 'Save playbook' }).click();
    await page.getByRole('status').filter({ hasText: `Saved Console playbook ${tag} v2.` }).waitFor();
    const stored = await http(`${url}/playbooks/ssi/${id}`, { headers: asUser(users.admin) });
    assert.equal(stored.body.name, `Console playbook ${tag} v2`);
    assert.deepEqual(stored.body.steps, [{ type: 'click', selector: '#pay' }]);

    await page.getByRole('link', { name: 'All playbooks' }).click();
    await page.getByRole('link', { name: `Console playbook ${tag} v2` }).waitFor();
    await page.getByLabel('URL of a site').fill(`https://pb-${tag}.scam.test/deposit`);
    await page.getByRole('button', { name: 'Test the URL' }).click();
    const result = page.getByRole('status', { name: 'Test result' });
    await result.getByRole('link', { name: `Console playbook ${tag} v2` }).waitFor();
    assert.match(await result.innerText(), new RegExp(`pb-${tag}\\.scam\\.test/\\*\\*`));
    await checkPage('playbooks');
    await page.getByLabel('URL of a site').fill(`https://other-${tag}.scam.test/`);
    await page.getByRole('button', { name: 'Test the URL' }).click();
    await result.getByText(/No enabled playbook matches this URL/).waitFor();
  });
});
