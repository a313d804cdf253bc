// `npm run screenshots`: screenshots of the console's main pages for the README. Starts the whole
// platform on a temporary data directory (embedded PostgreSQL, Temporal dev server, worker, API on
// loopback with the developer sign-in), fills it with demo data (users, a real investigation of a
// local fixture scam site on 127.0.0.1, wallets that two more sites showed, a case with a review,
// an intake, a report schedule), drives Chromium through the console and writes the PNGs to
// docs/images/. Nothing leaves the machine: every address is loopback.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { loadConfig } from '../config/config';
import { createKnex } from '../db/connection';
import { insertInvestigation, setInvestigationState } from '../db/repositories/investigations/investigation-repository';
import { addUserRoles } from '../db/repositories/accounts/user-repository';
import { upsertWallets } from '../db/repositories/wallets/wallet-repository';
import { refreshAnalytics } from '../services/analytics/analytics-refresh';
import { ensureConsoleBuilt } from '../infra/console-build';
import { launchChromium, resolveChromium } from '../infra/chromium';
import { startEphemeralInfrastructure } from '../app/ephemeral-infrastructure';
import { createLogger } from '../infra/logger';
import { connectTemporal, startApiServer, startWorker } from '../app/platform-runtime';
import { startScamSiteFixture } from '../test/support/scam-site-fixture';

const OUT = path.resolve(__dirname, '..', 'docs', 'images');
const USERS = { admin: 'ana.admin@example.org', analyst: 'sam.analyst@example.org', reviewer: 'rio.reviewer@example.org' } as const;
const say = (line: string) => process.stdout.write(`screenshots: ${line}\n`);

