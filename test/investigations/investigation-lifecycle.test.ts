// An investigation's life beyond the happy path: cancelled through /tasks, and a worker killed in the
// middle (the restarted worker, same instance name, finishes it with no duplicate rows).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';
import { startScamSiteFixture, type ScamSiteFixture } from '../support/scam-site-fixture';
import { waitFor } from '../support/wait-for';

const ROOT = path.resolve(__dirname, '../..');

describe('investigation lifecycle: cancel and worker loss', function () {
  this.timeout(240_000);
  let site: ScamSiteFixture;
  let analyst: Record<string, string>;
  let analystEmail = '';

  before(async () => {
    site = await startScamSiteFixture({ delayMs: 400 });
    analystEmail = (await usersForEveryRole()).analyst;
    analyst = asUser(analystEmail);
  });
  after(async () => site?.close());

  const env = (queue: string) => ({
    SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_WORKER__INSTANCE: `w-${queue}`,
  });

  it('POST /tasks/ssi-<scan_id>/update {"status":"cancelled"} closes the browser, keeps the captured pages and ends in CANCELLED', async () => {
    const queue = `inv-cancel-${randomUUID().slice(0, 8)}`;
    await startTestWorker(queue, env(queue));
    const url = (await startTestApi(env(queue))).url;
    const start = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}/home`, playbook_id: null, options: { max_pages: 50 } } });
    assert.equal(start.status, 202, start.text);
    await waitFor('two pages captured', async () => (await http(`${url}/investigations/ssi/${start.body.scan_id}`, { headers: analyst })).body.pages.length >= 2, 120_000, 200);
    const active = await http(`${url}/investigations/ssi/active?requested_by=${encodeURIComponent(analystEmail)}&limit=500`, { headers: analyst });
    assert.equal(active.status, 200, active.text);
    const mine = active.body.items.find((i: { scan_id: string }) => i.scan_id === start.body.scan_id);
    assert.ok(mine, `the running scan is listed as active: ${active.text.slice(0, 600)}`);
    assert.ok(['EXPLORE', 'DISCOVER_COIN_TABS', 'CAPTURE'].includes(mine.progress?.stage), `active progress stage ${JSON.stringify(mine.progress)}`);
    const cancel = await http(`${url}/tasks/${start.body.task_id}/update`, { method: 'POST', headers: analyst, json: { status: 'cancelled' } });
    assert.equal(cancel.status, 200, cancel.text);
    const task = await waitFor('cancelled', async () => {
      const t = await http(`${url}/tasks/${start.body.task_id}`, { headers: analyst });
      return t.body.status === 'cancelled' ? t.body : null;
    }, 60_000, 200);
    assert.equal(task.status, 'cancelled');
    const d = await waitFor('state recorded', async () => {
      const r = await http(`${url}/investigations/ssi/${start.body.scan_id}`, { headers: analyst });
      return r.body.state === 'CANCELLED' ? r.body : null;
    }, 20_000, 200);
    assert.equal(d.status, 'cancelled');
    assert.ok(d.pages.length >= 2, 'captured pages are kept');
    assert.ok(d.agent_actions.some((a: { action: string }) => a.action === 'close_browser'), 'the browser context was closed');
    assert.ok(!d.agent_actions.some((a: { target: string }) => a.target === 'COMPLETE'));
  });

  it('a worker killed mid-investigation and started again completes it with no duplicate rows', async () => {
    const queue = `inv-kill-${randomUUID().slice(0, 8)}`;
    const spawnWorker = (): Promise<ChildProcess & { output: () => string }> => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/investigation-worker-process.ts'], {
        cwd: ROOT, env: { ...process.env, ...env(queue), SVC_LOG__LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      return waitFor('child worker ready', async () => out.includes('WORKER_READY') || child.exitCode !== null, 90_000).then(() => {
        assert.equal(child.exitCode, null, out);
        return Object.assign(child, { output: () => out });
      });
    };
    let child = await spawnWorker();
    const url = (await startTestApi(env(queue))).url;
    const start = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}/home`, playbook_id: null, options: { max_pages: 8 } } });
    assert.equal(start.status, 202, start.text);
    const scanId = start.body.scan_id;
    await waitFor('exploring', async () => (await http(`${url}/investigations/ssi/${scanId}`, { headers: analyst })).body.pages.length >= 2, 120_000, 100);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const pagesAtKill = (await http(`${url}/investigations/ssi/${scanId}`, { headers: analyst })).body.pages.length;
    child = await spawnWorker();
    try {
      const task = await waitFor('completed after restart', async () => {
        const t = await http(`${url}/tasks/${start.body.task_id}`, { headers: analyst });
        return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
      }, 180_000, 500);
      assert.equal(task.status, 'completed', JSON.stringify(task.error));
      const d = (await http(`${url}/investigations/ssi/${scanId}`, { headers: analyst })).body;
      assert.equal(d.state, 'COMPLETE');
      assert.ok(d.pages.length > pagesAtKill, 'the restarted worker captured the remaining pages');
      const urls = d.pages.map((p: { url: string }) => p.url);
      assert.equal(new Set(urls).size, urls.length, 'each page once');
      const knex = testKnex();
      const walletRows = await knex('wallets').where({ scan_id: scanId });
      assert.equal(new Set(walletRows.map((w) => `${w.network}|${w.token}|${w.address}`)).size, walletRows.length);
      for (const addr of [site.wallets.home, site.wallets.tabBtc, site.wallets.tabTrx]) assert.ok(walletRows.some((w) => w.address === addr), `wallet ${addr}`);
      const entered = d.agent_actions.filter((a: { action: string }) => a.action === 'enter_state').map((a: { target: string }) => a.target);
      assert.deepEqual(entered, ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE'], 'each state entered once');
      const sightings = await knex('sightings').where({ source_kind: 'investigation', source_id: scanId }).select('entity_id');
      assert.equal(new Set(sightings.map((s) => s.entity_id)).size, sightings.length, 'one sighting per entity');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
