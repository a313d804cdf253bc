// The review work in the console, in real Chromium against the real API, PostgreSQL and Temporal:
// a reviewer lands on the review queue, sees the case by its title with the claim's holder and
// expiry, opens the review page, claims it, adds a note and feedback, decides refer_to_lea with a
// rationale (after a confirmation), reads the action log; the decided review stays findable with
// the status and priority filters in the URL. axe-core: no serious or critical violation on the
// queue and the review page.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { seriousA11yViolations } from '../support/axe';
import { pageQueueUntil } from '../support/review-queue';
import { signInToConsole } from '../support/console-sign-in';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker } from '../support/platform';

describe('console: reviews (end to end, Chromium)', function () {
  this.timeout(120_000);
  const queue = `console-rv-${randomUUID().slice(0, 8)}`;
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
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  it('a reviewer lands on the queue, claims a review, decides refer_to_lea with a rationale, and finds it among the decided', async () => {
    const analyst = asUser(users.analyst);
    const title = `Romance scam ${queue}`;
    const created = await http(`${url}/cases`, { method: 'POST', headers: analyst, json: { title, priority: 'critical' } });
    assert.equal(created.status, 201, created.text);
    const caseId = created.body.id as string;
    const enq = await http(`${url}/reviews/`, { method: 'POST', headers: analyst, json: { case_id: caseId, reason: `check the wallets of ${queue}` } });
    assert.equal(enq.status, 201, enq.text);
    const reviewId = enq.body.id as string;

    // The reviewer's first page is the queue, where the case shows by its title.
    await signInToConsole(page, url, users.reviewer);
    await page.waitForURL(/\/console\/reviews$/);
    await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
    const card = page.locator('li.review', { hasText: `check the wallets of ${queue}` });
    await pageQueueUntil(page, card.getByRole('link', { name: title, exact: true }));
    assert.deepEqual(await seriousA11yViolations(page), [], 'the queue has no serious accessibility violation');

    // The review page: claim, then the holder and the expiry show.
    await card.getByRole('link', { name: `Open the review of ${title}` }).click();
    await page.waitForURL(new RegExp(`/console/reviews/${reviewId}$`));
    await page.getByRole('heading', { name: `Review of “${title}”` }).waitFor();
    await page.getByRole('button', { name: 'Claim', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Claimed' }).waitFor();
    const status = await page.locator('dl.facts', { hasText: 'claimed by' }).innerText();
    assert.match(status, new RegExp(`claimed by ${users.reviewer.replace(/[.]/g, '\\.')} until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC`));

    await page.getByLabel('Note').fill(`the wallet of ${queue} matches two intakes`);
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('status').filter({ hasText: 'Note added' }).waitFor();
    await page.getByLabel('Rating').selectOption('4');
    await page.getByLabel('Comment').fill('extraction was clean');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await page.getByRole('status').filter({ hasText: 'Feedback recorded (4/5)' }).waitFor();
    assert.deepEqual(await seriousA11yViolations(page), [], 'the review page (claimed) has no serious accessibility violation');

    await page.getByLabel('Decision').selectOption('refer_to_lea');
    await page.getByLabel('Rationale').fill(`victims in two countries (${queue})`);
    await page.getByRole('button', { name: 'Decide' }).click();
    // Nothing is decided until the confirmation.
    assert.equal((await http(`${url}/reviews/${reviewId}`, { headers: analyst })).body.status, 'claimed');
    await page.getByRole('button', { name: 'Yes, record the decision' }).click();
    await page.getByRole('status').filter({ hasText: 'Decision recorded: refer to lea' }).waitFor();
    const facts = await page.locator('dl.facts', { hasText: 'Rationale' }).innerText();
    assert.ok(facts.includes(`victims in two countries (${queue})`), 'the rationale shows');
    assert.ok(facts.includes('refer to lea'), 'the decision shows');

    const log = page.locator('ol.review-log');
    await log.locator('li', { hasText: 'decision' }).waitFor();
    const logText = await log.innerText();
    for (const part of ['enqueue', 'claim', `the wallet of ${queue} matches two intakes`, 'rated 4/5 — extraction was clean', `refer to lea — victims in two countries (${queue})`]) {
      assert.ok(logText.includes(part), `the action log shows "${part}"`);
    }

    const after = await http(`${url}/reviews/${reviewId}`, { headers: analyst });
    assert.equal(after.body.status, 'decided');
    assert.equal(after.body.decision, 'refer_to_lea');
    assert.equal(after.body.decided_by, users.reviewer);
    assert.equal(after.body.rationale, `victims in two countries (${queue})`);
    assert.equal(after.body.case_title, title);
    // The age filter's API side: requested before a time.
    const byAge = async (before: Date) =>
      ((await http(`${url}/reviews/queue?status=decided&case_id=${caseId}&created_before=${encodeURIComponent(before.toISOString())}`, { headers: analyst })).body.items as Array<{ id: string; case_title: string }>);
    assert.deepEqual((await byAge(new Date(Date.now() + 60_000))).map((r) => [r.id, r.case_title]), [[reviewId, title]]);
    assert.deepEqual(await byAge(new Date(Date.parse(enq.body.created_at) - 60_000)), [], 'a review requested after the bound is left out');
    const referral = await http(`${url}/cases/${caseId}/lea-referral`, { headers: analyst });
    assert.equal(referral.status, 200, referral.text);
    assert.equal(referral.body.status, 'draft');

    // Decided reviews stay findable: the status and priority filters live in the URL.
    await page.getByRole('link', { name: '← Review queue' }).click();
    await page.getByRole('button', { name: 'Decided' }).click();
    await page.getByLabel('Priority').selectOption('critical');
    await page.waitForURL((u) => u.searchParams.get('status') === 'decided' && u.searchParams.get('priority') === 'critical');
    const decided = page.locator('li.review', { hasText: `check the wallets of ${queue}` });
    await decided.waitFor();
    const decidedText = await decided.innerText();
    assert.ok(decidedText.includes(title), 'the decided review shows its case title');
    assert.ok(decidedText.includes(`victims in two countries (${queue})`), 'and its rationale');
    // A reload of the same URL shows the same list; another priority hides it.
    await page.reload();
    await decided.waitFor();
    await page.getByLabel('Priority').selectOption('low');
    await page.waitForURL((u) => u.searchParams.get('priority') === 'low');
    await decided.waitFor({ state: 'detached', timeout: 10_000 });
    assert.deepEqual(await seriousA11yViolations(page), [], 'the decided list has no serious accessibility violation');
  });
});
