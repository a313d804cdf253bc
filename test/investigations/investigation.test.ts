// End to end: POST /investigations/ssi against fixture scam sites on 127.0.0.1 with a real API,
// worker, Chromium, PostgreSQL and Temporal; the canary on 127.0.0.2 must receive nothing.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startInvestigationStack, waitForScanEnd } from '../support/investigation-stack';
import { testKnex, testTemporal } from '../support/platform';
import type { ScamSiteFixture } from '../support/scam-site-fixture';
import { waitFor } from '../support/wait-for';
import { listSourceEntities } from '../../db/repositories/intelligence/entity-repository';

describe('scam-site investigations (end to end)', function () {
  this.timeout(240_000);
  let site: ScamSiteFixture;
  let url: string;
  let analyst: Record<string, string>;
  let queue: string;

  before(async () => {
    ({ site, url, analyst, queue } = await startInvestigationStack('inv'));
  });
  after(async () => site?.close());

  it('follows the redirect chain, runs the playbook steps, captures every page, clicks coin tabs, follows the SPA route, and records wallets, PII, an append-only action log and blocked canary requests', async () => {
    const playbook = await http(`${url}/playbooks/ssi`, {
      method: 'POST', headers: analyst,
      json: { name: `fixture ${queue}`, url_patterns: ['127.0.0.1/**'], steps: [{ type: 'click', selector: '#reveal' }, { type: 'wait_for_text', text: 'VIP deposits', timeout_s: 10 }] },
    });
    assert.equal(playbook.status, 201, playbook.text);
    const start = await http(`${url}/investigations/ssi`, {
      method: 'POST', headers: analyst, json: { url: `${site.origin}/r1`, label: 'fixture', playbook_id: playbook.body.id, options: { max_pages: 12, page_timeout_s: 30 } },
    });
    assert.equal(start.status, 202, start.text);
    assert.equal(start.body.status, 'queued');
    assert.equal(start.body.task_id, `ssi-${start.body.scan_id}`);
    assert.equal(start.body.status_url, `/tasks/ssi-${start.body.scan_id}`);

    const stages = new Set<string>();
    const done = await waitForScanEnd(url, start.body.status_url, analyst, (t) => {
      const stage = (t.progress as { stage?: string } | null)?.stage;
      if (stage) stages.add(stage);
    });
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    assert.equal(done.kind, 'investigation');
    assert.ok([...stages].some((s) => ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS'].includes(s)), `stages seen at /tasks: ${[...stages]}`);

    const d = await http(`${url}/investigations/ssi/${start.body.scan_id}`, { headers: analyst });
    assert.equal(d.status, 200, d.text);
    const inv = d.body;
    assert.equal(inv.status, 'completed');
    assert.equal(inv.state, 'COMPLETE');
    assert.equal(inv.final_url, `${site.origin}/home`);
    assert.deepEqual(inv.redirect_chain.map((h: { url: string; kind: string }) => [h.url.replace(site.origin, ''), h.kind]), [
      ['/r1', 'http'], ['/r2', 'meta-refresh'], ['/r3', 'script'], ['/home', 'final'],
    ]);
    const entered = inv.agent_actions.filter((a: { action: string }) => a.action === 'enter_state').map((a: { target: string }) => a.target);
    assert.deepEqual(entered, ['NAVIGATE', 'CAPTURE', 'EXPLORE', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE']);

    const byAddress = new Map(inv.wallets.map((w: { address: string }) => [w.address, w]));
    const w = site.wallets;
    assert.equal(inv.playbook_id, playbook.body.id);
    const stepActions = inv.agent_actions.filter((a: { action: string }) => a.action.startsWith('playbook_')).map((a: { action: string; target: string; outcome: string }) => [a.action, a.target, a.outcome]);
    assert.deepEqual(stepActions, [['playbook_click', '#reveal', 'ok'], ['playbook_wait_for_text', 'VIP deposits', 'ok']]);
    assert.equal((inv.wallets.find((x: { address: string }) => x.address === site.wallets.vip) as { found_in_state: string } | undefined)?.found_in_state, 'CAPTURE', 'the playbook click revealed the VIP wallet');
    // After every reveal (each playbook step, each coin-tab click) a screenshot and DOM snapshot of their own.
    const reveals = inv.agent_actions.filter((a: { action: string }) => a.action === 'capture_reveal').map((a: { target: string; outcome: string }) => [a.target, a.outcome]);
    assert.ok(reveals.some(([t, o]: string[]) => /^reveal-\d{4}-click-reveal$/.test(t!) && /^png [0-9a-f]{12}, html [0-9a-f]{12}$/.test(o!)), `the playbook click's reveal: ${JSON.stringify(reveals)}`);
    assert.ok(reveals.some(([t]: string[]) => /^reveal-\d{4}-wait-for-text-vip-deposits$/.test(t!)));
    assert.ok(reveals.some(([t, o]: string[]) => /^reveal-\d{4}-coin-tab-btc$/.test(t!) && /png .*, html .*, har /.test(o!)), 'a coin-tab click keeps its exchanges too');
    const revealRows = await testKnex()('investigation_responses').where({ scan_id: start.body.scan_id }).andWhereLike('url', '%#fip-reveal=%click-reveal.html').select('blob_key');
    assert.equal(revealRows.length, 1);
    for (const addr of [w.home, w.tabBtc, w.tabEth, w.tabUsdt, w.tabTrx, w.spa, w.frame, w.delayed]) assert.ok(byAddress.has(addr), `wallet ${addr} found; got ${[...byAddress.keys()]}`);
    for (const addr of [w.tabBtc, w.tabEth, w.tabUsdt, w.tabTrx]) assert.equal((byAddress.get(addr) as { found_in_state: string }).found_in_state, 'DISCOVER_COIN_TABS');
    assert.equal((byAddress.get(w.home) as { found_in_state: string }).found_in_state, 'NAVIGATE');
    assert.equal((byAddress.get(w.tabUsdt) as { token: string }).token, 'USDT');
    const coinClicks = inv.agent_actions.filter((a: { action: string }) => a.action === 'click_coin_tab').map((a: { target: string }) => a.target);
    assert.deepEqual(coinClicks.slice(0, 4), ['BTC', 'ETH', 'USDT (TRC20)', 'TRX']);
    const extractions = inv.agent_actions.filter((a: { action: string }) => a.action === 'extract_wallets');
    assert.ok(extractions.length >= inv.pages.length + 4, 'an extraction per page transition and per coin-tab click');
    assert.ok(extractions.some((a: { outcome: string; wallets_found: number }) => a.outcome === 'coin tab BTC' && a.wallets_found >= 1));

    const paths = inv.pages.map((p: { url: string }) => p.url.replace(site.origin, ''));
    for (const p of ['/home', '/deposit', '/about', '/frame', '/delayed']) assert.ok(paths.includes(p), `page ${p} captured; got ${paths}`);
    assert.ok(paths.some((p: string) => p.startsWith('/spa')), 'the single-page app was captured');
    assert.ok(paths.indexOf('/deposit') < paths.indexOf('/about'), 'the deposit page is explored before other pages');
    const home = inv.pages.find((p: { url: string }) => p.url === `${site.origin}/home`);
    assert.equal(home.title, 'Fast Profit Crypto');
    assert.equal(home.http_status, 200);
    assert.equal(home.server_ip, '127.0.0.1');
    assert.equal(home.response_headers['x-fixture'], 'scam-site');
    for (const kind of ['screenshot', 'dom', 'har'] as const) {
      const art = home.artifacts[kind];
      assert.match(art.sha256, /^[0-9a-f]{64}$/);
      const res = await fetch(`${url}${art.download_path}`, { headers: analyst });
      assert.equal(res.status, 200);
      const bytes = Buffer.from(await res.arrayBuffer());
      assert.equal(createHash('sha256').update(bytes).digest('hex'), art.sha256, `${kind} bytes match the hash taken at capture`);
      if (kind === 'screenshot') assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
      if (kind === 'dom') assert.ok(bytes.toString().includes(w.home));
      if (kind === 'har') assert.ok(JSON.parse(bytes.toString()).log.entries.some((e: { request: { url: string } }) => e.request.url === `${site.origin}/home`));
    }

    const pii = inv.pii.map((p: { kind: string; value: string }) => `${p.kind}:${p.value}`);
    for (const expected of ['email:support@fast-profit.io', 'telegram:@fastprofit_help', 'phone:+442071838750']) assert.ok(pii.includes(expected), `${expected} in ${pii}`);

    const blocked = inv.blocked_requests.map((b: { url: string }) => b.url);
    assert.ok(blocked.some((u: string) => u.startsWith(`${site.canaryOrigin}/pixel.png`)), `subresource blocked: ${blocked}`);
    assert.ok(blocked.some((u: string) => u.startsWith(`${site.canaryOrigin}/api/secret`)), 'fetch blocked');
    assert.ok(blocked.some((u: string) => u.startsWith(`${site.canaryOrigin}/internal`)), 'redirect target blocked');
    assert.ok(blocked.some((u: string) => u.startsWith(`${site.canaryOrigin.replace('http', 'ws')}/ws`)), 'WebSocket blocked');
    assert.ok(inv.blocked_requests.every((b: { category: string }) => b.category === 'loopback'));
    assert.equal(site.canaryHits(), 0, 'the canary on 127.0.0.2 received nothing');

    await assert.rejects(testKnex()('investigation_actions').where({ scan_id: start.body.scan_id }).update({ outcome: 'rewritten' }), /append-only/, 'the agent log is append-only');
    const entities = await listSourceEntities(testKnex(), 'investigation', start.body.scan_id);
    const values = entities.map((e: { type: string; value: string }) => `${e.type}:${e.value}`);
    assert.ok(values.includes(`wallet:${w.tabBtc}`), 'wallets are in the graph');
    assert.ok(values.includes('email:support@fast-profit.io'));
    assert.ok(values.includes('ip:127.0.0.1'));
    assert.ok(values.includes(`url:${site.origin}/home`));

    const described = await (await testTemporal()).workflow.getHandle(start.body.task_id).describe();
    assert.equal(described.searchAttributes.FipStage?.[0], 'COMPLETE');

    const across = await http(`${url}/investigations/ssi/wallets?address=${encodeURIComponent(w.tabBtc)}`, { headers: analyst });
    assert.equal(across.status, 200, across.text);
    assert.equal(across.body.items[0].scans.find((x: { scan_id: string }) => x.scan_id === start.body.scan_id)?.url, `${site.origin}/r1`, 'the cross-scan wallet list names the investigated URL');
    const csv = await fetch(`${url}/investigations/ssi/${start.body.scan_id}/wallets.csv`, { headers: analyst });
    assert.equal(csv.status, 200);
    assert.ok((await csv.text()).includes(w.tabBtc));

    const hist = await http(`${url}/investigations/ssi/history?domain=127.0.0&has_wallets=true&token=BTC`, { headers: analyst });
    assert.equal(hist.status, 200, hist.text);
    assert.ok(hist.body.items.some((i: { scan_id: string }) => i.scan_id === start.body.scan_id));
    const none = await http(`${url}/investigations/ssi/history?domain=no-such-host.example`, { headers: analyst });
    assert.equal(none.body.items.length, 0);
  });

  it('refuses a first URL the egress policy blocks: the scan fails with the reason, nothing is fetched, and its (empty) wallet export answers 200', async () => {
    const start = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.canaryOrigin}/`, playbook_id: null } });
    assert.equal(start.status, 202, start.text);
    const done = await waitFor('ends', async () => {
      const t = await http(`${url}${start.body.status_url}`, { headers: analyst });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 60_000, 250);
    assert.equal(done.status, 'failed');
    assert.match(done.error.message, /127\.0\.0\.2/);
    const d = await http(`${url}/investigations/ssi/${start.body.scan_id}`, { headers: analyst });
    assert.equal(d.body.state, 'FAILED');
    assert.equal(d.body.blocked_requests[0].category, 'loopback');
    const emptyExport = await fetch(`${url}/investigations/ssi/${start.body.scan_id}/wallets.csv`, { headers: analyst });
    assert.equal(emptyExport.status, 200, 'an existing scan without wallets exports an empty sheet');
    assert.equal(site.canaryHits(), 0);
  });

  it('validates the request: only http(s) URLs, options within bounds, field paths in the error', async () => {
    const bad = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: 'file:///etc/passwd', options: { max_pages: 500 } } });
    assert.equal(bad.status, 400, bad.text);
    const paths = JSON.stringify(bad.body.error.details);
    assert.match(paths, /url/);
    assert.match(paths, /max_pages/);
    const noPlaybook = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: 'https://example.org/', playbook_id: randomUUID() } });
    assert.equal(noPlaybook.status, 422, noPlaybook.text);
    assert.equal(noPlaybook.body.error.code, 'unknown_playbook');
    const unknown = await http(`${url}/investigations/ssi/${randomUUID()}`, { headers: analyst });
    assert.equal(unknown.status, 404);
    const unknownExport = await http(`${url}/investigations/ssi/${randomUUID()}/wallets.csv`, { headers: analyst });
    assert.equal(unknownExport.status, 404);
    const researcher = asUser((await usersForEveryRole()).researcher);
    const denied = await http(`${url}/investigations/ssi`, { method: 'POST', headers: researcher, json: { url: 'https://example.org/' } });
    assert.equal(denied.status, 403);
  });
});
