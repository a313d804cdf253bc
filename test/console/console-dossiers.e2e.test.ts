// Dossiers and scheduled reports in the console, in real Chromium against the real API, worker,
// PostgreSQL and Temporal: an analyst generates a dossier from a case page and watches its
// progress, opens it, verifies it and downloads it (a ZIP); on Scheduled reports, "Run now" makes a
// report that the generated list shows with a download; an admin deactivates a schedule only after
// confirming. axe-core: no serious or critical violation on the case, dossier, dossiers and
// reports pages.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { seriousA11yViolations } from '../support/axe';
import { signInToConsole } from '../support/console-sign-in';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker } from '../support/platform';

describe('console: dossiers and scheduled reports (end to end, Chromium)', function () {
  this.timeout(150_000);
  const queue = `console-dos-${randomUUID().slice(0, 8)}`;
  let url: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' };
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
    users = await usersForEveryRole();
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  it('generates a dossier from a case with live progress, verifies it and downloads it as a ZIP', async () => {
    const analyst = asUser(users.analyst);
    const title = `Pig butchering ${queue}`;
    const created = await http(`${url}/cases`, { method: 'POST', headers: analyst, json: { title, description: `victim report ${queue}`, priority: 'high' } });
    assert.equal(created.status, 201, created.text);
    const caseId = created.body.id as string;

    await signInToConsole(page, url, users.analyst);
    await page.goto(`${url}/console/cases/${caseId}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByText('No dossier of this case yet.').waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'the case page has no serious accessibility violation');
    await page.getByLabel('Dossier title').fill(`Dossier ${queue}`);
    await page.getByRole('button', { name: 'Generate dossier' }).click();
    // The live progress, then the sealed dossier's link.
    await page.getByRole('status').filter({ hasText: 'Dossier:' }).first().waitFor();
    await page.getByRole('status').filter({ hasText: 'The dossier is sealed.' }).waitFor({ timeout: 90_000 });
    await page.getByRole('listitem').filter({ hasText: `Dossier ${queue}` }).getByText('ready', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Open the dossier' }).click();
    await page.waitForURL(/\/console\/dossiers\/[0-9a-f-]{36}$/);
    const dossierId = /dossiers\/([0-9a-f-]{36})/.exec(page.url())![1];
    await page.getByRole('heading', { name: `Dossier ${queue}`, level: 1 }).waitFor();

    const detail = await http(`${url}/reports/dossiers/${dossierId}`, { headers: analyst });
    assert.equal(detail.body.status, 'ready');
    assert.equal(detail.body.case_id, caseId);
    const artifacts = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'SHA-256' }) });
    for (const a of detail.body.artifacts as Array<{ name: string; sha256: string }>) {
      assert.ok((await artifacts.locator('tr', { hasText: a.name }).innerText()).includes(a.sha256), `the artifact ${a.name} shows its SHA-256`);
    }

    await page.getByRole('button', { name: 'Verify the dossier' }).click();
    await page.getByRole('status').filter({ hasText: 'Verified: the manifest, its signature and every artifact check out.' }).waitFor();
    await page.getByRole('button', { name: 'Show the signed manifest' }).click();
    await page.getByLabel('datapackage.json').waitFor();
    assert.ok((await page.getByLabel('datapackage.json').innerText()).includes('"resources"'), 'the signed manifest shows');
    // The access list: the dossier's creator owns its folder.
    await page.getByRole('table', { name: 'Who may read the dossier’s shared folder' }).locator('tr', { hasText: users.analyst }).filter({ hasText: 'dossier creator' }).filter({ hasText: 'owner' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'the dossier page has no serious accessibility violation');

    // A download needs a purpose, recorded in the audit log.
    assert.equal(await page.getByRole('button', { name: 'Download the dossier (ZIP)' }).isDisabled(), true);
    await page.getByLabel('Purpose of the download').fill(`referral ${queue}`);
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the dossier (ZIP)' }).click()]);
    assert.equal(zip.suggestedFilename(), `dossier-${dossierId}.zip`);
    const bytes = fs.readFileSync((await zip.path())!);
    assert.equal(bytes.subarray(0, 4).toString('hex'), '504b0304', 'the download is a ZIP');
    await page.getByText(`saved dossier-${dossierId}.zip, SHA-256 ${createHash('sha256').update(bytes).digest('hex')}`).waitFor();
    const audit = await http(`${url}/audit/events?target_id=${dossierId}`, { headers: asUser(users.admin) });
    assert.ok((audit.body.items as Array<{ action: string; actor: string; purpose: string | null }>).some((e) => e.action === 'dossier.download' && e.actor === users.analyst && e.purpose === `referral ${queue}`), 'the download is audited with its purpose');

    // The dossiers list shows it.
    await page.getByRole('link', { name: 'Dossiers', exact: true }).click();
    await page.getByRole('link', { name: `Dossier ${queue}` }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'the dossiers list has no serious accessibility violation');
  });

  it('runs a scheduled report now, lists it with a download, and deactivates a schedule only after confirming', async () => {
    const admin = asUser(users.admin);
    const recipient = `ops-${queue}@example.org`;
    const made = await http(`${url}/intelligence/scheduled-reports`, {
      method: 'POST', headers: admin, json: { template: 'wallet-activity', cadence: 'monthly', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: [recipient] },
    });
    assert.equal(made.status, 201, made.text);
    const scheduleId = made.body.id as string;

    await signInToConsole(page, url, users.admin, { fresh: true });
    await page.getByRole('link', { name: 'Scheduled reports' }).click();
    const row = page.locator('tr', { hasText: recipient });
    await row.waitFor();
    const [started] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/reports/generate') && r.request().method() === 'POST'),
      row.getByRole('button', { name: 'Run now: the monthly wallet-activity report' }).click(),
    ]);
    assert.equal(started.status(), 202);
    const taskId = ((await started.json()) as { task_id: string }).task_id;
    await page.getByRole('status').filter({ hasText: 'The wallet-activity report is ready' }).waitFor({ timeout: 60_000 });

    // The new report: listed with a download of its bytes.
    const mine = await http(`${url}/reports/generated?template=wallet-activity&limit=100`, { headers: admin });
    const report = (mine.body.items as Array<{ id: string; task_id: string; requested_by: string; title: string; sha256: string; schedule_id: string | null }>).find((r) => r.task_id === taskId);
    assert.ok(report, `the run made a generated report (task ${taskId})`);
    assert.equal(report.requested_by, users.admin);
    assert.equal(report.schedule_id, null, 'a run now is a one-off report (the schedule keeps its cadence)');
    const reportRow = page.getByRole('table', { name: 'Generated reports, newest first' }).locator(`tr[data-report-id="${report.id}"]`);
    assert.ok((await reportRow.innerText()).includes(report.title), 'the report is listed with its title');
    const [file] = await Promise.all([page.waitForEvent('download'), reportRow.getByRole('button', { name: /^Download / }).click()]);
    const body = fs.readFileSync((await file.path())!);
    assert.equal(createHash('sha256').update(body).digest('hex'), report.sha256, 'the downloaded bytes are the report');
    assert.doesNotThrow(() => JSON.parse(body.toString('utf8')), 'the JSON report parses');
    assert.deepEqual(await seriousA11yViolations(page), [], 'the reports page has no serious accessibility violation');

    // Deactivating asks first; "Keep" leaves the schedule active.
    await row.getByRole('button', { name: 'Deactivate the monthly wallet-activity schedule' }).click();
    await row.getByRole('button', { name: 'Keep' }).click();
    assert.equal((await http(`${url}/intelligence/scheduled-reports?limit=200`, { headers: admin })).body.items.find((s: { id: string }) => s.id === scheduleId).is_active, true);
    await row.getByRole('button', { name: 'Deactivate the monthly wallet-activity schedule' }).click();
    await row.getByRole('button', { name: 'Yes, deactivate' }).click();
    await row.getByText('no (deactivated)').waitFor();
    assert.equal((await http(`${url}/intelligence/scheduled-reports?limit=200`, { headers: admin })).body.items.find((s: { id: string }) => s.id === scheduleId).is_active, false);
  });
});
