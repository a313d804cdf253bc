// The funnel agent in the console, end to end in real Chromium against the real API, worker,
// PostgreSQL and Temporal and fixture funnel sites on 127.0.0.1: an analyst starts a scan of a
// captcha-gated exchange from the start form, the console shows the agent's question live with its
// screenshot, the analyst's typed answer moves the scan on to the deposit wallets, and the Overview
// shows the funnel, what the site asked for and (on request, with a purpose) the persona; a
// researcher gets neither. The start form's "Register on the site" checkbox off sends
// agent.register=false. "Abort the funnel" asks first and sends the abort; a question answered
// meanwhile is a sentence, not a failure. The mail a persona received is listed and downloaded with
// a purpose.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { CAPTCHA_ANSWER } from '../support/funnel-site-fixture';
import { runFunnelScan, startFunnelStack, type FunnelStack } from '../support/funnel-stack';
import { http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestMailReceiver } from '../support/platform';
import { waitFor } from '../support/wait-for';
import { signInToConsole } from '../support/console-sign-in';

describe('the funnel agent in the console (end to end, Chromium)', function () {
  this.timeout(420_000);
  let stack: FunnelStack;
  let emails: Awaited<ReturnType<typeof usersForEveryRole>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    const receiver = await startTestMailReceiver();
    stack = await startFunnelStack('console-funnel', { captcha: 'captcha', abort: 'captcha', anonymous: 'english-signup', mail: 'email-code' }, { SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' }, { smtp: { host: receiver.host, port: receiver.port } });
    emails = await usersForEveryRole();
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await stack?.close();
  });

  async function signIn(email: string) {
    await page.goto(`${stack.url}/console`);
    await signInToConsole(page, stack.url, email, { fresh: true });
  }

  /** Starts an investigation from the start form; answers the scan id and the body the form POSTed. */
  async function startFromForm(siteUrl: string, register: boolean): Promise<{ scanId: string; posted: Record<string, unknown> }> {
    await page.getByRole('link', { name: 'Investigations', exact: true }).click();
    await page.getByLabel('Site URL').fill(siteUrl);
    await page.getByLabel('Pages at most').fill('4');
    const checkbox = page.getByLabel('Register on the site (synthetic persona)');
    assert.equal(await checkbox.isChecked(), true, 'registering is on by default');
    if (!register) await checkbox.uncheck();
    const [request] = await Promise.all([
      page.waitForRequest((r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/investigations/ssi'),
      page.getByRole('button', { name: 'Start investigation' }).click(),
    ]);
    await page.waitForURL(/\/console\/investigations\/[0-9a-f-]{36}$/);
    return { scanId: /investigations\/([0-9a-f-]{36})/.exec(page.url())![1]!, posted: request.postDataJSON() as Record<string, unknown> };
  }

  it('a captcha-gated exchange: the console shows the agent\'s question with its screenshot, the analyst\'s answer moves the scan on to the deposit wallets; the Overview shows the funnel and the persona on request, a researcher gets neither', async () => {
    const site = stack.sites.captcha!;
    await signIn(emails.analyst);
    const { scanId, posted } = await startFromForm(`${site.origin}/`, true);
    assert.equal(posted.agent, undefined, `registering on: no agent option sent (${JSON.stringify(posted)})`);

    // The question, live, once the agent asks.
    const panel = page.getByRole('region', { name: 'The agent needs you' });
    await panel.waitFor({ timeout: 240_000 });
    const asked = await http(`${stack.url}/investigations/ssi/${scanId}/guidance`, { headers: stack.users.analyst });
    assert.equal(asked.status, 200, asked.text);
    assert.equal(asked.body.kind, 'captcha');
    const text = await panel.innerText();
    assert.ok(text.includes(asked.body.question), `the panel shows the question "${asked.body.question}": ${text}`);
    assert.ok(text.includes('Captcha'), 'the panel shows the kind');
    const thumb = panel.getByRole('button', { name: 'Enlarge the screenshot' }).locator('img');
    await thumb.waitFor();
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 100, await thumb.elementHandle());
    await panel.getByRole('button', { name: 'Enlarge the screenshot' }).click();
    const enlarged = page.getByRole('dialog', { name: 'Screenshot, enlarged' });
    await enlarged.waitFor();
    await enlarged.getByRole('button', { name: 'Close' }).click();
    await enlarged.waitFor({ state: 'detached' });
    assert.equal(site.accounts.length, 0, 'nothing was submitted before the analyst answered');

    // The active list marks the scan as waiting; its badge leads back to the question.
    await page.getByRole('link', { name: '← Investigations' }).click();
    const badge = page.getByRole('link', { name: /waits for guidance: answer it/ });
    await badge.waitFor();
    await badge.click();
    await page.waitForURL(new RegExp(`/console/investigations/${scanId}$`));
    await panel.waitFor();

    // The answer box has the focus; Enter sends the answer; the panel goes away as the scan moves on.
    await page.waitForFunction(() => document.activeElement?.id === 'guidance-answer');
    await page.keyboard.type(CAPTCHA_ANSWER);
    await page.keyboard.press('Enter');
    await panel.waitFor({ state: 'detached', timeout: 60_000 });
    await page.locator('.badge-completed').first().waitFor({ timeout: 240_000 });
    const detail = await http(`${stack.url}/investigations/ssi/${scanId}`, { headers: stack.users.analyst });
    assert.equal(detail.body.status, 'completed', JSON.stringify(detail.body.error));
    assert.equal(site.accounts[0]?.captcha_answer, CAPTCHA_ANSWER, 'the site received the analyst\'s answer');

    await page.getByRole('tab', { name: /Results/ }).click();
    const results = await page.getByRole('tabpanel').innerText();
    for (const coin of ['BTC', 'ETH', 'USDT'] as const) assert.ok(results.includes(site.wallets[coin]), `the Results show the ${coin} deposit wallet`);

    // The Overview: the funnel's states, what the site asked for, the persona on request.
    await page.getByRole('tab', { name: /Overview/ }).click();
    const funnel = page.getByRole('region', { name: 'The funnel' });
    const states = await funnel.getByRole('list', { name: 'States passed' }).locator('li').allInnerTexts();
    for (const s of ['REGISTER', 'AWAITING_GUIDANCE', 'LOGIN', 'NAVIGATE_DEPOSIT']) assert.ok(states.includes(s), `${s} in ${states.join(', ')}`);
    const exposures = detail.body.pii_exposures as Array<{ kind: string; page_url: string; state: string; field: string | null }>;
    assert.ok(exposures.length > 0);
    const rows = await funnel.getByRole('table', { name: 'What the site asked the persona for' }).locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim()).join('|')));
    assert.deepEqual(rows.sort(), exposures.map((e) => [e.kind, e.field ?? '—', e.page_url, e.state].join('|')).sort());

    assert.equal(await funnel.getByText(site.accounts[0]!.email!).count(), 0, 'the persona is not shown before it is asked for');
    await funnel.getByRole('button', { name: 'Reveal persona' }).click();
    const ask = page.getByRole('dialog', { name: 'Reveal the persona' });
    await ask.getByLabel('Purpose').fill('check the sign-up in the console');
    await ask.getByRole('button', { name: 'Reveal' }).click();
    await funnel.getByText(site.accounts[0]!.email!).waitFor();
    assert.ok((await funnel.innerText()).includes(site.accounts[0]!.password!), 'the persona\'s password is shown');
    const audit = await http(`${stack.url}/audit/events?target_id=${scanId}&action=investigation.persona.read`, { headers: stack.users.admin });
    assert.equal(audit.status, 200, audit.text);
    assert.deepEqual(audit.body.items.map((e: { purpose: string }) => e.purpose), ['check the sign-up in the console']);

    // A researcher: the detail (and the persona with it) is refused, no reveal button anywhere.
    await signIn(emails.researcher);
    await page.goto(`${stack.url}/console/investigations/${scanId}`);
    await page.getByText('Your roles do not allow this').first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Reveal persona' }).count(), 0);
    const refused = await http(`${stack.url}/investigations/ssi/${scanId}/persona?purpose=curious`, { headers: stack.users.researcher });
    assert.equal(refused.status, 403, refused.text);
  });

  it('"Register on the site" off sends agent.register=false: the scan visits as an anonymous visitor and submits no form', async () => {
    const site = stack.sites.anonymous!;
    await signIn(emails.analyst);
    const { scanId, posted } = await startFromForm(`${site.origin}/`, false);
    assert.deepEqual(posted.agent, { register: false });
    const ended = await waitFor('the scan ends', async () => {
      const d = await http(`${stack.url}/investigations/ssi/${scanId}`, { headers: stack.users.analyst });
      return ['completed', 'failed', 'cancelled'].includes(d.body.status) ? d.body : null;
    }, 240_000, 500);
    assert.equal(ended.status, 'completed', JSON.stringify(ended.error));
    const entered = (ended.agent_actions as Array<{ action: string; target: string }>).filter((a) => a.action === 'enter_state').map((a) => a.target);
    assert.ok(!entered.includes('REGISTER'), entered.join(', '));
    assert.equal(site.accounts.length, 0, 'no account was created');
  });

  it('"Abort the funnel" asks for confirmation first, then sends the abort; a question closed meanwhile (409) is said as a sentence and the panel goes away', async () => {
    const site = stack.sites.abort!;
    await signIn(emails.analyst);
    const { scanId } = await startFromForm(`${site.origin}/`, true);
    const panel = page.getByRole('region', { name: 'The agent needs you' });
    await panel.waitFor({ timeout: 240_000 });
    const asked = await http(`${stack.url}/investigations/ssi/${scanId}/guidance`, { headers: stack.users.analyst });
    assert.equal(asked.status, 200, asked.text);

    await panel.getByRole('button', { name: 'Abort the funnel' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Abort the funnel?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Keep waiting' }).click();
    await confirm.waitFor({ state: 'detached' });
    assert.equal((await http(`${stack.url}/investigations/ssi/${scanId}/guidance`, { headers: stack.users.analyst })).status, 200, 'keeping waiting sent nothing');

    // A colleague aborts it through the API while this analyst confirms: the console's abort is a 409.
    await panel.getByRole('button', { name: 'Abort the funnel' }).click();
    await confirm.waitFor();
    const colleague = await http(`${stack.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: stack.users.analyst, json: { request_id: asked.body.request_id, action: 'abort' } });
    assert.equal(colleague.status, 202, colleague.text);
    const [request] = await Promise.all([
      page.waitForRequest((r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === `/investigations/ssi/${scanId}/guidance`),
      confirm.getByRole('button', { name: 'Yes, abort the funnel' }).click(),
    ]);
    assert.deepEqual(request.postDataJSON(), { request_id: asked.body.request_id, action: 'abort' });
    const said = page.getByRole('alert').filter({ hasText: 'This question has expired or was already answered' });
    await said.waitFor();
    await panel.waitFor({ state: 'detached' });
    assert.ok(!(await page.locator('body').innerText()).includes('{"error"'), 'no JSON shown');
    // The scan ends without the funnel; the Overview says where the funnel ended and why.
    await page.locator('.badge-completed').first().waitFor({ timeout: 120_000 });
    assert.equal(site.accounts.length, 0, 'the aborted sign-up submitted nothing');
    const funnel = page.getByRole('region', { name: 'The funnel' });
    await funnel.getByText('Where the funnel ended').waitFor();
    assert.match(await funnel.innerText(), /Where the funnel ended: aborted in REGISTER: the analyst aborted the funnel/);
  });

  it('the mail the persona received is listed on the Overview (from, subject, SHA-256) and downloads, with a purpose, byte for byte', async () => {
    const site = stack.sites.mail!;
    const scan = await runFunnelScan(stack, `${site.origin}/`);
    assert.equal(scan.task.status, 'completed', JSON.stringify(scan.task.error));
    const mail = scan.detail.mail as Array<{ id: string; from: string; subject: string; sha256: string }>;
    assert.equal(mail.length, 1, JSON.stringify(mail));
    await signIn(emails.analyst);
    await page.goto(`${stack.url}/console/investigations/${scan.scanId}`);
    const funnel = page.getByRole('region', { name: 'The funnel' });
    const table = funnel.getByRole('table', { name: 'Mail the persona received' });
    await table.waitFor();
    const row = await table.locator('tbody tr').innerText();
    for (const part of [mail[0]!.from, mail[0]!.subject, mail[0]!.sha256.slice(0, 16)]) assert.ok(row.includes(part), `${part} in ${row}`);
    const button = table.getByRole('button', { name: `Download the mail “${mail[0]!.subject}”` });
    assert.equal(await button.isDisabled(), true, 'no download without a purpose');
    await funnel.getByLabel('Purpose of a download').fill('keep the verification mail');
    const [saved] = await Promise.all([page.waitForEvent('download'), button.click()]);
    assert.equal(createHash('sha256').update(fs.readFileSync((await saved.path())!)).digest('hex'), mail[0]!.sha256, 'the .eml saved is the mail as received');
    await funnel.getByRole('status').filter({ hasText: 'Downloaded' }).waitFor();
    const audit = await http(`${stack.url}/audit/events?target_id=${scan.scanId}&action=evidence.download`, { headers: stack.users.admin });
    assert.equal(audit.status, 200, audit.text);
    assert.deepEqual(audit.body.items.map((e: { purpose: string; actor: string }) => [e.purpose, e.actor]), [['keep the verification mail', emails.analyst]], 'the download is in the chain of custody with its purpose');
  });
});
