// A scam page cannot stop its own capture: frames of non-web schemes are skipped and recorded (never
// waited on), and a page whose script hangs the renderer fails with a reason within the step's
// deadline while the investigation goes on with the rest of the site. Real API, worker, Chromium,
// PostgreSQL and Temporal; the site is on 127.0.0.1.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asUser, http } from '../support/http';
import { startHostileSiteFixture, NON_WEB_FRAME_SOURCES, type HostileSiteFixture } from '../support/hostile-site-fixture';
import { usersForEveryRole } from '../support/identities';
import { waitForScanEnd } from '../support/investigation-stack';
import { startTestApi, startTestWorker } from '../support/platform';

interface Action { at: string; action: string; target: string; outcome: string }
interface Detail { pages: Array<{ url: string }>; wallets: Array<{ address: string }>; agent_actions: Action[] }

describe('hostile pages cannot stop their capture', function () {
  this.timeout(240_000);
  let site: HostileSiteFixture;
  let url: string;
  let analyst: Record<string, string>;

  before(async () => {
    site = await startHostileSiteFixture();
    const queue = `invhostile-${randomUUID().slice(0, 8)}`;
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_WORKER__INSTANCE: `t-${queue}` };
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
    analyst = asUser((await usersForEveryRole()).analyst);
  });
  after(async () => site?.close());

  async function investigate(path: string): Promise<{ took: number; detail: Detail }> {
    const started = Date.now();
    const start = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}${path}`, options: { max_pages: 5, coin_tabs: false, page_timeout_s: 20 } } });
    assert.equal(start.status, 202, start.text);
    const done = await waitForScanEnd(url, start.body.status_url, analyst);
    const took = Date.now() - started;
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    const detail = await http(`${url}/investigations/ssi/${start.body.scan_id}`, { headers: analyst });
    assert.equal(detail.status, 200, detail.text);
    return { took, detail: detail.body as Detail };
  }

  it('skips and records every non-web frame, captures the ordinary frames and pages, and finishes in under two minutes', async () => {
    const { took, detail } = await investigate('/frames');
    assert.ok(took < 120_000, `the investigation took ${took} ms`);
    const paths = detail.pages.map((p) => p.url.replace(site.origin, ''));
    assert.ok(paths.includes('/frames') && paths.includes('/normal'), `pages captured: ${paths}`);
    const skipped = detail.agent_actions.filter((a) => a.action === 'skip_frame');
    for (const src of NON_WEB_FRAME_SOURCES) {
      const entry = skipped.find((a) => a.target === src);
      assert.ok(entry, `frame ${src} recorded as skipped; got ${JSON.stringify(skipped.map((a) => [a.target, a.outcome]))}`);
      assert.match(entry.outcome, /^skipped: non-web frame/);
    }
    assert.ok(!skipped.some((a) => /\/inner$|srcdoc/.test(a.target)), 'ordinary frames are read, not skipped');
    const found = new Set(detail.wallets.map((w) => w.address));
    for (const addr of [site.wallets.frames, site.wallets.inner, site.wallets.normal]) assert.ok(found.has(addr), `wallet ${addr} found; got ${[...found]}`);
  });

  it('fails a page whose script hangs the renderer, with the stuck step as its reason, within a minute, and captures the rest of the site', async () => {
    const { detail } = await investigate('/start');
    const paths = detail.pages.map((p) => p.url.replace(site.origin, ''));
    assert.ok(paths.includes('/start') && paths.includes('/normal'), `pages captured: ${paths}`);
    assert.ok(!paths.includes('/stuck'), 'the stuck page has no capture');
    const actions = detail.agent_actions;
    const stuck = `${site.origin}/stuck`;
    const failed = actions.find((a) => a.action === 'capture' && a.target === stuck);
    assert.ok(failed, `a capture action for the stuck page; got ${JSON.stringify(actions.map((a) => [a.action, a.target, a.outcome]))}`);
    assert.match(failed.outcome, /^failed: step "[a-z -]+" did not finish within \d+ s$/);
    const navigated = actions.findIndex((a) => a.action === 'navigate' && a.target === stuck);
    assert.ok(navigated > 0, 'the stuck page was navigated to');
    assert.match(actions[navigated]!.outcome, /^loaded, then stuck: step "[a-z -]+" did not finish within \d+ s$/);
    // The action before it closed the previous page: from there, the stuck page's load and its stuck step.
    const failedAfter = Date.parse(failed.at) - Date.parse(actions[navigated - 1]!.at);
    assert.ok(failedAfter < 60_000, `the stuck page failed ${failedAfter} ms after the crawler turned to it`);
    assert.ok(detail.wallets.some((w) => w.address === site.wallets.normal), 'the page after the stuck one was captured with its wallet');
  });
});
