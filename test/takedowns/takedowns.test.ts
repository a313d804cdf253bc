// Takedowns end to end on real PostgreSQL and Temporal, a loopback RDAP server answering as
// registries do, a loopback scam site and the SMTP sink: recipients come from RDAP (registrar and
// hosting abuse contacts; a bare IP only the network's), cached; the XARF report validates against
// the pinned schema (ajv) and with the XARF project's Python library; the creator's approval is
// refused; sending twice mails each recipient once; the site is checked (up, changed and then
// re-investigated, down) now and by the watch workflow; a taken-down site's kit on a new domain
// raises a kit_on_new_domain alert.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimilarityActivities } from '../../activities/similarity/similarity-activities';
import { addUserRoles } from '../../db/repositories/accounts/user-repository';
import { insertInvestigation, insertPage, setInvestigationState } from '../../db/repositories/investigations/investigation-repository';
import { validateXarf } from '../../domain/takedowns/xarf-validation';
import { ensureTakedownWatchSchedule, TAKEDOWN_WATCH_SCHEDULE_ID } from '../../services/takedowns/takedown-watch-schedule';
import { startPlatformWorkflow } from '../../services/tasks/platform-workflows';
import { takedownWatchWorkflow } from '../../workflows/takedowns/takedown-watch-workflow';
import { asUser, http as request } from '../support/http';
import { startTestApi, startTestWorker, testDeps, testKnex, testTemporal } from '../support/platform';
import { startRdapServer, type RdapServer } from '../support/rdap-server';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { waitFor } from '../support/wait-for';
import { parseWithPythonXarf } from '../support/xarf-validator';

interface Site {
  url: string;
  body: string;
  close(): Promise<void>;
}

