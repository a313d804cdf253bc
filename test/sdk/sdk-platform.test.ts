// The SDK's platform variant (kind 'core') against the real running API and a real worker: every
// hand-wrapped route group at least once, camelCase in and out, errors as FipApiError, a retry on
// 503 through a loopback proxy, task polling to completion and streamed downloads.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createFipClient, FipApiError, type FipClient } from '../../sdk/src';
import { saveDownload } from '../../sdk/src/node';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';

async function readText(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('SDK platform variant against the real API', function () {
  this.timeout(120_000);
  const queue = `sdk-${randomUUID().slice(0, 8)}`;
  let baseUrl: string;
  let idleBaseUrl: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  const as = (email: string, extra: Partial<Parameters<typeof createFipClient>[0]> = {}): FipClient =>
    createFipClient({ kind: 'core', baseUrl, proxyIdentity: { value: `accounts.google.com:${email}` }, ...extra });

  before(async () => {
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true' };
    users = await usersForEveryRole();
    await startTestWorker(queue, env);
    baseUrl = (await startTestApi(env)).url;
    // Investigations start on a queue no worker serves: they stay queued (no Chromium needed here).
    idleBaseUrl = (await startTestApi({ ...env, SVC_TEMPORAL__TASK_QUEUE: `${queue}-idle` })).url;
  });

  it('accounts.me answers the proxy identity; an API key (X-API-KEY) identifies a service with its scopes', async () => {
    const me = await as(users.analyst).accounts.me();
    assert.equal(me.email, users.analyst);
    assert.deepEqual(me.roles, ['analyst']);
    const key = await createTestApiKey(['investigations:read']);
    const service = await createFipClient({ kind: 'core', baseUrl, apiKey: key }).accounts.me();
    assert.deepEqual(service.service?.scopes, ['investigations:read']);
  });

  it('cases: create with camelCase body, get, update and list (iterating pages)', async () => {
    const client = as(users.analyst);
    const title = `sdk case ${randomUUID()}`;
    const created = await client.cases.create({ title, description: 'from the SDK', priority: 'high' });
    assert.equal(created.title, title);
    assert.equal(typeof created.createdAt, 'string');
    assert.equal((created as Record<string, unknown>).created_at, undefined, 'keys are camelCase');
    const detail = await client.cases.get(created.id);
    assert.equal(detail.id, created.id);
    const updated = await client.cases.update(created.id, { description: 'changed' });
    assert.equal(updated.description, 'changed');
    const seen: string[] = [];
    for await (const c of client.cases.list({ q: title, limit: 1 })) seen.push(c.id);
    assert.deepEqual(seen, [created.id]);
  });

  it('maps an error answer to FipApiError with status, code and camelCase detail paths', async () => {
    const client = as(users.analyst);
    const err = await client.cases.create({ title: 'x', campaignId: 'not-a-uuid' }).then(
      () => assert.fail('expected a 400'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof FipApiError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.code, 'validation_failed');
    const paths = (err.details as Array<{ path: string }>).map((d) => d.path);
    assert.ok(paths.includes('body.campaignId'), JSON.stringify(err.details));
    const notFound = await client.cases.get(randomUUID()).catch((e: unknown) => e);
    assert.ok(notFound instanceof FipApiError);
    assert.equal(notFound.status, 404);
    assert.equal(notFound.code, 'not_found');
    const forbidden = await as(users.researcher).wallets.search({ address: 'abc' }).first().catch((e: unknown) => e);
    assert.ok(forbidden instanceof FipApiError);
    assert.equal(forbidden.status, 403);
  });

  it('reports: generate (opaque scope passed as-is), tasks.wait to completion with progress, list, stream the download (whole, a byte range, saved to a file by the Node helper)', async () => {
    const client = as(users.analyst);
    const accepted = await client.reports.generate(
      { template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'csv', title: `sdk ${randomUUID()}` }, recipients: [] },
      { idempotencyKey: randomUUID() },
    );
    assert.match(accepted.taskId, /./);
    const seen: string[] = [];
    const task = await client.tasks.wait(accepted.taskId, { intervalMs: 200, timeoutMs: 90_000, onProgress: (t) => seen.push(t.status) });
    assert.equal(task.status, 'completed');
    assert.equal(seen.at(-1), 'completed');
    const reportId = (task.result as { report_id: string }).report_id;
    assert.match(reportId, /^[0-9a-f-]{36}$/, JSON.stringify(task.result));
    const listed = await client.reports.list({ template: 'wallet-activity', limit: 500 }).toArray();
    assert.ok(listed.some((r) => r.id === reportId));
    const download = await client.reports.download(reportId);
    assert.equal(download.status, 200);
    assert.match(download.contentType ?? '', /text\/csv/);
    const bytes = Buffer.from(await new Response(download.stream).arrayBuffer());
    assert.ok(bytes.length > 10, bytes.toString('utf8'));
    const part = await client.reports.download(reportId, { range: 'bytes=0-9' });
    assert.equal(part.status, 206);
    assert.deepEqual(Buffer.from(await new Response(part.stream).arrayBuffer()), bytes.subarray(0, 10));
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'fip-sdk-')), 'report.csv');
    const written = await saveDownload(await client.reports.download(reportId), file);
    assert.equal(written, bytes.length);
    assert.deepEqual(readFileSync(file), bytes);
  });

  it('wallets.search iterates the cross-scan search over several pages with camelCase rows', async () => {
    const tag = randomUUID().replace(/-/g, '').slice(0, 12);
    const addresses = [`TSDKA${tag}`, `TSDKB${tag}`, `TSDKC${tag}`];
    for (const [i, address] of addresses.entries()) {
      await upsertWallets(testKnex(), `sdk-${tag}-${i}`, [{ address, token: 'USDT', network: 'tron', confidence: 'high', source: 'dom', context: 'pay', pageUrl: `https://s${i}.scam.test/` }]);
    }
    const client = as(users.analyst);
    const pages: number[] = [];
    for await (const page of client.wallets.search({ address: tag, limit: 2 }).pages()) pages.push(page.items.length);
    assert.deepEqual(pages, [2, 1]);
    const rows = await client.wallets.search({ address: tag, limit: 2 }).toArray();
    assert.deepEqual(rows.map((r) => r.address).sort(), [...addresses].sort());
    assert.equal(rows[0].scanCount, 1);
    assert.equal(typeof rows[0].scans[0].pageUrl, 'string');
  });

  it('intakes: create (multipart payload with camelCase keys and files), list, get, wait for its processing task, set status; audit.events finds the status change', async () => {
    const client = as(users.analyst);
    const summary = `sdk intake ${randomUUID()}`;
    const created = await client.intakes.create(
      { summary, source: 'sdk-test', reporterName: 'Ana Reporter', contactEmail: 'ana@example.org', lossAmount: 12.5, lossCurrency: 'EUR' },
      [{ name: 'note.txt', data: new TextEncoder().encode('scammer wallet TXYZ'), type: 'text/plain' }, new File(['<p>hi</p>'], 'page.html', { type: 'text/html' })],
      { idempotencyKey: randomUUID() },
    );
    assert.match(created.id, /^[0-9a-f-]{36}$/, JSON.stringify(created));
    const intake = await client.intakes.get(created.id);
    assert.equal(intake.summary, summary);
    assert.deepEqual(intake.files.map((f) => f.filename).sort(), ['note.txt', 'page.html']);
    assert.equal(intake.lossCurrency, 'EUR');
    const listed = await client.intakes.list({ source: 'sdk-test', limit: 500 }).toArray();
    assert.ok(listed.some((i) => i.id === created.id));
    const processed = await client.tasks.wait(created.taskId, { intervalMs: 200, timeoutMs: 90_000 });
    assert.equal(processed.status, 'completed');
    await client.intakes.setStatus(created.id, { status: 'rejected', reason: 'sdk test' });
    assert.equal((await client.intakes.get(created.id)).status, 'rejected');
    const events = await as(users.admin).audit.events({ targetType: 'intake', targetId: created.id }).toArray();
    assert.ok(events.some((e) => e.action === 'intake.status' && e.targetId === created.id), JSON.stringify(events));
  });

  it('reviews: enqueue a case, find it in the queue, claim, annotate and decide', async () => {
    const analyst = as(users.analyst);
    const reviewer = as(users.reviewer);
    const kase = await analyst.cases.create({ title: `sdk review ${randomUUID()}` });
    const review = await analyst.reviews.create({ caseId: kase.id, reason: 'check the wallets' });
    assert.equal(review.caseId, kase.id);
    const queued = await reviewer.reviews.queue({ caseId: kase.id }).toArray();
    assert.deepEqual(queued.map((r) => r.id), [review.id]);
    const claim = await reviewer.reviews.claim(review.id);
    assert.equal(claim.renewed, false);
    assert.match(claim.claimTaskId, /./);
    const note = await reviewer.reviews.annotate(review.id, { note: 'wallet confirmed' });
    assert.equal(note.reviewId, review.id);
    const decided = await reviewer.reviews.decide(review.id, { decision: 'close_no_action', rationale: 'nothing to do' });
    assert.equal(decided.leaReferralCreated, false);
    const log = await reviewer.reviews.actions(review.id).toArray();
    assert.deepEqual(log.map((a) => a.action), ['enqueue', 'claim', 'annotate', 'decision']);
  });

  it('scheduled reports: create (scope untranslated), list, deactivate; report templates', async () => {
    const admin = as(users.admin);
    const templates = await admin.reports.templates();
    assert.ok(JSON.stringify(templates).includes('wallet-activity'));
    const schedule = await admin.scheduledReports.create({
      template: 'wallet-activity', cadence: 'monthly', scope: { entity_types: ['wallet'], since_days: 30 }, options: { format: 'json' }, recipients: ['desk@example.org'],
    });
    assert.deepEqual(schedule.scope, { entity_types: ['wallet'], since_days: 30 });
    assert.equal(schedule.isActive, true);
    const listed = await admin.scheduledReports.list({ isActive: 'true', limit: 500 }).toArray();
    assert.ok(listed.some((s) => s.id === schedule.id));
    const off = await admin.scheduledReports.deactivate(schedule.id);
    assert.equal(off.isActive, false);
  });

  it('playbooks: create, get, replace, list, test a URL and delete', async () => {
    const client = as(users.analyst);
    const name = `sdk playbook ${randomUUID()}`;
    const host = `${randomUUID().slice(0, 8)}.sdk.test`;
    const created = await client.playbooks.create({ name, urlPatterns: [`${host}/**`], steps: [{ type: 'wait_for_text', text: 'Deposit', timeoutS: 5 }], enabled: true });
    assert.deepEqual(created.urlPatterns, [`${host}/**`]);
    assert.deepEqual(created.steps, [{ type: 'wait_for_text', text: 'Deposit', timeoutS: 5 }]);
    assert.equal((await client.playbooks.get(created.id)).name, name);
    const match = await client.playbooks.testMatch(`https://${host}/pay`);
    assert.equal(match.selectedPlaybookId, created.id, JSON.stringify(match));
    const replaced = await client.playbooks.replace(created.id, { name, urlPatterns: [`${host}/**`], steps: [], enabled: false });
    assert.equal(replaced.enabled, false);
    const all = await client.playbooks.list({ limit: 500 }).toArray();
    assert.ok(all.some((p) => p.id === created.id));
    await client.playbooks.delete(created.id);
    const gone = await client.playbooks.get(created.id).catch((e: unknown) => e);
    assert.ok(gone instanceof FipApiError);
    assert.equal(gone.status, 404);
  });

  it('investigations: start (queued), get, active list, wallets and the streamed CSV export; tasks.get on its task', async () => {
    const client = createFipClient({ kind: 'core', baseUrl: idleBaseUrl, proxyIdentity: { value: `accounts.google.com:${users.analyst}` } });
    const target = `https://${randomUUID().slice(0, 8)}.scam.test/`;
    const accepted = await client.investigations.start({ url: target, label: 'sdk' }, { idempotencyKey: randomUUID() });
    assert.equal(accepted.status, 'queued');
    const detail = await client.investigations.get(accepted.scanId);
    assert.equal(detail.url, target);
    assert.equal(detail.taskId, accepted.taskId);
    assert.deepEqual(await client.investigations.wallets(accepted.scanId), []);
    const active = await client.investigations.active({ domain: new URL(target).hostname }).toArray();
    assert.deepEqual(active.map((i) => i.scanId), [accepted.scanId]);
    const history = await client.investigations.history({ domain: new URL(target).hostname }).toArray();
    assert.deepEqual(history, []);
    const csv = await client.investigations.exportWallets(accepted.scanId, 'csv');
    assert.equal(csv.filename, `wallets-${accepted.scanId}.csv`);
    assert.match(await readText(csv.stream), /address/i);
    const task = await client.tasks.get(accepted.taskId);
    assert.equal(task.taskId, accepted.taskId);
  });

  it('the generic request() reaches a route by its OpenAPI path, path parameters by the template\'s own names', async () => {
    const client = as(users.analyst);
    const kase = await client.cases.create({ title: `sdk generic ${randomUUID()}` });
    const got = await client.request('get', '/cases/{case_id}', { path: { case_id: kase.id } });
    assert.equal(got.id, kase.id);
    const page = await client.paginate('/cases', { query: { q: kase.title } }).first();
    assert.deepEqual(page.items.map((c) => c.id), [kase.id]);
  });

  it('request() and paginate() reach the route groups without hand-written wrappers: search, intelligence, campaigns, dossiers, dashboards and the partner feed', async () => {
    const client = as(users.analyst);
    const found = (await client.request('post', '/reviews/search/query', { body: { query: 'romance OR sextortion', types: ['case'], limit: 5 } })) as unknown as Record<string, unknown>;
    assert.ok(Array.isArray(found.items));
    assert.ok('totalEstimate' in found && 'nextCursor' in found, `camelCase keys: ${Object.keys(found)}`);
    const entities = await client.paginate('/intelligence/entities', { query: { limit: 2, orderBy: 'last_seen' } }).first();
    assert.ok(Array.isArray(entities.items));
    const name = `sdk campaign ${randomUUID()}`;
    const campaign = (await client.request('post', '/campaigns', { body: { name, taxonomy: 'romance' } })) as unknown as { id: string; name: string };
    assert.equal(campaign.name, name);
    const detail = (await client.request('get', '/intelligence/campaigns/{id}', { path: { id: campaign.id } })) as unknown as Record<string, unknown>;
    assert.ok(JSON.stringify(detail).includes(campaign.id), `the detail names the campaign: ${JSON.stringify(detail).slice(0, 300)}`);
    assert.ok(!JSON.stringify(detail).includes('"member_'), 'no snake_case keys');
    const dossiers = await client.paginate('/reports/dossiers', { query: { limit: 1 } }).first();
    assert.ok(Array.isArray(dossiers.items));
    const overview = (await client.request('get', '/analytics/overview')) as unknown as Record<string, unknown>;
    assert.ok('asOf' in overview, `overview keys: ${Object.keys(overview)}`);
    const feed = (await client.request('get', '/feeds/indicators', { query: { limit: 1 } })) as unknown as Record<string, unknown>;
    assert.ok('completeUntil' in feed && 'nextCursor' in feed, `feed keys: ${Object.keys(feed)}`);
    const bad = await client.request('post', '/reviews/search/query', { body: { query: 'loss>' } }).then(() => null, (err: unknown) => err);
    assert.ok(bad instanceof FipApiError, String(bad));
    assert.equal(bad.status, 400);
  });

  describe('retries through a loopback proxy that answers 503 once', () => {
    let proxy: Server;
    let proxyUrl: string;
    const hits: string[] = [];
    let failNext = 0;

    before(async () => {
      proxy = createServer((req, res) => {
        hits.push(`${req.method} ${req.url}`);
        if (failNext > 0) {
          failNext--;
          res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '0' });
          res.end(JSON.stringify({ error: { code: 'unavailable', message: 'proxy says try again' } }));
          return;
        }
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
          fetch(`${baseUrl}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined })
            .then(async (upstream) => {
              res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'application/octet-stream' });
              res.end(Buffer.from(await upstream.arrayBuffer()));
            })
            .catch(() => {
              res.writeHead(502);
              res.end();
            });
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    beforeEach(() => {
      hits.length = 0;
    });

    const viaProxy = () => createFipClient({ kind: 'core', baseUrl: proxyUrl, proxyIdentity: { value: `accounts.google.com:${users.analyst}` }, retry: { baseDelayMs: 10 } });

    it('a GET answered 503 is retried and answers the real API result', async () => {
      failNext = 1;
      const me = await viaProxy().accounts.me();
      assert.equal(me.email, users.analyst);
      assert.deepEqual(hits, ['GET /accounts/me', 'GET /accounts/me']);
    });

    it('a POST without an Idempotency-Key answered 503 is not retried: FipApiError 503', async () => {
      failNext = 1;
      const err = await viaProxy().cases.create({ title: 'never sent' }).catch((e: unknown) => e);
      assert.ok(err instanceof FipApiError);
      assert.equal(err.status, 503);
      assert.equal(err.code, 'unavailable');
      assert.deepEqual(hits, ['POST /cases']);
    });

    it('a POST with an Idempotency-Key answered 503 is retried with the same body and runs once', async () => {
      failNext = 1;
      const accepted = await viaProxy().reports.generate(
        { template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: [] },
        { idempotencyKey: randomUUID() },
      );
      assert.deepEqual(hits, ['POST /reports/generate', 'POST /reports/generate']);
      assert.match(accepted.taskId, /./);
    });
  });
});
