// An analyst's whole day in the console, in one real Chromium against one real API, worker,
// PostgreSQL and Temporal stack: a partner's key submits an intake with files (through the API, as
// the partner would); the analyst previews and downloads its files, attaches it to a new case,
// investigates its URL (a loopback fixture site, allowed by the test's egress allow-list) from the
// intake page, which links the investigation to the case, and requests a review; a reviewer claims
// it and decides refer_to_lea; the analyst completes the referral, generates a dossier, verifies
// it and downloads it (the bytes' SHA-256 checked against the API's own download). axe-core: no
// serious or critical violation on any page visited. With FIP_DOC_SCREENSHOTS=1 it saves the
// screenshots of docs/console.md's "An analyst's day" to docs/images/.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import type { Role } from '../../domain/accounts/roles';
import { seriousA11yViolations } from '../support/axe';
import { pageQueueUntil } from '../support/review-queue';
import { signInToConsole } from '../support/console-sign-in';
import { docScreenshot } from '../support/doc-screenshot';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';
import { waitFor } from '../support/wait-for';
import { startScamSiteFixture, type ScamSiteFixture } from '../support/scam-site-fixture';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- unzipper ships no types
const unzipper = require('unzipper') as { Open: { file(p: string): Promise<{ files: Array<{ path: string; type: string; buffer(): Promise<Buffer> }> }> } };

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('console: an analyst\'s whole day, intake to dossier (end to end, Chromium)', function () {
  this.timeout(300_000);
  const queue = `whole-day-${randomUUID().slice(0, 8)}`;
  const tag = queue.slice(-8);
  let site: ScamSiteFixture;
  let url: string;
  let users: Record<Role, string>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const noA11yViolations = async (what: string) => assert.deepEqual(await seriousA11yViolations(page), [], `axe on ${what}`);
  const confirm = async (action: string, yes?: string) => {
    await page.getByRole('button', { name: action, exact: true }).click();
    const group = page.getByRole('group', { name: `Confirm: ${action}` });
    await group.getByRole('button', { name: yes ?? /^Yes, / }).click();
    await group.waitFor({ state: 'detached' });
  };

  before(async () => {
    site = await startScamSiteFixture();
    const env = {
      SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true',
      SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_WORKER__INSTANCE: `t-${queue}`,
    };
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
    await site?.close();
  });

  it('intake (partner key) → files previewed and downloaded → new case → investigation → review refer_to_lea → referral completed → dossier generated, verified and downloaded', async () => {
    const started = Date.now();
    // The victim's screenshot of the chat: a real PNG, drawn by the test's browser.
    await page.setContent('<div id="chat" style="font:15px sans-serif;padding:12px;width:320px;background:#e7f0e4"><p><b>Broker Max:</b> Deposit 2,000 EUR today for the 40% bonus.</p><p><b>Victim:</b> Sent. When can I withdraw?</p><p><b>Broker Max:</b> After the 2,200 EUR tax.</p></div>');
    const PNG = await page.locator('#chat').screenshot();
    // The partner, outside the console: its key (intake:write only) submits the victim's report.
    const partnerKey = await createTestApiKey(['intake:write']);
    const summary = `Crypto broker took savings ${tag}`;
    const siteUrl = `${site.origin}/r1`;
    const form = new FormData();
    form.append('payload', JSON.stringify({ source: 'partner-bank', summary, details: 'Paid a "broker" twice; screenshots attached.', urls: [siteUrl], loss_amount: '4200.00', loss_currency: 'EUR' }));
    form.append('files', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'chat.png');
    form.append('files', new Blob([PDF], { type: 'application/pdf' }), 'statement.pdf');
    const submitted = await http(`${url}/intakes`, { method: 'POST', headers: { 'X-API-KEY': partnerKey }, body: form });
    assert.equal(submitted.status, 201, submitted.text);
    const intakeId = submitted.body.id as string;

    // Morning: the analyst opens the intake from the list.
    await signInToConsole(page, url, users.analyst);
    await page.goto(`${url}/console/intakes`);
    await page.getByRole('link', { name: summary }).first().click();
    await page.waitForURL(new RegExp(`/console/intakes/${intakeId}$`));
    await page.getByRole('heading', { name: summary }).waitFor();
    // The image previews as a thumbnail and enlarges; the PDF opens in a new tab.
    const thumb = page.getByRole('button', { name: 'Enlarge: Uploaded image chat.png' });
    await thumb.waitFor();
    await page.getByRole('heading', { name: 'Web addresses' }).scrollIntoViewIfNeeded();
    await docScreenshot(page, 'analyst-day-1-intake');
    await noA11yViolations('the intake page');
    await thumb.click();
    const viewer = page.getByRole('dialog', { name: /full size/ });
    await viewer.getByRole('img', { name: 'Uploaded image chat.png' }).waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    const [pdfTab] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Preview PDF: statement.pdf' }).click()]);
    await pdfTab.close();
    // Every file downloads: the bytes are the partner's, byte for byte.
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download chat.png' }).click()]);
    assert.equal(saved.suggestedFilename(), 'chat.png');
    assert.equal(sha256(fs.readFileSync((await saved.path())!)), sha256(PNG));
    await page.getByRole('status').filter({ hasText: `saved chat.png, SHA-256 ${sha256(PNG)}` }).waitFor();
    // The reads are in the audit log: the thumbnail's and the viewer's, the PDF's (which may land a moment later), the download.
    const fileReads = await waitFor('the file reads in the audit log', async () => {
      const rows = await testKnex()('audit_events').where({ target_type: 'intake', target_id: intakeId }).whereIn('action', ['intake.file.view', 'intake.file.download']);
      return rows.length >= 4 ? rows : null;
    });
    assert.deepEqual(fileReads.map((a: { action: string; actor: string; details: { filename: string } }) => `${a.action} ${a.details.filename} ${a.actor}`).sort(), [
      `intake.file.download chat.png ${users.analyst}`,
      `intake.file.view chat.png ${users.analyst}`,
      `intake.file.view chat.png ${users.analyst}`,
      `intake.file.view statement.pdf ${users.analyst}`,
    ]);

    // Attach it to a new case.
    const caseTitle = `Broker ring ${tag}`;
    await page.getByLabel('New case title').fill(caseTitle);
    await page.getByLabel('Priority').selectOption('critical');
    await confirm('Attach', 'Yes, attach');
    await page.waitForURL(/\/console\/cases\/[0-9a-f-]{36}$/);
    const caseId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: caseTitle, level: 1 }).waitFor();

    // Investigate the intake's URL from the intake page: the scan is linked to the case.
    await page.getByRole('list', { name: 'Case timeline, newest first' }).getByRole('link', { name: 'Intake attached' }).click();
    await page.getByRole('button', { name: `Investigate ${siteUrl}` }).click();
    await page.waitForURL(/\/console\/investigations\/[0-9a-f-]{36}$/);
    const scanId = page.url().split('/').pop()!;
    await page.locator('.badge-completed').first().waitFor({ timeout: 150_000 });
    const scan = await http(`${url}/investigations/ssi/${scanId}`, { headers: asUser(users.analyst) });
    assert.equal(scan.body.status, 'completed', JSON.stringify(scan.body.error));
    assert.equal(scan.body.case_id, caseId);
    assert.ok((scan.body.wallets as Array<{ address: string }>).some((w) => w.address === site.wallets.home), 'the site\'s wallet was found');
    await docScreenshot(page, 'analyst-day-2-investigation');
    await noA11yViolations('the investigation page');

    // Back on the case: the investigation is linked and on the timeline; request a review.
    await page.getByRole('link', { name: caseId }).click();
    await page.getByRole('heading', { name: caseTitle, level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Linked investigations' }).getByRole('link', { name: scanId }).waitFor();
    await page.getByRole('list', { name: 'Case timeline, newest first' }).getByRole('link', { name: 'Investigation linked' }).waitFor();
    await confirm('Request a review');
    await page.getByRole('status').filter({ hasText: 'Review requested' }).waitFor();
    await page.getByRole('heading', { name: 'Timeline' }).evaluate((h) => h.scrollIntoView());
    await docScreenshot(page, 'analyst-day-3-case');
    await noA11yViolations('the case page');

    // The reviewer: lands on the queue, claims the review and refers the case to law enforcement.
    await signInToConsole(page, url, users.reviewer, { fresh: true });
    await page.waitForURL(/\/console\/reviews$/);
    // The shared queue holds other tests' reviews too: the critical ones, oldest first, 100 a page,
    // so the reviewer pages on to the newest.
    await page.getByLabel('Priority').selectOption('critical');
    await page.waitForURL((u) => u.searchParams.get('priority') === 'critical');
    const reviewLink = page.getByRole('link', { name: `Open the review of ${caseTitle}` });
    await pageQueueUntil(page, reviewLink);
    await reviewLink.click();
    await page.getByRole('heading', { name: `Review of “${caseTitle}”` }).waitFor();
    await page.getByRole('button', { name: 'Claim', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Claimed' }).waitFor();
    await page.getByLabel('Decision').selectOption('refer_to_lea');
    await page.getByLabel('Rationale').fill(`the site's wallet took the victim's money (${tag})`);
    await page.getByRole('button', { name: 'Decide' }).click();
    await page.getByRole('button', { name: 'Yes, record the decision' }).click();
    await page.getByRole('status').filter({ hasText: 'Decision recorded: refer to lea' }).waitFor();
    await docScreenshot(page, 'analyst-day-4-review');
    await noA11yViolations('the review page');

    // The analyst again: the decision drafted the referral; complete it.
    await signInToConsole(page, url, users.analyst, { fresh: true });
    await page.goto(`${url}/console/cases/${caseId}`);
    await page.getByText("Drafted by a review's refer-to-LEA decision.").waitFor();
    await page.getByLabel('Agency', { exact: true }).fill('National Fraud Unit');
    await page.getByLabel('Jurisdiction').fill('GB');
    await page.getByLabel('Contact').fill('desk@nfu.example');
    await page.getByLabel("Agency's reference").fill(`NFU-${tag}`);
    await page.getByRole('button', { name: 'Save referral' }).click();
    await page.getByRole('status').filter({ hasText: 'Referral saved.' }).waitFor();
    for (const [action, to] of [['Mark submitted', 'submitted'], ['Mark acknowledged', 'acknowledged'], ['Close referral', 'closed']]) {
      await confirm(action);
      await page.getByRole('status').filter({ hasText: `Referral moved to ${to}.` }).waitFor();
    }
    const referral = await http(`${url}/cases/${caseId}/lea-referral`, { headers: asUser(users.analyst) });
    assert.equal(referral.body.status, 'closed');
    assert.equal(referral.body.reference, `NFU-${tag}`);

    // The dossier: generated from the case, verified, downloaded.
    await page.getByLabel('Dossier title').fill(`Dossier ${tag}`);
    await page.getByRole('button', { name: 'Generate dossier' }).click();
    await page.getByRole('status').filter({ hasText: 'The dossier is sealed.' }).waitFor({ timeout: 120_000 });
    await docScreenshot(page, 'analyst-day-5-referral-dossier');
    await page.getByRole('link', { name: 'Open the dossier' }).click();
    await page.waitForURL(/\/console\/dossiers\/[0-9a-f-]{36}$/);
    const dossierId = /dossiers\/([0-9a-f-]{36})/.exec(page.url())![1];
    const dossier = await http(`${url}/reports/dossiers/${dossierId}`, { headers: asUser(users.analyst) });
    assert.equal(dossier.body.case_id, caseId);
    assert.ok((dossier.body.artifacts as Array<{ source: { kind: string; id: string } }>).some((a) => a.source.id === scanId), 'the linked investigation is in the dossier');
    await page.getByRole('button', { name: 'Verify the dossier' }).click();
    await page.getByRole('status').filter({ hasText: 'Verified: the manifest, its signature and every artifact check out.' }).waitFor();
    await page.getByLabel('Purpose of the download').fill(`referral NFU-${tag}`);
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the dossier (ZIP)' }).click()]);
    const zipBytes = fs.readFileSync((await zip.path())!);
    // The ZIP is assembled per download (its custody entries differ), so each artifact's bytes are
    // checked against the SHA-256 the API lists for the sealed dossier.
    assert.equal(zipBytes.subarray(0, 4).toString('hex'), '504b0304', 'the download is a ZIP');
    const zipPath = path.join(os.tmpdir(), `${queue}-dossier.zip`);
    fs.writeFileSync(zipPath, zipBytes);
    const entries = new Map<string, string>();
    for (const f of (await unzipper.Open.file(zipPath)).files) if (f.type === 'File') entries.set(f.path, sha256(await f.buffer()));
    fs.rmSync(zipPath);
    const listed = dossier.body.artifacts as Array<{ name: string; sha256: string }>;
    assert.ok(listed.length > 0);
    for (const a of listed) assert.equal(entries.get(a.name), a.sha256, `${a.name} in the downloaded ZIP is the API's artifact`);
    await page.getByText(`saved dossier-${dossierId}.zip, SHA-256 ${sha256(zipBytes)}`).waitFor();
    await docScreenshot(page, 'analyst-day-6-dossier');
    await noA11yViolations('the dossier page');
    console.log(`      (the whole day took ${Math.round((Date.now() - started) / 1000)} s)`);
  });

  it('links an existing investigation to a case from both sides: "Add to case" on the investigation, "Unlink" and "Link investigation" (found by scan id) on the case', async () => {
    const caseTitle = `Linking ${tag}`;
    const created = await http(`${url}/cases`, { method: 'POST', headers: asUser(users.analyst), json: { title: caseTitle } });
    assert.equal(created.status, 201, created.text);
    const caseId = created.body.id as string;
    const scanId = randomUUID();
    await insertInvestigation(testKnex(), { scanId, url: `http://192.0.2.30/${tag}`, domain: '192.0.2.30', requestedBy: users.analyst, playbookId: null, caseId: null, label: `link me ${tag}`, options: {} });
    const linkedScans = async () => ((await http(`${url}/cases/${caseId}`, { headers: asUser(users.analyst) })).body.investigations as Array<{ id: string }>).map((i) => i.id);

    await signInToConsole(page, url, users.analyst, { fresh: true });
    await page.goto(`${url}/console/investigations/${scanId}`);
    await page.getByRole('heading', { name: `link me ${tag}`, level: 1 }).waitFor();
    await page.getByLabel('Case title contains').fill(caseTitle);
    await page.getByRole('button', { name: 'Find cases' }).click();
    await page.getByRole('button', { name: `Add to ${caseTitle}` }).click();
    await page.getByRole('status').filter({ hasText: `Added to case ${caseTitle}.` }).waitFor();
    assert.deepEqual(await linkedScans(), [scanId]);
    await noA11yViolations('the investigation page with "Add to case"');

    await page.getByRole('status').getByRole('link', { name: caseTitle }).click();
    await page.getByRole('heading', { name: caseTitle, level: 1 }).waitFor();
    await confirm(`Unlink ${scanId.slice(0, 8)}`, 'Yes, unlink');
    await page.getByRole('list', { name: 'Linked investigations' }).waitFor({ state: 'detached' });
    assert.deepEqual(await linkedScans(), []);
    await page.getByLabel('Link investigation (URL, host or scan id)').fill(scanId);
    await page.getByRole('button', { name: 'Find investigations' }).click();
    await page.getByRole('button', { name: `Link link me ${tag}` }).click();
    await page.getByRole('list', { name: 'Linked investigations' }).getByRole('link', { name: scanId }).waitFor();
    assert.deepEqual(await linkedScans(), [scanId]);
    await noA11yViolations('the case page with "Link investigation"');
    const audit = await testKnex()('audit_events').where({ target_type: 'case', target_id: caseId }).orderBy('at');
    assert.deepEqual(audit.map((a: { action: string }) => a.action), ['case.investigation.link', 'case.investigation.unlink', 'case.investigation.link']);
  });
});
