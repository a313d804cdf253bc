// The takedowns area in real Chromium against the real API, PostgreSQL and Temporal, a loopback
// RDAP server and the SMTP sink: an analyst opens a completed investigation and presses "Request
// takedown" (click 1: a draft with the RDAP recipients), an admin approves it on the Takedowns page
// (click 2) and sends it (click 3); the mails go out and the takedown is listed as sent, still up.
// The page has no serious or critical axe violations.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addUserRoles } from '../../db/repositories/accounts/user-repository';
import { insertInvestigation, insertPage, setInvestigationState } from '../../db/repositories/investigations/investigation-repository';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { seriousA11yViolations } from '../support/axe';
import { signInToConsole } from '../support/console-sign-in';
import { startTestApi, startTestWorker, testDeps, testKnex } from '../support/platform';
import { startRdapServer, type RdapServer } from '../support/rdap-server';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { waitFor } from '../support/wait-for';

describe('console takedowns (end to end, Chromium)', function () {
  this.timeout(240_000);
  let url: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let smtp: SmtpSink;
  let rdap: RdapServer;
  const tag = randomUUID().slice(0, 8);
  const analyst = `takedown-ui-${tag}@example.org`;
  const admin = `takedown-ui-admin-${tag}@example.org`;
  const domain = `takedown-ui-${tag}.example`;
  const scanId = randomUUID();

  before(async () => {
    smtp = await startSmtpSink();
    rdap = await startRdapServer(`abuse-${tag}@registrar.example`, `abuse-${tag}@hosting.example`);
    const queue = `takedowns-ui-${tag}`;
    const env = {
      SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true',
      SVC_SMTP__URL: smtp.url, SVC_TAKEDOWN__RDAP_BASE_URL: rdap.url, SVC_TAKEDOWN__ALLOW_PRIVATE_TARGETS: '127.0.0.1', SVC_TAKEDOWN__RDAP_CACHE_HOURS: '0',
      SVC_WORKER__INSTANCE: `t-${queue}`,
    };
    url = (await startTestApi(env)).url;
    await startTestWorker(queue, env);
    await addUserRoles(testKnex(), analyst, ['analyst']);
    await addUserRoles(testKnex(), admin, ['admin']);
    const knex = testKnex();
    const blobs = (await testDeps()).blobs;
    await insertInvestigation(knex, { scanId, url: `https://${domain}/`, domain, requestedBy: analyst, playbookId: null, caseId: null, label: `Takedown UI ${tag}`, options: {} });
    await setInvestigationState(knex, scanId, { state: 'CAPTURE', status: 'running' });
    const blob = await blobs.put(Buffer.from(`<html>${tag}</html>`));
    const art = { key: blob.key, sha256: blob.sha256, size: blob.size };
    await insertPage(knex, { scanId, url: `https://${domain}/`, seq: 1, state: 'CAPTURE', title: 'x', httpStatus: 200, serverIp: '203.0.113.44', tls: null, responseHeaders: {}, screenshot: art, dom: art, har: art, capturedAt: new Date() });
    await setInvestigationState(knex, scanId, { state: 'COMPLETE', status: 'completed' });
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await smtp?.close();
    await rdap?.close();
  });

  it('requests a takedown from the investigation page, another person approves and sends it from the Takedowns page', async () => {
    await page.goto(`${url}/console`);
    await signInToConsole(page, url, analyst, { fresh: true });
    await page.goto(`${url}/console/investigations/${scanId}`);
    await page.getByRole('heading', { level: 1, name: `Takedown UI ${tag}` }).waitFor();
    await page.getByRole('button', { name: 'Request takedown' }).click();
    const drafted = page.getByRole('status').filter({ hasText: 'Takedown drafted for' });
    await drafted.waitFor();
    assert.match(await drafted.innerText(), new RegExp(`abuse-${tag}@registrar\\.example \\(registrar\\)`));

    await signInToConsole(page, url, admin, { fresh: true });
    await page.getByRole('link', { name: 'Takedowns' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Takedowns' }).waitFor();
    await page.getByRole('button', { name: `Approve: takedown of ${domain}` }).click().catch(async (err: unknown) => {
      throw new Error(`no Approve button for ${domain}; the page shows: ${await page.locator('main').innerText()}`, { cause: err });
    });
    await page.getByRole('status').filter({ hasText: `Approved the takedown of ${domain}` }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), []);
    await page.getByRole('button', { name: `Send: takedown of ${domain}` }).click();
    await page.getByRole('status').filter({ hasText: `Sending the takedown of ${domain}` }).waitFor();

    await smtp.waitFor((m) => m.subject?.includes(domain) === true && m.to !== undefined && !Array.isArray(m.to) && m.to.text === `abuse-${tag}@hosting.example`, 60_000);
    await smtp.waitFor((m) => m.subject?.includes(domain) === true && m.to !== undefined && !Array.isArray(m.to) && m.to.text === `abuse-${tag}@registrar.example`, 60_000);
    const [row] = await testKnex()('takedowns').where({ scan_id: scanId });
    assert.equal(row.created_by, analyst);
    assert.equal(row.approved_by, admin);
    await waitFor('the takedown sent', async () => (await testKnex()('takedowns').where({ id: row.id }).first()).status === 'sent', 60_000);
    await page.reload();
    const sentRow = page.getByRole('table', { name: 'Sent takedowns whose site is not down' }).getByRole('row').filter({ hasText: domain });
    await sentRow.waitFor();
    assert.match(await sentRow.innerText(), /sent/);
  });
});
