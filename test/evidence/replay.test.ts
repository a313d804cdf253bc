// A recipient's replay of an evidence bundle in ReplayWeb.page (the npm package `replaywebpage`, its
// ui.js and sw.js served from loopback), in the platform's Chromium. A real investigation of the
// coin-tab exchange whose addresses arrive by XHR after a click; its WACZ is downloaded, the fixture
// site is closed (so everything the replay shows comes from the archive), and in the replay the same
// coin tab is clicked: the rebuilt deposit panel must show the address the investigation reported.
// ReplayWeb.page must also report the bundle's wacz-auth signature and its hashes as verified: in its
// collection API (what its archive info panel shows) and on the info panel itself; the same bundle
// with a changed byte and a flipped signature byte must not be.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ZipArchive } from 'archiver';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { launchChromium, resolveChromium } from '../../infra/chromium';
import { closeEvidenceBrowsers } from '../../services/evidence/investigation-report-pdf';
import { http as request } from '../support/http';
import { startInvestigationStack, waitForScanEnd } from '../support/investigation-stack';
import { closeAfterTestRun } from '../support/platform';
import type { ScamSiteFixture } from '../support/scam-site-fixture';

// The package's exports name index.html but not ui.js and sw.js, which sit beside it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const unzipper = require('unzipper') as { Open: { buffer(b: Buffer): Promise<{ files: Array<{ path: string; type: string; buffer(): Promise<Buffer> }> }> } };

const REPLAY_PACKAGE = path.dirname(require.resolve('replaywebpage/index.html'));

interface ReplayServer {
  origin: string;
  /** Requests the server answered, path and status. */
  served: Array<{ path: string; status: number }>;
  close(): Promise<void>;
}

/**
 * The page a recipient would host: `/` embeds `<replay-web-page>`, whose service worker (sw.js) has
 * the scope /replay/ and whose UI (ui.js) is served beside it; the bundle is /bundle.wacz.
 * ReplayWeb.page checks the files' hashes only when its service worker runs with `useHashCheck=1`
 * and loads the archive itself (`nowebworker`): otherwise it shows the signature and key but counts
 * pages/pages.jsonl as unchecked ("1 invalid"). The embed names its service worker `sw.js?…`, and
 * appends `?serveIndex=1` to that name, so `swname` carries both parameters and ends with `&`.
 */