async function startSite(body: string): Promise<Site> {
  const site = { body } as Site;
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(site.body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  site.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return site;
}

const KIT_HTML = (brand: string) => `<!doctype html><html><head><title>${brand} Invest</title><link rel="stylesheet" href="/kit/app.css"></head><body>
<div class="wrap"><header class="top"><nav><a href="/">Home</a><a href="/plans">Plans</a><a href="/deposit">Deposit</a><a href="/login">Login</a></nav></header>
<section class="hero"><h1>Guaranteed 4% daily returns with ${brand}</h1><p>Join 120,000 investors earning passive income from our AI trading desk.</p>
<form class="signup" action="/register" method="post"><label>E-mail<input name="email" type="email"></label><label>Password<input name="password" type="password"></label><button>Start earning</button></form></section>
<section class="plans"><div class="plan"><h2>Starter</h2><p>Minimum deposit 250 USDT, 3% daily for 30 days</p></div><div class="plan"><h2>Gold</h2><p>Minimum deposit 2,500 USDT, 4% daily for 60 days</p></div>
<div class="plan"><h2>VIP</h2><p>Minimum deposit 25,000 USDT, 5% daily for 90 days and a personal account manager</p></div></section>
<footer><p>Licensed and regulated. Withdrawals processed within 24 hours. Support available around the clock in every time zone.</p></footer></div></body></html>`;

describe('takedowns: RDAP recipients, XARF reports, approval by a second person, one mail per recipient, the site watched', function () {
  this.timeout(240_000);
  let url = '';
  let queue = '';
  let smtp: SmtpSink;
  let rdap: RdapServer;
  let creator: Record<string, string>;
  let approver: Record<string, string>;
  let creatorEmail = '';
  const env: Record<string, string> = {};

  const person = async (role: 'analyst' | 'admin') => {
    const email = `takedown-${role}-${randomUUID().slice(0, 8)}@example.org`;
    await addUserRoles(testKnex(), email, [role]);
    return email;
  };

  /** A completed investigation of `siteUrl` captured from `serverIp`, with one page (real blobs) and its wallets. */
  async function completedScan(siteUrl: string, serverIp: string | null, html: string, wallets: Array<{ network: string; token: string; address: string }> = []): Promise<string> {
    const deps = await testDeps();
    const knex = testKnex();
    const scanId = randomUUID();
    await insertInvestigation(knex, { scanId, url: siteUrl, domain: new URL(siteUrl).hostname, requestedBy: creatorEmail, playbookId: null, caseId: null, label: null, options: { max_pages: 1, coin_tabs: false, page_timeout_s: 20 } });
    await setInvestigationState(knex, scanId, { state: 'CAPTURE', status: 'running' });
    const script = `/* kit runtime */ window.kit = { version: '3.1', plans: ['starter', 'gold', 'vip'], track() { return 'ok'; } };`;
    const har = { log: { entries: [{ request: { url: new URL('/kit/app.js', siteUrl).href }, response: { status: 200, content: { mimeType: 'application/javascript', text: script } }, _resourceType: 'script' }] } };
    const put = async (b: Buffer) => deps.blobs.put(b);
    const [shot, dom, harBlob] = await Promise.all([put(Buffer.from(`png of ${siteUrl}`)), put(Buffer.from(html)), put(Buffer.from(JSON.stringify(har)))]);
    const artifact = (b: { key: string; sha256: string; size: number }) => ({ key: b.key, sha256: b.sha256, size: b.size });
    await insertPage(knex, {
      scanId, url: siteUrl, seq: 1, state: 'CAPTURE', title: 'Invest', httpStatus: 200, serverIp, tls: null, responseHeaders: {},
      screenshot: artifact(shot), dom: artifact(dom), har: artifact(harBlob), capturedAt: new Date(Date.now() - 3_600_000),
    });
    for (const w of wallets) await knex('wallets').insert({ scan_id: scanId, ...w, confidence: 'high', source: 'regex', page_url: siteUrl });
    await setInvestigationState(knex, scanId, { state: 'COMPLETE', status: 'completed' });
    return scanId;
  }

  before(async () => {
    smtp = await startSmtpSink();
    rdap = await startRdapServer();
    queue = `takedowns-${randomUUID().slice(0, 8)}`;
    Object.assign(env, {
      SVC_TEMPORAL__TASK_QUEUE: queue,
      SVC_AUTH__TRUST_PROXY_HEADER: 'true',
      SVC_SMTP__URL: smtp.url,
      SVC_TAKEDOWN__RDAP_BASE_URL: rdap.url,
      SVC_TAKEDOWN__ALLOW_PRIVATE_TARGETS: '127.0.0.1',
      SVC_TAKEDOWN__REPORTER_ORG: 'Takedown Test Desk',
      SVC_TAKEDOWN__REPORTER_CONTACT: 'reports@desk.example',
      SVC_TAKEDOWN__REPORTER_DOMAIN: 'desk.example',
      SVC_TAKEDOWN__PUBLIC_BASE_URL: 'https://fip.desk.example',
      SVC_TAKEDOWN__RDAP_TIMEOUT_SECONDS: '5',
      SVC_WORKER__INSTANCE: `t-${queue}`,
    });
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
    creatorEmail = await person('analyst');
    creator = asUser(creatorEmail);
    approver = asUser(await person('admin'));
  });

  after(async () => {
    await smtp?.close();
    await rdap?.close();
  });

  it('drafts a takedown of a domain site: the registrar\'s abuse contact (RDAP domain) and the hosting network\'s (RDAP ip of the captured server address), looked up once (cached)', async () => {
    const tag = randomUUID().slice(0, 8);
    const scanId = await completedScan(`https://kit-${tag}.example/login`, '203.0.113.77', KIT_HTML(`Brand${tag}`), [{ network: 'tron', token: 'USDT', address: `TQn9Y2khEsLJW1ChVWFMSMeRDow5K${tag.slice(0, 5)}` }]);
    const created = await request(`${url}/takedowns`, { method: 'POST', headers: creator, json: { scan_id: scanId } });
    assert.equal(created.status, 201, created.text);
    const t = created.body;
    assert.equal(t.status, 'draft');
    const recipients = t.recipients.map((r: { role: string; email: string; source: string; organization: string }) => [r.role, r.email, r.source.startsWith(`rdap:${rdap.url}`), r.organization]);
    assert.deepEqual(recipients, [
      ['hosting', rdap.networkAbuse, true, 'Bulletproof Hosting Ltd'],
      ['registrar', rdap.registrarAbuse, true, 'Example Registrar, LLC'],
    ]);
    assert.equal(t.xarf.registrar, 'Example Registrar, LLC');
    assert.equal(t.xarf.hosting_provider, 'Bulletproof Hosting Ltd');
    assert.equal(t.xarf.source_identifier, '203.0.113.77');
    assert.equal(rdap.hits.get(`/domain/kit-${tag}.example`), 1);

    const again = await request(`${url}/takedowns`, { method: 'POST', headers: creator, json: { scan_id: scanId, recipients: [{ email: `cert-${tag}@national-cert.example` }] } });
    assert.equal(again.status, 201, again.text);
    assert.equal(rdap.hits.get(`/domain/kit-${tag}.example`), 1, 'the second draft used the cached RDAP answer');
    const other = again.body.recipients.find((r: { role: string }) => r.role === 'other');
    assert.equal(other.email, `cert-${tag}@national-cert.example`);
    assert.equal(other.source, `analyst:${creatorEmail}`);
    const cached = await testKnex()('rdap_cache').where({ query: `domain:kit-${tag}.example` }).first();
    assert.ok(cached.fetched_at instanceof Date);
  });

  it('the XARF report (content/fraud) carries the URL, first and last seen, the evidence hash, the screenshot link, the wallets and the reporter, and validates with ajv and with the PyPI xarf library', async () => {
    const tag = randomUUID().slice(0, 8);
    const wallet = `0x${createHash('sha256').update(tag).digest('hex').slice(0, 40)}`;
    const scanId = await completedScan(`https://pay-${tag}.example/`, '198.51.100.23', KIT_HTML(`X${tag}`), [{ network: 'ethereum', token: 'ETH', address: wallet }]);
    const created = await request(`${url}/takedowns`, { method: 'POST', headers: creator, json: { scan_id: scanId } });
    assert.equal(created.status, 201, created.text);
    const x = created.body.xarf;
    assert.equal(x.xarf_version, '4.2.0');
    assert.equal(x.category, 'content');
    assert.equal(x.type, 'fraud');
    assert.equal(x.fraud_type, 'other');
    assert.equal(x.url, `https://pay-${tag}.example/`);
    assert.equal(x.domain, `pay-${tag}.example`);
    assert.deepEqual(x.reporter, { org: 'Takedown Test Desk', contact: 'reports@desk.example', domain: 'desk.example' });
    assert.deepEqual(x.cryptocurrency_addresses, [{ currency: 'ethereum', address: wallet }]);
    assert.match(x.screenshot_url, new RegExp(`^https://fip\\.desk\\.example/investigations/ssi/${scanId}/pages/[0-9a-f-]{36}/screenshot$`));
    assert.ok(Date.parse(x.timestamp) <= Date.parse(x.verified_at));
    const manifest = Buffer.from(x.evidence[0].payload, 'base64').toString('utf8');
    assert.equal(x.evidence[0].hash, `sha256:${createHash('sha256').update(manifest).digest('hex')}`);
    assert.equal(JSON.parse(manifest).files.length, 3);
    assert.match(created.body.text, new RegExp(`Evidence: ${x.evidence[0].hash}`));
    assert.match(created.body.text, new RegExp(wallet));

    assert.deepEqual(validateXarf(x), []);
    const broken = { ...x, reporter: { org: 'x' } };
    assert.ok(validateXarf(broken).some((p) => p.path === '/reporter'), 'ajv catches a broken reporter');
    const [good, bad] = await parseWithPythonXarf([x, broken]);
    assert.deepEqual(good.errors, []);
    assert.equal(good.valid, true);
    assert.equal(bad.valid, false, 'the Python library is a real check: it refuses the broken report');
  });

  it('the creator cannot approve their own takedown (403); another person approves it; sending twice mails each recipient once, with the XARF attached', async () => {
    const tag = randomUUID().slice(0, 8);
    const scanId = await completedScan(`https://send-${tag}.example/`, '192.0.2.55', KIT_HTML(`S${tag}`));
    const created = await request(`${url}/takedowns`, { method: 'POST', headers: creator, json: { scan_id: scanId } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id;

    const early = await request(`${url}/takedowns/${id}/send`, { method: 'POST', headers: creator });
    assert.equal(early.status, 409, early.text);
    const own = await request(`${url}/takedowns/${id}/approve`, { method: 'POST', headers: creator });
    assert.equal(own.status, 403, own.text);
    assert.match(own.body.error.message, /created this takedown and cannot approve it/);
    const approved = await request(`${url}/takedowns/${id}/approve`, { method: 'POST', headers: approver });
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.status, 'approved');

    const first = await request(`${url}/takedowns/${id}/send`, { method: 'POST', headers: creator });
    assert.equal(first.status, 202, first.text);
    assert.equal(first.body.task_id, `takedown-send-${id}`);
    const second = await request(`${url}/takedowns/${id}/send`, { method: 'POST', headers: approver });
    assert.equal(second.status, 202, second.text);
    const sent = await waitFor('the takedown sent', async () => {
      const r = await request(`${url}/takedowns/${id}`, { headers: creator });
      return r.body.status === 'sent' ? r.body : null;
    }, 60_000);
    await (await testTemporal()).workflow.getHandle(`takedown-send-${id}`).result();
    // Once more after it was sent: a new run of the send, which finds nobody left to mail.
    const third = await request(`${url}/takedowns/${id}/send`, { method: 'POST', headers: creator });
    assert.equal(third.status, 202, third.text);
    const rerun = await (await testTemporal()).workflow.getHandle(`takedown-send-${id}`).result();
    assert.deepEqual([rerun.sent, rerun.pending, rerun.failed], [2, 0, []]);
    const mine = smtp.messages.filter((m) => m.subject?.includes(`send-${tag}.example`));
    assert.deepEqual(mine.map((m) => m.to && !Array.isArray(m.to) ? m.to.text : '').sort(), [rdap.networkAbuse, rdap.registrarAbuse].sort(), 'one mail per recipient');
    for (const m of mine) {
      const attachment = m.attachments.find((a) => a.filename === `xarf-${created.body.xarf.report_id}.json`);
      assert.ok(attachment, 'the XARF report is attached');
      assert.deepEqual(JSON.parse(attachment.content.toString('utf8')), created.body.xarf);
      assert.match(m.text ?? '', /We ask you to suspend it/);
    }
    assert.ok(sent.recipients.every((r: { sent_at: string | null }) => r.sent_at !== null));
    assert.deepEqual(sent.history.map((h: { kind: string }) => h.kind).filter((k: string) => k !== 'send_requested'), ['created', 'approved', 'sent']);
    const audit = await testKnex()('audit_events').where({ target_type: 'takedown', target_id: id }).orderBy('at').pluck('action');
    assert.deepEqual(audit, ['takedown.create', 'takedown.approve', 'takedown.send']);
    const listed = await request(`${url}/takedowns?status=sent&scan_id=${scanId}`, { headers: approver });
    assert.deepEqual(listed.body.items.map((i: { id: string }) => i.id), [id]);
  });

  it('a site on a bare IP: only its network\'s abuse contact; checks mark it up, changed (re-investigated once) and, when it stops answering, down; the watch workflow checks it too', async () => {
    const site = await startSite('<html><body>Invest now</body></html>');
    const scanId = await completedScan(site.url, '127.0.0.1', KIT_HTML('Bare'));
    const created = await request(`${url}/takedowns`, { method: 'POST', headers: creator, json: { scan_id: scanId } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.recipients.map((r: { role: string; email: string }) => [r.role, r.email]), [['hosting', rdap.networkAbuse]]);
    assert.equal(created.body.xarf.domain, undefined, 'an IP is no domain');
    const id = created.body.id;
    assert.equal((await request(`${url}/takedowns/${id}/approve`, { method: 'POST', headers: approver })).status, 200);
    assert.equal((await request(`${url}/takedowns/${id}/send`, { method: 'POST', headers: approver })).status, 202);
    await waitFor('sent', async () => (await request(`${url}/takedowns/${id}`, { headers: creator })).body.status === 'sent', 60_000);

    const up = await request(`${url}/takedowns/${id}/check`, { method: 'POST', headers: creator });
    assert.equal(up.status, 200, up.text);
    assert.equal(up.body.site_status, 'up');
    assert.ok(up.body.checked_at);

    site.body = '<html><body>Invest now: new wallet, new plans</body></html>';
    const changed = await request(`${url}/takedowns/${id}/check`, { method: 'POST', headers: creator });
    assert.equal(changed.body.site_status, 'changed');
    const reinvestigation = changed.body.reinvestigation_scan_id;
    assert.match(reinvestigation, /^[0-9a-f-]{36}$/);
    const inv = await testKnex()('investigations').where({ scan_id: reinvestigation }).first();
    assert.equal(inv.requested_by, `takedown:${id}`);
    assert.equal(inv.url, site.url);
    const handle = (await testTemporal()).workflow.getHandle(`ssi-${reinvestigation}`);
    assert.equal((await handle.describe()).type, 'ssiInvestigationWorkflow');
    await handle.terminate('the test only checks that it started');
    const same = await request(`${url}/takedowns/${id}/check`, { method: 'POST', headers: creator });
    assert.equal(same.body.site_status, 'up', 'the changed page is the new baseline');
    assert.equal(same.body.reinvestigation_scan_id, reinvestigation);

    await site.close();
    const run = await startPlatformWorkflow(await testTemporal(), {
      workflow: takedownWatchWorkflow, workflowId: `takedown-watch-test-${randomUUID()}`, taskQueue: queue, args: [], recordId: TAKEDOWN_WATCH_SCHEDULE_ID, title: 'Takedown watch',
    });
    const result = await run.result();
    assert.ok(result.down >= 1);
    const down = await request(`${url}/takedowns/${id}`, { headers: creator });
    assert.equal(down.body.site_status, 'down');
    const checks = down.body.history.filter((h: { kind: string }) => h.kind === 'check');
    assert.deepEqual(checks.map((h: { site_status: string; actor: string }) => [h.site_status, h.actor === 'schedule:takedown-watch']), [['up', false], ['changed', false], ['up', false], ['down', true]]);
    const downList = await request(`${url}/takedowns?site_status=down&scan_id=${scanId}`, { headers: creator });
    assert.deepEqual(downList.body.items.map((i: { id: string }) => i.id), [id]);
  });

  it('the kit of a taken-down site on a new domain raises a kit_on_new_domain alert naming both sites, once', async () => {
    const tag = randomUUID().slice(0, 8);
    const html = KIT_HTML(`Kit${tag}`);
    const oldScan = await completedScan(`https://old-${tag}.example/`, '203.0.113.9', html);
    const deps = await testDeps();
    const similarity = createSimilarityActivities({ knex: deps.knex, blobs: deps.blobs });
    await similarity.fingerprintInvestigation({ scanId: oldScan });
    const [t] = (await testKnex()('takedowns')
      .insert({ scan_id: oldScan, url: `https://old-${tag}.example/`, domain: `old-${tag}.example`, status: 'sent', created_by: creatorEmail, xarf: JSON.stringify({ report_id: randomUUID() }), summary: 'sent', sent_at: new Date() })
      .returning('id')) as Array<{ id: string }>;
    const newScan = await completedScan(`https://new-${tag}.example/`, '203.0.113.10', html);
    await similarity.fingerprintInvestigation({ scanId: newScan });
    await similarity.fingerprintInvestigation({ scanId: newScan });
    const alerts = await request(`${url}/alerts?kind=kit_on_new_domain&limit=500`, { headers: creator });
    const mine = alerts.body.items.filter((a: { detail: { takedown_id?: string } }) => a.detail.takedown_id === t.id);
    assert.equal(mine.length, 1, JSON.stringify(alerts.body.items.slice(0, 3)));
    assert.equal(mine[0].title, `The kit of taken-down old-${tag}.example is back on new-${tag}.example`);
    assert.equal(mine[0].detail.new_scan_id, newScan);
    assert.ok(mine[0].detail.score >= 0.5);
    assert.ok(mine[0].detail.reasons.some((r: string) => r === 'kit' || r === 'dom'));
  });

  it('the kit of a campaign member on a new domain alerts the campaign\'s watcher, once, naming the member it matched', async () => {
    const tag = randomUUID().slice(0, 8);
    const html = KIT_HTML(`Camp${tag}`);
    const member = await completedScan(`https://member-${tag}.example/`, '203.0.113.11', html);
    const deps = await testDeps();
    const similarity = createSimilarityActivities({ knex: deps.knex, blobs: deps.blobs });
    await similarity.fingerprintInvestigation({ scanId: member });
    const [campaign] = (await testKnex()('campaigns').insert({ name: `Operation ${tag}`, created_by: creatorEmail }).returning('id')) as Array<{ id: string }>;
    await testKnex()('campaign_investigations').insert({ campaign_id: campaign.id, scan_id: member, added_by: creatorEmail });
    const watch = await request(`${url}/watchlists`, { method: 'POST', headers: creator, json: { name: `campaign ${tag}`, target: { kind: 'campaign', id: campaign.id }, rules: [{ kind: 'new_linked_sites' }], email: false } });
    assert.equal(watch.status, 201, watch.text);
    const newScan = await completedScan(`https://fresh-${tag}.example/`, '203.0.113.12', html);
    await similarity.fingerprintInvestigation({ scanId: newScan });
    await similarity.fingerprintInvestigation({ scanId: newScan });
    const alerts = await request(`${url}/alerts?kind=kit_on_new_domain&watchlist_id=${watch.body.id}&limit=500`, { headers: creator });
    assert.equal(alerts.status, 200, alerts.text);
    assert.equal(alerts.body.items.length, 1, JSON.stringify(alerts.body.items));
    const [alert] = alerts.body.items;
    assert.equal(alert.title, `The kit of campaign Operation ${tag} is on a new domain: fresh-${tag}.example`);
    assert.equal(alert.detail.campaign_id, campaign.id);
    assert.equal(alert.detail.matched_scan_id, member);
    assert.equal(alert.detail.new_scan_id, newScan);
    // A member's own domain is no new domain: re-fingerprinting the member raises nothing.
    await similarity.fingerprintInvestigation({ scanId: member });
    assert.equal((await request(`${url}/alerts?kind=kit_on_new_domain&watchlist_id=${watch.body.id}&limit=500`, { headers: creator })).body.items.length, 1);
  });

  it('refuses bad input with the field named, a running investigation with 409, and keeps the watch Schedule daily', async () => {
    const bad = await request(`${url}/takedowns`, { method: 'POST', headers: creator, json: { scan_id: 'nope' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'body.scan_id');
    const missing = await request(`${url}/takedowns`, { method: 'POST', headers: creator, json: { scan_id: randomUUID() } });
    assert.equal(missing.status, 404);
    const scanId = randomUUID();
    await insertInvestigation(testKnex(), { scanId, url: 'https://running.example/', domain: 'running.example', requestedBy: creatorEmail, playbookId: null, caseId: null, label: null, options: {} });
    const running = await request(`${url}/takedowns`, { method: 'POST', headers: creator, json: { scan_id: scanId } });
    assert.equal(running.status, 409, running.text);
    assert.match(running.body.error.message, /finished/);
    await ensureTakedownWatchSchedule(await testTemporal(), queue, 24);
    const described = await (await testTemporal()).schedule.getHandle(TAKEDOWN_WATCH_SCHEDULE_ID).describe();
    assert.equal(Number(described.spec.intervals?.[0]?.every), 24 * 3600 * 1000);
  });
});
