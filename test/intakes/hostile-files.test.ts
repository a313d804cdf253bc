// A hostile file cannot lose the intake or take the platform down, end to end with the real API,
// worker, PostgreSQL and Temporal in this one process (as `npm start` runs them): a PDF of a few
// hundred KB holding 150 MiB of text (short lines, or one giant string that aborts V8 when parsed
// in-process) is marked with its reason, the intake ends processed with the entities of its other
// file and its details, the worker keeps running the next job, and the API answers meanwhile.
// The parser bounds are set small here (SVC_PARSER__*), so the bombs are stopped within seconds.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../infra/logger';
import { startApiServer, startWorker } from '../../app/platform-runtime';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { intakeForm, pdfTextBomb } from '../support/intake-fixtures';
import { testDeps } from '../support/platform';
import { waitFor } from '../support/wait-for';

interface IntakeFile {
  filename: string;
  status: string;
  status_reason: string | null;
}

describe('hostile intake files', function () {
  this.timeout(180_000);
  const queue = `hostile-${randomUUID().slice(0, 8)}`;
  const logLines: string[] = [];
  const closers: Array<() => Promise<void>> = [];
  let url: string;
  let analyst: Record<string, string>;
  let service: Record<string, string>;
  const wallet = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
  const iban = 'GB82WEST12345698765432';

  before(async () => {
    const env = {
      SVC_TEMPORAL__TASK_QUEUE: queue,
      SVC_AUTH__TRUST_PROXY_HEADER: 'true',
      SVC_PARSER__MAX_MEMORY_MB: '256',
      SVC_PARSER__MAX_TEXT_MB: '1',
      SVC_PARSER__TIMEOUT_SECONDS: '30',
      SVC_PARSER__MAX_CONCURRENT: '2',
    };
    analyst = asUser((await usersForEveryRole()).analyst);
    service = { 'X-API-KEY': await createTestApiKey(['intake:write']) };
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        logLines.push(chunk.toString('utf8'));
        cb();
      },
    });
    const deps = { ...(await testDeps(env)), log: createLogger('info', 'hostile-test', sink as unknown as DestinationStream) };
    const worker = await startWorker(deps.config, process.env.TEMPORAL_ADDRESS!, deps, queue);
    closers.push(worker.shutdown);
    const api = await startApiServer(deps, 0, '127.0.0.1');
    closers.push(api.close);
    url = api.url;
  });
  after(async () => {
    for (const c of closers.reverse()) await c();
  });

  /** An intake: the hostile PDF, an ordinary statement beside it, and details naming a wallet and an e-mail. */
  const submitWithBomb = async (bomb: Buffer, tag: string, name = `${tag}.pdf`) => {
    const form = intakeForm(
      { summary: `Fake broker (${tag})`, details: `Sent USDT to ${wallet}; the broker wrote from support@${tag}.fx-gains.example.com` },
      [
        { name, type: 'application/pdf', bytes: bomb },
        { name: 'statement.txt', type: 'text/plain', bytes: `Wire the fee to IBAN GB82 WEST 1234 5698 7654 32 (${tag})` },
      ],
    );
    const res = await http(`${url}/intakes`, { method: 'POST', headers: service, body: form });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const finished = (id: string, timeoutMs = 120_000) =>
    waitFor(`intake ${id} processed`, async () => {
      const r = await http(`${url}/intakes/${id}`, { headers: analyst });
      return ['processed', 'failed'].includes(r.body.status) ? r.body : null;
    }, timeoutMs, 250);

  const assertBenignEntities = (intake: { entities: Array<{ type: string; value: string }> }, tag: string) => {
    const values = new Set(intake.entities.map((e) => `${e.type}:${e.value}`));
    for (const v of [`wallet:${wallet}`, `email:support@${tag}.fx-gains.example.com`, `bank_account:${iban}`]) assert.ok(values.has(v), `${v} in ${[...values].join(', ')}`);
  };

  for (const shape of ['lines', 'one-string'] as const) {
    it(`a 150 MiB text PDF (${shape === 'lines' ? 'short lines' : 'one giant string'}) is marked skipped_too_large; the intake is processed with the other file's and the details' entities`, async () => {
      const bomb = pdfTextBomb(150, shape);
      assert.ok(bomb.length < 1024 * 1024, `the bomb is ${bomb.length} bytes`);
      const tag = `bomb-${shape}-${randomUUID().slice(0, 6)}`;
      const id = await submitWithBomb(bomb, tag);
      const intake = await finished(id);
      assert.equal(intake.status, 'processed', `${intake.status_reason} ${JSON.stringify(intake.jobs)}`);
      const files = new Map((intake.files as IntakeFile[]).map((f) => [f.filename, f]));
      assert.equal(files.get(`${tag}.pdf`)?.status, 'skipped_too_large', JSON.stringify(intake.files));
      assert.match(files.get(`${tag}.pdf`)?.status_reason ?? '', /over the parser memory bound \(256 MiB, SVC_PARSER__MAX_MEMORY_MB\)/);
      assert.equal(files.get('statement.txt')?.status, 'read');
      assert.deepEqual(intake.jobs.map((j: { status: string }) => j.status), ['succeeded', 'succeeded']);
      const textJob = intake.jobs.find((j: { step: string }) => j.step === 'extract_text');
      assert.equal(textJob.attempts, 1, 'read once, not retried');
      assertBenignEntities(intake, tag);
      // The worker log tells the operator what stopped the parser, with the workflow id.
      const line = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'intake file not read' && l.intake_id === id);
      assert.ok(line, 'a log line for the bomb');
      assert.equal(line.workflow_id, `intake-${id}`);
      assert.equal(line.parser.reason, 'memory');
      assert.match(line.parser.message, /memory bound \(256 MiB\)/);
    });
  }

  it('text over SVC_PARSER__MAX_TEXT_MB is truncated: its first part is read and its entities found', async () => {
    const lines = Buffer.from(`write to ledger@scam-bank.example\n${'scam ledger line 0123456789 abcdefghij\n'.repeat(80_000)}`);
    const tag = `long-${randomUUID().slice(0, 6)}`;
    const id = await submitWithBomb(lines, tag, `${tag}.txt`);
    const intake = await finished(id);
    assert.equal(intake.status, 'processed', intake.status_reason);
    const file = (intake.files as Array<IntakeFile & { content_type: string }>).find((f) => f.filename === `${tag}.txt`)!;
    assert.equal(file.content_type, 'text/plain');
    assert.equal(file.status, 'truncated');
    assert.match(file.status_reason ?? '', /1 MiB of characters, SVC_PARSER__MAX_TEXT_MB/);
    assert.ok(intake.entities.some((e: { type: string; value: string }) => e.type === 'email' && e.value === 'ledger@scam-bank.example'));
    assertBenignEntities(intake, tag);
  });

  it('while two bombs are processed the API answers within a second, and the worker then runs the next intake', async () => {
    const bombs = [pdfTextBomb(150, 'one-string'), pdfTextBomb(150, 'lines')];
    const tags = bombs.map((_, i) => `pair-${i}-${randomUUID().slice(0, 6)}`);
    const ids = await Promise.all(bombs.map((b, i) => submitWithBomb(b, tags[i])));
    let worst = 0;
    let probes = 0;
    const done = new Set<string>();
    const deadline = Date.now() + 120_000;
    while (done.size < ids.length && Date.now() < deadline) {
      const started = Date.now();
      const health = await http(`${url}/healthz`);
      assert.equal(health.status, 200);
      worst = Math.max(worst, Date.now() - started);
      probes++;
      for (const id of ids) {
        if (done.has(id)) continue;
        const r = await http(`${url}/intakes/${id}`, { headers: analyst });
        if (['processed', 'failed'].includes(r.body.status)) done.add(id);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(done.size, 2, 'both bomb intakes finished');
    assert.ok(probes >= 5, `${probes} health probes while the bombs were read`);
    assert.ok(worst < 1000, `GET /healthz took ${worst} ms at worst`);
    for (const [i, id] of ids.entries()) {
      const intake = await finished(id);
      assert.equal(intake.status, 'processed');
      assertBenignEntities(intake, tags[i]);
    }
    // The same worker (this process) takes the next job.
    const tag = `after-${randomUUID().slice(0, 6)}`;
    const next = await finished(await submitWithBomb(Buffer.from(`nothing hostile here (${tag})`), tag), 30_000);
    assert.equal(next.status, 'processed');
    assert.deepEqual((next.files as IntakeFile[]).map((f) => f.status), ['read', 'read']);
  });
});