async function startReplayServer(bundles: Record<string, Buffer>, pageUrl: string): Promise<ReplayServer> {
  const served: ReplayServer['served'] = [];
  const embed = (source: string) => Buffer.from(`<!doctype html><html><head><meta charset="utf-8"><title>Evidence replay</title><script src="/replay/ui.js"></script></head>
<body style="margin:0;height:100vh"><replay-web-page style="height:100vh" source="${source}" url="${pageUrl.replace(/"/g, '&quot;')}" replaybase="/replay/" swname="sw.js?useHashCheck=1&amp;serveIndex=1&amp;" nowebworker></replay-web-page></body></html>`);
  const files: Record<string, { type: string; body: () => Buffer }> = {
    '/replay/ui.js': { type: 'application/javascript', body: () => fs.readFileSync(path.join(REPLAY_PACKAGE, 'ui.js')) },
    '/replay/sw.js': { type: 'application/javascript', body: () => fs.readFileSync(path.join(REPLAY_PACKAGE, 'sw.js')) },
  };
  // `/<name>` embeds `/<name>.wacz` (`/` the bundle as downloaded).
  for (const [name, wacz] of Object.entries(bundles)) {
    files[name === 'bundle' ? '/' : `/${name}`] = { type: 'text/html; charset=utf-8', body: () => embed(`/${name}.wacz`) };
    files[`/${name}.wacz`] = { type: 'application/wacz', body: () => wacz };
  }
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const file = files[p];
    if (!file) {
      served.push({ path: p, status: 404 });
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
    const body = file.body();
    served.push({ path: p, status: 200 });
    // ReplayWeb.page reads a WACZ by ranges when the server offers them; whole is fine for a test.
    res.writeHead(200, { 'content-type': file.type, 'content-length': body.length, 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * The bundle with one byte of pages/pages.jsonl changed and one byte of the wacz-auth signature
 * flipped, zipped again (stored): what ReplayWeb.page must not report as verified.
 */
async function tampered(wacz: Buffer): Promise<Buffer> {
  const zip = new ZipArchive({ store: true });
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    zip.on('end', () => resolve());
    zip.on('error', reject);
  });
  for (const f of (await unzipper.Open.buffer(wacz)).files) {
    if (f.type !== 'File') continue;
    let body = await f.buffer();
    if (f.path === 'pages/pages.jsonl') {
      body = Buffer.from(body);
      const at = body.indexOf('Investigation');
      assert.ok(at >= 0, 'pages.jsonl names the investigation');
      body[at] = 'i'.charCodeAt(0);
    }
    if (f.path === 'datapackage-digest.json') {
      const digest = JSON.parse(body.toString('utf8')) as { signedData: { signature: string } };
      const signature = Buffer.from(digest.signedData.signature, 'base64');
      signature[signature.length - 1]! ^= 0x01;
      digest.signedData.signature = signature.toString('base64');
      body = Buffer.from(JSON.stringify(digest, null, 2));
    }
    zip.append(body, { name: f.path });
  }
  await zip.finalize();
  await ended;
  return Buffer.concat(chunks);
}

interface Verification {
  verify: { numValid?: number; numInvalid?: number; publicKey?: string; datapackageHash?: string; software?: string } | undefined;
  /** ReplayWeb.page's own check results (IndexedDB db:<collection>, store `verification`). */
  checks: Array<{ id: string; matched: boolean | null }>;
  app: Frame;
}

/**
 * What ReplayWeb.page concluded about the bundle a tab replays: its collection API's `verify`
 * (what its Archive Info shows) and the check results behind it. The API counts the signature entry
 * as valid whatever its outcome: the outcome itself is in IndexedDB, as its WebCrypto check left it.
 */
async function replayVerification(tab: Page, pageUrl: string): Promise<Verification> {
  const frame = await replayedFrame(tab, pageUrl, 120_000);
  const collection = new URL(frame.url()).pathname.split('/')[3]!;
  const app = tab.frames().find((f) => new URL(f.url()).pathname === '/replay/');
  assert.ok(app, `ReplayWeb.page's app frame (${tab.frames().map((f) => f.url())})`);
  const info = await app.evaluate(async (coll) => {
    const r = await fetch(`/replay/w/api/c/${coll}?all=1`);
    return { status: r.status, json: (await r.json()) as { verify?: Record<string, unknown> } };
  }, collection);
  assert.equal(info.status, 200);
  const checks = await app.evaluate(async (coll) => new Promise<Array<{ id: string; matched: boolean | null }>>((resolve, reject) => {
    const open = indexedDB.open(`db:${coll}`);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const all = open.result.transaction('verification').objectStore('verification').getAll();
      all.onerror = () => reject(all.error);
      all.onsuccess = () => resolve(all.result as Array<{ id: string; matched: boolean | null }>);
    };
  }), collection);
  return { verify: info.json.verify as Verification['verify'], checks, app };
}

/** The frame of the replayed page (ReplayWeb.page serves it under /replay/w/<collection>/…/<timestamp>mp_/<url>). */
async function replayedFrame(page: Page, pageUrl: string, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = page.frames().find((f) => /\/\d{14}mp_\//.test(f.url()) && f.url().endsWith(pageUrl));
    if (frame) return frame;
    if (Date.now() > deadline) throw new Error(`no replayed frame of ${pageUrl}; frames: ${page.frames().map((f) => f.url()).join(', ')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('an evidence bundle replays in ReplayWeb.page: the coin tab clicked again shows the reported address, and the signature and hashes verify', function () {
  this.timeout(420_000);
  let site: ScamSiteFixture;
  let replay: ReplayServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageUrl: string;
  let reported: string[];
  let fingerprint: string;

  before(async () => {
    const stack = await startInvestigationStack('replay');
    site = stack.site;
    closeAfterTestRun(closeEvidenceBrowsers);
    pageUrl = `${site.origin}/xhr-deposit`;
    const start = await request(`${stack.url}/investigations/ssi`, { method: 'POST', headers: stack.analyst, json: { url: pageUrl, label: 'replay', options: { max_pages: 1, coin_tabs: true, page_timeout_s: 30 } } });
    assert.equal(start.status, 202, start.text);
    const done = await waitForScanEnd(stack.url, start.body.status_url, stack.analyst);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    const detail = await request(`${stack.url}/investigations/ssi/${start.body.scan_id}`, { headers: stack.analyst });
    assert.equal(detail.status, 200, detail.text);
    reported = (detail.body.wallets as Array<{ address: string }>).map((w) => w.address);
    const res = await fetch(`${stack.url}/investigations/ssi/${start.body.scan_id}/evidence-bundle?purpose=replay%20test`, { headers: stack.analyst });
    assert.equal(res.status, 200);
    const wacz = Buffer.from(await res.arrayBuffer());
    const keys = await request(`${stack.url}/evidence/signing-keys`);
    assert.equal(keys.status, 200, keys.text);
    fingerprint = keys.body.items[0].fingerprint;
    // From here on the site is gone: whatever the replay shows comes from the bundle.
    await site.close();

    replay = await startReplayServer({ bundle: wacz, tampered: await tampered(wacz) }, pageUrl);
    browser = await launchChromium(await resolveChromium());
    // Service workers are allowed here (the crawler blocks them); 127.0.0.1 is a secure context.
    // The locale is set: under LANG=C.UTF-8 Chromium reports `en-US@posix`, which ui.js's Intl rejects.
    context = await browser.newContext({ serviceWorkers: 'allow', locale: 'en-US', viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${replay.origin}/`);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await replay?.close();
  });

  it('the investigation reported the XHR-revealed BTC address (the fixture works)', () => {
    assert.ok(reported.includes(site.wallets.xhr.BTC), `${site.wallets.xhr.BTC} reported (${reported})`);
  });

  it('replays the deposit page from the archive, and clicking the BTC tab again shows the address in the rebuilt panel', async () => {
    const frame = await replayedFrame(page, pageUrl, 120_000);
    await frame.locator('button.coin[data-coin="BTC"]').waitFor({ timeout: 60_000 });
    // Before the click the panel is the empty input, as the site first showed it.
    assert.equal(await frame.locator('#panel code').count(), 0);
    await frame.locator('button.coin[data-coin="BTC"]').click();
    const code = frame.locator('#panel code');
    await code.waitFor({ timeout: 30_000 });
    assert.equal((await code.textContent())?.trim(), site.wallets.xhr.BTC);
    assert.match((await frame.locator('#panel p').textContent()) ?? '', /^Send BTC \(Bitcoin\) only to:/);
    // And another tab, whose answer is a different archived exchange.
    await frame.locator('button.coin[data-coin="ETH"]').click();
    await frame.waitForFunction((addr) => document.querySelector('#panel code')?.textContent === addr, site.wallets.xhr.ETH, { timeout: 30_000 });
    // ReplayWeb.page loaded the bundle from the recipient's server.
    assert.ok(replay.served.some((s) => s.path === '/bundle.wacz' && s.status === 200));
  });

  it('reports the wacz-auth signature verified with the platform key and every checked hash valid, in its API and its Archive Info panel', async () => {
    const { verify, checks, app } = await replayVerification(page, pageUrl);
    assert.ok(verify, 'verify info in the collection API');
    assert.equal(verify.numInvalid, 0, JSON.stringify(verify));
    assert.ok((verify.numValid ?? 0) > 0, `hashes verified: ${JSON.stringify(verify)}`);
    assert.ok(verify.publicKey, `an observer public key is shown: ${JSON.stringify(verify)}`);
    // The key ReplayWeb.page accepted is the platform's, as published.
    assert.equal(createHash('sha256').update(Buffer.from(verify.publicKey, 'base64')).digest('hex'), fingerprint);
    assert.match(verify.datapackageHash ?? '', /^sha256:[0-9a-f]{64}$/);
    assert.equal(checks.find((c) => c.id === 'signature')?.matched, true, `the ECDSA P-384 signature verified: ${JSON.stringify(checks)}`);
    const pagesCheck = checks.find((c) => c.id.endsWith('pages/pages.jsonl'));
    assert.equal(pagesCheck?.matched, true, `pages/pages.jsonl's hash checked and equal: ${JSON.stringify(checks)}`);
    // What a person sees: the Archive Info panel (ReplayWeb.page's wr-item-info, in its shadow DOM).
    const field = async (label: string) => ((await app.locator(`wr-labeled-field[label="${label}"]`).first().textContent({ timeout: 10_000 })) ?? '').replace(/\s+/g, ' ').trim();
    assert.equal(await field('Observer Public Key'), verify.publicKey);
    assert.match(await field('Validation'), /^[1-9]\d* hashes verified$/);
    assert.equal(await field('Package Hash'), verify.datapackageHash);
  });

  it('reports a bundle with a changed pages.jsonl byte and a flipped signature byte as not verified', async () => {
    const tab = await context.newPage();
    try {
      await tab.goto(`${replay.origin}/tampered`);
      const { verify, checks } = await replayVerification(tab, pageUrl);
      assert.equal(checks.find((c) => c.id === 'signature')?.matched, false, `the flipped signature fails: ${JSON.stringify(checks)}`);
      assert.equal(checks.find((c) => c.id.endsWith('pages/pages.jsonl'))?.matched, false, `the changed file fails its hash: ${JSON.stringify(checks)}`);
      assert.ok((verify?.numInvalid ?? 0) >= 1, `counted invalid: ${JSON.stringify(verify)}`);
    } finally {
      await tab.close();
    }
  });
});