async function main(): Promise<void> {
  await ensureConsoleBuilt();
  const infra = await startEphemeralInfrastructure({ name: 'fip-screenshots', progress: say });
  const site = await startScamSiteFixture();
  const slowSite = await startScamSiteFixture({ delayMs: 4000 });
  const env = {
    ...process.env, SVC_DATA_DIR: path.join(infra.dir, 'data'), SVC_LOG__LEVEL: 'warn', TEMPORAL_NAMESPACE: 'default',
    SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true', SVC_API__HOST: '127.0.0.1',
    SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port},127.0.0.1:${slowSite.port}`,
  };
  const config = loadConfig(env);
  const log = createLogger('warn', 'fip-screenshots');
  const knex = createKnex(infra.databaseUrl, 10);
  const temporal = await connectTemporal(config, infra.temporalAddress);
  const worker = await startWorker(config, infra.temporalAddress, { config, knex, temporal, log });
  const api = await startApiServer({ config, knex, temporal, log, blobs: worker.resources.blobs }, 0, '127.0.0.1');
  const browser = await launchChromium(await resolveChromium());
  try {
    const call = async (who: string, method: string, p: string, body?: unknown) => {
      const res = await fetch(`${api.url}${p}`, {
        method, headers: { 'X-Goog-Authenticated-User-Email': `accounts.google.com:${who}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    };
    for (const [role, email] of Object.entries(USERS)) await addUserRoles(knex, email, [role as 'admin']);

    say('investigating the fixture site');
    const started = await call(USERS.analyst, 'POST', '/investigations/ssi', { url: `${site.origin}/r1`, label: 'Fast Profit Crypto', options: { max_pages: 6 } });
    for (let i = 0; ; i++) {
      const task = await call(USERS.analyst, 'GET', started.status_url);
      if (task.status === 'completed') break;
      if (task.status === 'failed' || task.status === 'cancelled' || i > 600) throw new Error(`the demo investigation ended ${task.status}: ${JSON.stringify(task.error)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const detail = await call(USERS.analyst, 'GET', `/investigations/ssi/${started.scan_id}`);
    const shared = detail.wallets.find((w: { address: string }) => w.address === site.wallets.tabUsdt) ?? detail.wallets[0];
    for (const host of ['quick-yield-invest.example', 'usdt-double.example']) {
      const scanId = randomUUID();
      const url = `https://${host}/deposit`;
      await insertInvestigation(knex, { scanId, url, domain: host, requestedBy: USERS.analyst, playbookId: null, caseId: null, label: null, options: {} });
      await upsertWallets(knex, scanId, [{ address: shared.address, token: shared.token, network: shared.network, confidence: 'high', source: 'dom', context: 'send USDT here', pageUrl: url }]);
      await setInvestigationState(knex, scanId, { state: 'COMPLETE', status: 'completed', finalUrl: url });
    }

    const kase = await call(USERS.analyst, 'POST', '/cases', { title: 'Fast Profit Crypto: investment fraud ring', description: 'Victims report deposits to a USDT wallet shown on three sites.', priority: 'high', assignee: USERS.analyst });
    await call(USERS.analyst, 'POST', '/reviews/', { case_id: kase.id, reason: 'Three sites share one deposit wallet: refer to law enforcement?' });
    const other = await call(USERS.analyst, 'POST', '/cases', { title: 'Romance scam with crypto "investment"', priority: 'medium' });
    await call(USERS.analyst, 'POST', '/reviews/', { case_id: other.id, reason: 'Check the extracted wallets before closing.' });
    const form = new FormData();
    form.append('payload', JSON.stringify({ reporter_name: 'A. Victim', summary: 'Lost 12,000 USDT to fast-profit site', details: 'I was told to deposit on the site and could never withdraw.', contact_email: 'victim@example.org', source: 'web-form' }));
    const intake = await fetch(`${api.url}/intakes`, { method: 'POST', headers: { 'X-Goog-Authenticated-User-Email': `accounts.google.com:${USERS.analyst}` }, body: form });
    if (!intake.ok) throw new Error(`POST /intakes: ${intake.status} ${await intake.text()}`);
    await call(USERS.admin, 'POST', '/intelligence/scheduled-reports', { template: 'wallet-activity', cadence: 'weekly', scope: { entity_types: ['wallet', 'investigation'] }, options: { format: 'pdf' }, recipients: ['fraud-team@example.org'] });

    await call(USERS.analyst, 'PATCH', `/cases/${kase.id}`, { taxonomy: 'investment/crypto', loss: { amount: '12000.00', currency: 'USD' } });
    await call(USERS.analyst, 'PATCH', `/cases/${other.id}`, { taxonomy: 'romance', loss: { amount: '4850.50', currency: 'EUR' } });
    await refreshAnalytics(knex);

    fs.mkdirSync(OUT, { recursive: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const shot = async (name: string, p: Page = page, fullPage = false) => {
      await p.waitForLoadState('networkidle').catch(() => undefined);
      await p.screenshot({ path: path.join(OUT, `${name}.png`), fullPage });
      say(`wrote docs/images/${name}.png`);
    };
    const signIn = async (p: Page, email: string) => {
      await p.goto(`${api.url}/console`);
      await p.getByLabel('User').selectOption(email);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByRole('navigation', { name: 'Main' }).waitFor();
    };

    await page.goto(`${api.url}/console`);
    await page.getByLabel('User').waitFor();
    await shot('sign-in');
    await signIn(page, USERS.analyst);

    // A slow second investigation, so that the Active list shows live progress.
    const running = await call(USERS.analyst, 'POST', '/investigations/ssi', { url: `${slowSite.origin}/r1`, label: 'Slow mirror site', options: { max_pages: 3 } });
    await page.getByRole('link', { name: 'Investigations', exact: true }).click();
    await page.locator('.cards .card', { hasText: 'Slow mirror site' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Site URL').fill('https://suspicious.example/');
    await shot('investigations');
    await call(USERS.analyst, 'POST', `/tasks/${running.task_id}/update`, { status: 'cancelled' }).catch(() => undefined);

    for (const tab of ['overview', 'results', 'pages', 'actions'] as const) {
      await page.goto(`${api.url}/console/investigations/${started.scan_id}${tab === 'overview' ? '' : `/${tab}`}`);
      await page.getByRole('tabpanel').waitFor();
      if (tab === 'pages') await page.locator('ul.pages img').first().waitFor();
      await shot(`investigation-${tab}`);
    }

    await page.goto(`${api.url}/console/wallets?address=${encodeURIComponent(shared.address.slice(3, 12))}`);
    await page.locator('li.wallet').first().waitFor();
    await shot('ssi-wallets');

    await page.goto(`${api.url}/console/dashboard`);
    await page.locator('canvas').first().waitFor();
    await shot('dashboard');
    await page.goto(`${api.url}/console/dashboard?view=impact`);
    await page.locator('[data-kpi="total_loss"]').waitFor();
    await shot('dashboard-impact', page, true);
    await page.goto(`${api.url}/console/dashboard?view=analytics`);
    await page.locator('table.top-entities').waitFor();
    await shot('dashboard-analytics', page, true);
    await page.goto(`${api.url}/console/taxonomy?node=investment%2Fcrypto`);
    await page.locator('section.node-detail').waitFor();
    await shot('taxonomy');
    await page.goto(`${api.url}/console/indicators`);
    await page.getByRole('table').waitFor();
    await shot('indicators');
    await page.goto(`${api.url}/console/exports?min_confidence=50`);
    await page.getByRole('heading', { name: 'Sharing with partners' }).waitFor();
    await shot('exports', page, true);

    const narrow = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    const phone = await narrow.newPage();
    await signIn(phone, USERS.analyst);
    await phone.goto(`${api.url}/console/investigations/${started.scan_id}/results`);
    await phone.getByRole('tabpanel').waitFor();
    await shot('investigation-results-narrow', phone);
    await narrow.close();

    await page.evaluate(() => sessionStorage.clear());
    await signIn(page, USERS.reviewer);
    await page.getByRole('link', { name: 'Review queue' }).click();
    const card = page.locator('li.review', { hasText: 'Three sites share one deposit wallet' });
    await card.getByRole('button', { name: 'Claim' }).click();
    await page.locator('li.review', { hasText: 'Three sites share one deposit wallet' }).getByLabel('Note').fill('Same USDT wallet on fast-profit, quick-yield and usdt-double.');
    await shot('review-queue');
    // The review page: claimed, a note, the decision with its rationale, the action log.
    await page.locator('li.review', { hasText: 'Three sites share one deposit wallet' }).getByRole('link', { name: /^Open the review/ }).click();
    await page.getByLabel('Note').fill('Same USDT wallet on fast-profit, quick-yield and usdt-double.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('status').filter({ hasText: 'Note added' }).waitFor();
    await page.getByLabel('Decision').selectOption('refer_to_lea');
    await page.getByLabel('Rationale').fill('One operator behind three sites; victims in two countries.');
    await page.getByRole('button', { name: 'Decide' }).click();
    await page.getByRole('button', { name: 'Yes, record the decision' }).click();
    await page.getByRole('status').filter({ hasText: 'Decision recorded' }).waitFor();
    await shot('review-detail', page, true);
    await page.goto(`${api.url}/console/reviews?status=decided`);
    await page.locator('li.review').first().waitFor();
    await shot('review-queue-decided');

    // The analyst: a dossier of the case, generated with live progress, verified.
    await page.evaluate(() => sessionStorage.clear());
    await signIn(page, USERS.analyst);
    await page.goto(`${api.url}/console/cases/${kase.id}`);
    await page.getByRole('button', { name: 'Generate dossier' }).click();
    await page.getByRole('link', { name: 'Open the dossier' }).waitFor({ timeout: 120_000 });
    await shot('case-dossier-generated', page, true);
    await page.getByRole('link', { name: 'Open the dossier' }).click();
    await page.getByRole('button', { name: 'Verify the dossier' }).click();
    await page.getByText('Verified: the manifest').waitFor();
    await shot('dossier-detail', page, true);

    // The screenshot viewer at full size.
    await page.goto(`${api.url}/console/investigations/${started.scan_id}/pages?shot=1`);
    await page.getByRole('dialog').getByRole('img').waitFor();
    await shot('investigation-screenshot-viewer');

    await page.evaluate(() => sessionStorage.clear());
    await signIn(page, USERS.admin);
    await page.getByRole('link', { name: 'Scheduled reports' }).click();
    await page.getByRole('table').first().waitFor();
    await page.getByRole('button', { name: 'Run now: the weekly wallet-activity report' }).click();
    await page.getByRole('status').filter({ hasText: 'is ready' }).waitFor({ timeout: 120_000 });
    await page.getByRole('table', { name: 'Generated reports, newest first' }).waitFor();
    await shot('scheduled-reports', page, true);
    await context.close();
  } finally {
    await browser.close();
    await api.close();
    await worker.shutdown();
    await temporal.connection.close();
    await knex.destroy();
    await site.close();
    await slowSite.close();
    await infra.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`screenshots: failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
  },
);
