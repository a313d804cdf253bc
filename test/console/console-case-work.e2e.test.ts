// Case work in the console, end to end in real Chromium against the real API, PostgreSQL and
// Temporal: an analyst takes an intake through the form (files by the file input and by drag and
// drop), the form shows the API's field errors next to the fields, the contact reveal asks a purpose
// (audited), the intake is attached to a new case, the case is edited and moved through its allowed
// statuses with confirmations, and its LEA referral is created and completed with its history; a
// reviewer's refer_to_lea decision shows as a draft referral with the review's reason and rationale,
// and "Request a review" on a referred case says it moves the case back to in review. Every page
// type is checked with axe-core. With CONSOLE_SCREENSHOTS=<dir> the walk-through saves screenshots
// there (docs/images for docs/console.md).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import type { Role } from '../../domain/accounts/roles';
import { seriousA11yViolations } from '../support/axe';
import { signInToConsole } from '../support/console-sign-in';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';

const SHOTS = process.env.CONSOLE_SCREENSHOTS;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('console case work: intake → case → referral (end to end, Chromium)', function () {
  this.timeout(180_000);
  const queue = `case-work-${randomUUID().slice(0, 8)}`;
  const tag = randomUUID().slice(0, 8);
  let url: string;
  let users: Record<Role, string>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const shot = async (name: string) => {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `console-${name}.png`), fullPage: true });
  };
  const noA11yViolations = async (what: string) => assert.deepEqual(await seriousA11yViolations(page), [], `axe on ${what}`);
  const confirm = async (action: string) => {
    await page.getByRole('button', { name: action, exact: true }).click();
    const group = page.getByRole('group', { name: `Confirm: ${action}` });
    await group.getByRole('button', { name: /^Yes, / }).click();
    await group.waitFor({ state: 'detached' });
  };

  before(async () => {
    await startTestWorker(queue);
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true', SVC_TEMPORAL__TASK_QUEUE: queue })).url;
    users = await usersForEveryRole();
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInToConsole(page, url, users.analyst);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  it('the intake form shows the API\'s field errors next to the fields they name', async () => {
    await page.goto(`${url}/console/intakes/new`);
    await page.getByLabel('Summary (required)').fill(`bad fields ${tag}`);
    await page.getByLabel('E-mail').fill('not-an-address');
    await page.getByLabel('Amount lost').fill('12.345');
    const answer = page.waitForResponse((r) => r.url().endsWith('/intakes') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Submit intake' }).click();
    const res = await answer;
    assert.equal(res.status(), 400);
    const details = ((await res.json()) as { error: { details: Array<{ path: string; message: string }> } }).error.details;
    const apiMessage = (field: string) => details.find((d) => d.path === `body.payload.${field}`)?.message;
    assert.ok(apiMessage('contact_email') && apiMessage('loss_amount') && apiMessage('loss_currency'), JSON.stringify(details));
    await page.getByRole('alert').filter({ hasText: 'did not accept some fields' }).waitFor();
    assert.equal(await page.locator('[data-field-error="intake-contact_email"]').innerText(), apiMessage('contact_email'));
    assert.equal(await page.locator('[data-field-error="intake-loss_amount"]').innerText(), apiMessage('loss_amount'));
    assert.equal(await page.locator('[data-field-error="intake-loss_currency"]').innerText(), apiMessage('loss_currency'));
    assert.equal(await page.getByLabel('E-mail').getAttribute('aria-invalid'), 'true');
    assert.equal(await testKnex()('intakes').where('summary', `bad fields ${tag}`).count().first().then((r) => Number((r as { count: string }).count)), 0, 'nothing stored');
    await noA11yViolations('the intake form');
  });

  it('an analyst files an intake with files, reveals the contact for a stated purpose, attaches it to a new case, edits the case, moves it and completes its referral', async () => {
    const summary = `Fake exchange took savings ${tag}`;
    await page.goto(`${url}/console/intakes`);
    await page.getByRole('link', { name: 'New intake' }).click();
    await page.getByLabel('Summary (required)').fill(summary);
    await page.getByLabel('Details').fill('Victim called the hotline; paid 2 transfers to a "broker".');
    await page.getByLabel('Web addresses involved').fill(`https://broker-${tag}.scam.test/login`);
    await page.getByLabel('Amount lost').fill('2500.00');
    await page.getByLabel('Currency').fill('EUR');
    await page.getByLabel('Name').fill('Jane Victim');
    await page.getByLabel('E-mail').fill(`jane-${tag}@example.org`);
    await page.getByLabel('Phone').fill('+44 20 7946 0000');
    await page.getByLabel('Choose files').setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: PNG });
    const dropped = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'], 'bank-statement.pdf', { type: 'application/pdf' }));
      return dt;
    });
    await page.dispatchEvent('[data-testid="dropzone"]', 'drop', { dataTransfer: dropped });
    const toSend = page.getByRole('list', { name: 'Files to send' });
    await toSend.getByText('bank-statement.pdf').waitFor();
    await toSend.getByText('screenshot.png').waitFor();
    await shot('intake-form');
    await page.getByRole('button', { name: 'Submit intake' }).click();
    await page.waitForURL(/\/console\/intakes\/[0-9a-f-]{36}$/);
    const intakeId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: summary }).waitFor();
    const files = page.getByRole('list', { name: 'Files' });
    // Each stored file is offered for download (and the PDF for a preview).
    await files.getByRole('button', { name: 'Download screenshot.png' }).waitFor();
    await files.getByRole('button', { name: 'Download bank-statement.pdf' }).waitFor();
    await files.getByRole('button', { name: 'Preview PDF: bank-statement.pdf' }).waitFor();
    const stored = await testKnex()('intake_files').where({ intake_id: intakeId }).orderBy('filename');
    assert.deepEqual(stored.map((f: { filename: string }) => f.filename), ['bank-statement.pdf', 'screenshot.png']);
    await noA11yViolations('the intake page');

    // The contact reveal asks the purpose; the API records it in the audit log.
    const purpose = `call back the victim ${tag}`;
    await page.getByLabel('Why do you need the contact data?').fill(purpose);
    await page.getByRole('button', { name: 'Reveal contact' }).click();
    const contact = page.getByRole('definition').filter({ hasText: `jane-${tag}@example.org` });
    await contact.waitFor();
    await page.getByText('+44 20 7946 0000').waitFor();
    const audit = await testKnex()('audit_events').where({ action: 'intake.contact.read', target_id: intakeId });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].purpose, purpose);
    assert.equal(audit[0].actor, users.analyst);
    await shot('intake-detail');

    // Attach to a new case (confirmed).
    const caseTitle = `Broker ring ${tag}`;
    await page.getByLabel('New case title').fill(caseTitle);
    await page.getByRole('button', { name: 'Attach', exact: true }).click();
    await page.getByRole('group', { name: 'Confirm: Attach' }).getByText(caseTitle).waitFor();
    await page.getByRole('button', { name: 'Yes, attach' }).click();
    await page.waitForURL(/\/console\/cases\/[0-9a-f-]{36}$/);
    const caseId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: caseTitle }).waitFor();
    assert.equal((await testKnex()('intakes').where({ id: intakeId }).first()).case_id, caseId);
    await page.getByRole('list', { name: 'Case timeline, newest first' }).getByRole('link', { name: 'Intake attached' }).waitFor();
    await noA11yViolations('the case page');

    // Edit: title, priority, assignee, taxonomy.
    await page.getByRole('link', { name: 'Edit case' }).click();
    await page.getByRole('heading', { name: 'Edit case' }).waitFor();
    await noA11yViolations('the case form');
    const newTitle = `${caseTitle} (pig butchering)`;
    await page.getByLabel('Title (required)').fill(newTitle);
    await page.getByLabel('Priority').selectOption('high');
    await page.getByLabel('Assignee (e-mail)').fill(users.analyst);
    const taxonomy = await page.getByLabel('Scam type (taxonomy)').locator('option').nth(1).getAttribute('value');
    await page.getByLabel('Scam type (taxonomy)').selectOption(taxonomy!);
    await shot('case-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: newTitle }).waitFor();
    const saved = await testKnex()('cases').where({ id: caseId }).first();
    assert.deepEqual([saved.title, saved.priority, saved.assignee, saved.taxonomy], [newTitle, 'high', users.analyst, taxonomy]);

    // Status moves: only the allowed ones are offered; each is confirmed.
    const moves = page.getByRole('group', { name: 'Case status moves' });
    assert.deepEqual(await moves.getByRole('button').allInnerTexts(), ['Move to in review', 'Move to referred', 'Move to closed']);
    await confirm('Move to in review');
    await moves.getByRole('button', { name: 'Move to open' }).waitFor();
    assert.equal((await testKnex()('cases').where({ id: caseId }).first()).status, 'in_review');
    await confirm('Move to referred');
    await moves.getByRole('button', { name: 'Move to in review' }).waitFor();
    assert.deepEqual(await moves.getByRole('button').allInnerTexts(), ['Move to in review', 'Move to closed']);

    // The referral: create a draft, then submitted → acknowledged → closed, each confirmed.
    await page.getByLabel('Agency', { exact: true }).fill('National Fraud Unit');
    await page.getByLabel('Jurisdiction').fill('GB');
    await page.getByLabel('Contact').fill('desk@nfu.example');
    await page.getByRole('button', { name: 'Create draft referral' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft referral created.' }).waitFor();
    await page.getByLabel("Agency's reference").fill(`NFU-${tag}`);
    await confirm('Mark submitted');
    await page.getByRole('status').filter({ hasText: 'Referral moved to submitted.' }).waitFor();
    await shot('case-referral');
    await confirm('Mark acknowledged');
    await page.getByRole('status').filter({ hasText: 'Referral moved to acknowledged.' }).waitFor();
    await confirm('Close referral');
    await page.getByRole('status').filter({ hasText: 'Referral moved to closed.' }).waitFor();
    const history = page.getByRole('table', { name: 'Referral history' });
    await history.locator('tbody tr').nth(3).getByText('closed').waitFor();
    assert.equal(await history.locator('tbody tr').count(), 4);
    const referral = await http(`${url}/cases/${caseId}/lea-referral`, { headers: asUser(users.analyst) });
    assert.equal(referral.status, 200);
    assert.equal(referral.body.status, 'closed');
    assert.equal(referral.body.reference, `NFU-${tag}`);
    assert.deepEqual(referral.body.history.map((h: { to_status: string }) => h.to_status), ['draft', 'submitted', 'acknowledged', 'closed']);
    await noA11yViolations('the case page with its referral');
    await shot('case-detail');
  });

  it('a refer_to_lea decision shows as a draft referral with the review\'s reason and rationale; "Request a review" on a referred case says it goes back to in review', async () => {
    const analyst = asUser(users.analyst);
    const reviewer = asUser(users.reviewer);
    const c = await http(`${url}/cases`, { method: 'POST', headers: analyst, json: { title: `Decided ${tag}` } });
    assert.equal(c.status, 201, c.text);
    const r = await http(`${url}/reviews/`, { method: 'POST', headers: analyst, json: { case_id: c.body.id, reason: `check the wallets ${tag}` } });
    assert.equal(r.status, 201, r.text);
    assert.equal((await http(`${url}/reviews/${r.body.id}/claim`, { method: 'POST', headers: reviewer })).status, 200);
    const decided = await http(`${url}/reviews/${r.body.id}/decision`, { method: 'POST', headers: reviewer, json: { decision: 'refer_to_lea', rationale: `wallets match a known ring ${tag}` } });
    assert.equal(decided.status, 200, decided.text);

    await page.goto(`${url}/console/cases/${c.body.id}`);
    await page.getByRole('heading', { name: `Decided ${tag}` }).waitFor();
    await page.getByText("Drafted by a review's refer-to-LEA decision.").waitFor();
    await page.getByRole('heading', { name: /LEA referral/ }).getByText('draft').waitFor();
    assert.ok((await page.getByText(`Reason: check the wallets ${tag}`).count()) === 1, 'the review\'s reason shows');
    assert.ok((await page.getByText(`Rationale: wallets match a known ring ${tag}`).count()) === 1, 'the rationale shows');
    await page.getByRole('list', { name: 'Case timeline, newest first' }).getByText('Review decided: refer to lea').waitFor();

    await page.getByRole('button', { name: 'Request a review' }).click();
    const ask = page.getByRole('group', { name: 'Confirm: Request a review' });
    assert.match(await ask.innerText(), /This case is referred\. Requesting a review moves it back to in review/);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    assert.equal((await http(`${url}/cases/${c.body.id}`, { headers: analyst })).body.status, 'referred', 'cancelling changed nothing');
  });
});
