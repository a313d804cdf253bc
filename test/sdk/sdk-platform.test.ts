// The SDK's platform variant (kind 'core') against the real running API and a real worker: every
// hand-wrapped route group at least once, camelCase in and out, errors as FipApiError, a retry on
// 503 through a loopback proxy, task polling to completion and streamed downloads.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createFipClient, FipApiError, type FipClient } from '../../sdk/src';
import { upsertWallets } from '../../db/repositories/wallet-repository';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';

async function readText(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('SDK platform variant against the real API', function () {
  this.timeout(120_000);
  const queue = `sdk-${randomUUID().slice(0, 8)}`;
  let baseUrl: string;
  let users: Awaited<ReturnType<typeof usersForEveryRole>>;
  const as = (email: string, extra: Partial<Parameters<typeof createFipClient>[0]> = {}): FipClient =>
    createFipClient({ kind: 'core', baseUrl, proxyIdentity: { value: `accounts.google.com:${email}` }, ...extra });

  before(async () => {
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true' };
    users = await usersForEveryRole();
    await startTestWorker(queue, env);
    baseUrl = (await startTestApi(env)).url;
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
    const err = await client.cases.create({ title: 'x', campaignId: 'not-a-uuid' } as never).then(
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

  it('reports: generate (opaque scope passed as-is), tasks.wait to completion with progress, list and stream the download', async () => {
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
    const text = await readText(download.stream);
    assert.ok(text.length > 0);
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
});
