// The SDK's default variant against a small loopback server that speaks the SDK's own camelCase
// schema: payloads pass unchanged (no key translation either way), pagination over nextCursor,
// retries of idempotent calls on 429/503 (Retry-After honoured), none for a POST without an
// Idempotency-Key, errors as FipApiError, the API key header, and the SVC_API_KIND switch.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFipClient, FipApiError, FipTaskFailedError, FipTimeoutError, kindFromEnvironment } from '../../sdk/src';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('SDK default variant against a camelCase loopback server', function () {
  this.timeout(30_000);
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  /** Per path: statuses to answer first (then the normal answer). */
  const failFirst = new Map<string, Array<{ status: number; retryAfter?: string }>>();
  /** Per task id: the states /tasks/{id} answers in turn (the last one repeats). */
  const taskScripts = new Map<string, Array<Record<string, unknown>>>();
  const wallets = Array.from({ length: 5 }, (_, i) => ({ address: `TADDR_${i}`, scanCount: i, someKey_with_underscore: `v_${i}` }));

  function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const url = new URL(req.url ?? '/', 'http://x');
        const queued = failFirst.get(url.pathname);
        const fail = queued?.shift();
        if (fail) return answer(res, fail.status, { error: { code: 'busy', message: 'try again' } }, fail.retryAfter ? { 'Retry-After': fail.retryAfter } : {});
        if (url.pathname === '/investigations/ssi/wallets') {
          const start = Number(url.searchParams.get('cursor') ?? '0');
          const limit = Number(url.searchParams.get('limit') ?? '2');
          const next = start + limit < wallets.length ? String(start + limit) : null;
          return answer(res, 200, { items: wallets.slice(start, start + limit), nextCursor: next });
        }
        if (url.pathname === '/cases' && req.method === 'POST') {
          const input = JSON.parse(body) as Record<string, unknown>;
          return answer(res, 201, { id: 'c1', ...input, createdAt: '2026-01-01T00:00:00Z' });
        }
        if (url.pathname === '/cases/missing') {
          return answer(res, 404, { error: { code: 'not_found', message: 'no case missing', details: { caseId: 'missing', some_field: 1 } } });
        }
        const task = /^\/tasks\/([^/]+)$/.exec(url.pathname);
        if (task) {
          const script = taskScripts.get(decodeURIComponent(task[1])) ?? [];
          const state = script.length > 1 ? script.shift() : script[0];
          return state ? answer(res, 200, { taskId: task[1], ...state }) : answer(res, 404, { error: { code: 'not_found', message: 'no task' } });
        }
        if (url.pathname === '/accounts/me') return answer(res, 200, { email: 'ext@example.org', roles: ['analyst'] });
        answer(res, 404, { error: { code: 'not_found', message: 'no route' } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
    failFirst.clear();
  });

  const client = () => createFipClient({ kind: 'default', baseUrl, apiKey: 'ext-key-1', retry: { baseDelayMs: 10 } });

  it('sends the body and answers the response unchanged (no key translation), with X-API-KEY', async () => {
    const input = { title: 'T', campaignId: 'camp_1', scope: { entityTypes: ['wallet'] } };
    const created = (await client().cases.create(input as never)) as unknown as Record<string, unknown>;
    assert.deepEqual(JSON.parse(seen[0].body), input);
    assert.equal(seen[0].headers['x-api-key'], 'ext-key-1');
    assert.deepEqual(created, { id: 'c1', ...input, createdAt: '2026-01-01T00:00:00Z' });
  });

  it('iterates every page over nextCursor, passing query names unchanged', async () => {
    const rows = [];
    for await (const w of client().wallets.search({ address: 'TADDR', limit: 2 })) rows.push(w);
    assert.deepEqual(rows, wallets);
    assert.deepEqual(seen.map((s) => new URL(s.url, 'http://x').searchParams.get('cursor')), [null, '2', '4']);
  });

  it('retries a GET answered 503 and then 429 (Retry-After: 0) and answers the success', async () => {
    failFirst.set('/accounts/me', [{ status: 503 }, { status: 429, retryAfter: '0' }]);
    const me = await client().accounts.me();
    assert.equal(me.email, 'ext@example.org');
    assert.equal(seen.length, 3);
  });

  it('honours Retry-After (seconds) before retrying', async () => {
    failFirst.set('/accounts/me', [{ status: 503, retryAfter: '1' }]);
    const started = Date.now();
    await client().accounts.me();
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
    assert.equal(seen.length, 2);
  });

  it('does not retry a POST without an Idempotency-Key; retries one with it', async () => {
    failFirst.set('/cases', [{ status: 503 }]);
    const err = await client().cases.create({ title: 'x' } as never).catch((e: unknown) => e);
    assert.ok(err instanceof FipApiError);
    assert.equal(err.status, 503);
    assert.equal(seen.length, 1);

    seen.length = 0;
    failFirst.set('/reports/generate', [{ status: 503 }]);
    const e2 = await client().reports.generate({ template: 'wallet-activity' } as never, { idempotencyKey: 'k-1' }).catch((e: unknown) => e);
    assert.equal(seen.length, 2, 'retried once, then the normal answer (404 on this server)');
    assert.equal(seen[1].headers['idempotency-key'], 'k-1');
    assert.equal(seen[1].body, seen[0].body, 'the retry sends the same body');
    assert.ok(e2 instanceof FipApiError);
    assert.equal(e2.status, 404);
  });

  it('gives up after the configured retries and throws the last answer', async () => {
    failFirst.set('/accounts/me', [{ status: 503 }, { status: 503 }, { status: 503 }]);
    const err = await createFipClient({ kind: 'default', baseUrl, retry: { retries: 2, baseDelayMs: 5 } }).accounts.me().catch((e: unknown) => e);
    assert.ok(err instanceof FipApiError);
    assert.equal(err.status, 503);
    assert.equal(seen.length, 3);
  });

  it('maps the error body to FipApiError with details unchanged', async () => {
    const err = await client().request('get', '/cases/{case_id}', { path: { case_id: 'missing' } }).catch((e: unknown) => e);
    assert.ok(err instanceof FipApiError);
    assert.equal(err.status, 404);
    assert.equal(err.code, 'not_found');
    assert.deepEqual(err.details, { caseId: 'missing', some_field: 1 });
  });

  it('selects the platform variant from SVC_API_KIND=core, else the default variant', () => {
    const before = process.env.SVC_API_KIND;
    try {
      process.env.SVC_API_KIND = 'core';
      assert.equal(kindFromEnvironment(), 'core');
      assert.equal(createFipClient({ baseUrl }).kind, 'core');
      delete process.env.SVC_API_KIND;
      assert.equal(createFipClient({ baseUrl }).kind, 'default');
      assert.equal(createFipClient({ baseUrl, kind: 'core' }).kind, 'core');
    } finally {
      if (before === undefined) delete process.env.SVC_API_KIND;
      else process.env.SVC_API_KIND = before;
    }
  });

  describe('tasks.wait', () => {
    const progress = (percent: number) => ({ stage: 'work', percent, detail: {}, notes: [], updatedAt: '2026-01-01T00:00:00Z' });

    it('polls until completed, calling onProgress once per change of status or progress', async () => {
      taskScripts.set('t-ok', [
        { status: 'queued', progress: null },
        { status: 'running', progress: progress(10) },
        { status: 'running', progress: progress(10) },
        { status: 'running', progress: progress(60) },
        { status: 'completed', progress: progress(100), result: { reportId: 'r1' } },
      ]);
      const changes: string[] = [];
      const task = await client().tasks.wait('t-ok', { intervalMs: 5, onProgress: (t) => changes.push(`${t.status}:${t.progress?.percent ?? '-'}`) });
      assert.equal(task.status, 'completed');
      assert.deepEqual(task.result, { reportId: 'r1' });
      assert.deepEqual(changes, ['queued:-', 'running:10', 'running:60', 'completed:100']);
      assert.equal(seen.filter((s) => s.url === '/tasks/t-ok').length, 5, 'five polls, one of them unchanged');
    });

    it('throws FipTaskFailedError with the task\'s error message when it fails or is cancelled', async () => {
      taskScripts.set('t-fail', [{ status: 'running', progress: null }, { status: 'failed', progress: null, error: { message: 'the template no longer validates', type: 'BadScope' } }]);
      const err = await client().tasks.wait('t-fail', { intervalMs: 5 }).catch((e: unknown) => e);
      assert.ok(err instanceof FipTaskFailedError, String(err));
      assert.equal(err.status, 'failed');
      assert.equal(err.message, 'the template no longer validates');
      taskScripts.set('t-cancel', [{ status: 'cancelled', progress: null, error: null }]);
      const cancelled = await client().tasks.wait('t-cancel', { intervalMs: 5 }).catch((e: unknown) => e);
      assert.ok(cancelled instanceof FipTaskFailedError);
      assert.equal(cancelled.status, 'cancelled');
    });

    it('throws FipTimeoutError after timeoutMs while the task still runs', async () => {
      taskScripts.set('t-slow', [{ status: 'running', progress: null }]);
      const started = Date.now();
      const err = await client().tasks.wait('t-slow', { intervalMs: 20, timeoutMs: 150 }).catch((e: unknown) => e);
      assert.ok(err instanceof FipTimeoutError, String(err));
      assert.ok(Date.now() - started >= 140 && Date.now() - started < 5000, `${Date.now() - started} ms`);
    });

    it('stops when the signal aborts', async () => {
      taskScripts.set('t-abort', [{ status: 'running', progress: null }]);
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('stop waiting')), 50);
      await assert.rejects(client().tasks.wait('t-abort', { intervalMs: 10, signal: controller.signal }), /stop waiting/);
    });
  });
});
