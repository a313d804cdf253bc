// The classification on an intake's page in real Chromium against the real API and PostgreSQL:
// the automatic classification (label, confidence, evidence), an analyst's correction through the
// "Correct" control (stored as the analyst's, the automatic prediction kept), no serious or critical
// axe violations; and the accuracy figure on the dashboard.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addUserRoles } from '../../db/repositories/accounts/user-repository';
import { upsertAutomaticClassification } from '../../db/repositories/classification/classification-repository';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { seriousA11yViolations } from '../support/axe';
import { signInToConsole } from '../support/console-sign-in';
import { asUser, http } from '../support/http';
import { intakeForm } from '../support/intake-fixtures';
import { startTestApi, testKnex } from '../support/platform';

describe('console classification (end to end, Chromium)', function () {
  this.timeout(180_000);
  let url: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const tag = randomUUID().slice(0, 8);
  const analyst = `classify-ui-${tag}@example.org`;
  let intakeId: string;

  before(async () => {
    // No worker: the intake stays received; its automatic classification is written here.
    url = (await startTestApi({ SVC_TEMPORAL__TASK_QUEUE: `classify-ui-${tag}`, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true' })).url;
    await addUserRoles(testKnex(), analyst, ['analyst']);
    const r = await http(`${url}/intakes`, { method: 'POST', headers: asUser(analyst), body: intakeForm({ summary: `classify ui ${tag}`, details: 'They asked a recovery fee.' }) });
    assert.equal(r.status, 201, r.text);
    intakeId = r.body.id;
    await upsertAutomaticClassification(testKnex(), 'intake', intakeId, {
      taxonomy: 'advance-fee/recovery', confidence: 0.42, source: 'rules',
      evidence: [{ feature: 'vocabulary', detail: '"recovery fee" (en)', weight: 0.12 }],
    });
    browser = await launchChromium(await resolveChromium());
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
  });

  it('shows the classification with its evidence, corrects it through the Correct control, and is axe-clean', async () => {
    await page.goto(`${url}/console`);
    await signInToConsole(page, url, analyst, { fresh: true });
    await page.goto(`${url}/console/intakes/${intakeId}`);
    const section = page.getByRole('region', { name: 'Classification' });
    await section.getByRole('link', { name: 'Fund recovery (scammed twice)' }).waitFor();
    assert.match((await section.textContent()) ?? '', /by the rules.*confidence 42%/);
    assert.equal(await section.getByRole('list', { name: 'Classification evidence' }).getByRole('listitem').count(), 1);

    await section.getByRole('button', { name: 'Correct' }).click();
    await section.getByLabel('Taxonomy node').selectOption('romance');
    await section.getByLabel('Reason').fill('the victim describes a dating profile');
    assert.deepEqual(await seriousA11yViolations(page), []);
    await section.getByRole('button', { name: 'Save correction' }).click();
    await section.getByRole('link', { name: 'Romance scam' }).waitFor();
    await section.getByText('by an analyst').waitFor();
    const row = await testKnex()('classifications').where({ subject_kind: 'intake', subject_id: intakeId }).first();
    assert.deepEqual([row.taxonomy, row.source, row.corrected_by, row.corrected_from], ['romance', 'analyst', analyst, 'advance-fee/recovery']);
    assert.deepEqual(await seriousA11yViolations(page), []);
  });

  it('the dashboard shows the classification accuracy figure', async () => {
    const own = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const dash = await own.newPage();
    await dash.goto(`${url}/console`);
    await signInToConsole(dash, url, analyst, { fresh: true });
    await dash.goto(`${url}/console/dashboard?view=analytics`);
    const figure = dash.locator('[data-kpi="classification-accuracy"]');
    await figure.waitFor();
    assert.match((await figure.textContent()) ?? '', /(\d+%|—)Classification accuracy \(\d+ corrected\)/);
    await own.close();
  });
});
