// A file that kills the worker process each time it is read is not a poison pill: the worker that
// restarts takes the retried step, finds the file left `parsing` by reads that never ended, skips
// it with the reason after two, and the intake is processed with everything else. The worker is a
// real process killed for real (SIGKILL, as a V8 abort would), restarted by the test as a
// supervisor would; the workflows run here, the activities in that process.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createIntakeActivities } from '../../activities/intakes/intake-activities';
import { insertIntake } from '../../db/repositories/intakes/intake-repository';
import { installTemporalRuntime, startApiServer, workflowBundle } from '../../app/platform-runtime';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { intakeForm } from '../support/intake-fixtures';
import { closeAfterTestRun, testDeps, testKnex } from '../support/platform';
import { waitFor } from '../support/wait-for';

const ROOT = path.resolve(__dirname, '..', '..');

describe('a file that kills the worker', function () {
  this.timeout(240_000);
  const queue = `poison-${randomUUID().slice(0, 8)}`;
  let url: string;
  let analyst: Record<string, string>;
  const children: ChildProcess[] = [];

  before(async () => {
    const deps = await testDeps({ SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true' });
    analyst = asUser((await usersForEveryRole()).analyst);
    installTemporalRuntime(deps.log);
    // Workflows only: every activity task goes to the worker process below.
    const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    const workflows = await Worker.create({ connection, namespace: deps.config.temporal_namespace, taskQueue: queue, workflowBundle: await workflowBundle(), shutdownGraceTime: '1s' });
    const running = workflows.run().finally(() => connection.close());
    closeAfterTestRun(async () => {
      if (workflows.getState() === 'RUNNING') workflows.shutdown();
      await running;
    });
    const api = await startApiServer(deps, 0, '127.0.0.1');
    closeAfterTestRun(api.close);
    url = api.url;
  });
  after(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  /** Starts the activities worker; resolves with its output so far once it is ready. */
  async function startWorkerProcess(): Promise<{ child: ChildProcess; output: () => string; exited: Promise<NodeJS.Signals | null> }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/poison-worker-process.ts'], {
      cwd: ROOT,
      env: { ...process.env, SVC_TEMPORAL__TASK_QUEUE: queue, SVC_LOG__LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await waitFor('worker process ready', async () => out.includes('WORKER_READY') || child.exitCode !== null, 60_000);
    assert.equal(child.exitCode, null, out);
    return { child, output: () => out, exited };
  }

  it('is skipped with the reason after two deaths; the restarted worker processes the rest of the intake', async () => {
    const service = { 'X-API-KEY': await createTestApiKey(['intake:write']) };
    const wallet = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
    const form = intakeForm({ summary: 'Broker scam', details: `Sent USDT to ${wallet}, mail from desk@fx-poison.example.com` }, [
      { name: 'poison.pdf', type: 'application/pdf', bytes: 'any bytes: the worker dies on the name' },
      { name: 'statement.txt', type: 'text/plain', bytes: 'Wire the fee to IBAN GB82 WEST 1234 5698 7654 32' },
    ]);
    const res = await http(`${url}/intakes`, { method: 'POST', headers: service, body: form });
    assert.equal(res.status, 201, res.text);
    const id = res.body.id as string;

    // Two deaths: the first attempt, then the retry once the dead worker's heartbeats stopped.
    for (const death of [1, 2]) {
      const worker = await startWorkerProcess();
      assert.equal(await worker.exited, 'SIGKILL', worker.output());
      assert.match(worker.output(), /DYING_ON poison\.pdf/);
      const intake = (await http(`${url}/intakes/${id}`, { headers: analyst })).body;
      assert.equal(intake.status, 'processing', `after death ${death}`);
      assert.equal(intake.files[0].status, 'parsing', `after death ${death}`);
    }

    const survivor = await startWorkerProcess();
    const intake = await waitFor('intake processed', async () => {
      const r = await http(`${url}/intakes/${id}`, { headers: analyst });
      return ['processed', 'failed'].includes(r.body.status) ? r.body : null;
    }, 120_000, 250);
    assert.equal(survivor.child.exitCode, null, 'the third worker is alive');
    assert.equal(intake.status, 'processed', intake.status_reason);
    assert.deepEqual(
      intake.files.map((f: { filename: string; status: string; status_reason: string | null }) => [f.filename, f.status, f.status_reason]),
      [['poison.pdf', 'skipped_too_large', 'the worker stopped 2 times while reading this file; it is not read again'], ['statement.txt', 'read', null]],
    );
    const textJob = intake.jobs.find((j: { step: string }) => j.step === 'extract_text');
    assert.equal(textJob.attempts, 3);
    const values = new Set(intake.entities.map((e: { type: string; value: string }) => `${e.type}:${e.value}`));
    for (const v of [`wallet:${wallet}`, 'email:desk@fx-poison.example.com', 'bank_account:GB82WEST12345698765432']) assert.ok(values.has(v), `${v} in ${[...values].join(', ')}`);
  });

  it('a step whose attempts keep ending without an outcome stops with IntakeStepAbandoned and its reason, not a retry', async () => {
    const deps = await testDeps();
    const id = randomUUID();
    const jobs = [{ id: randomUUID(), step: 'extract_text' as const, position: 0 }, { id: randomUUID(), step: 'extract_entities' as const, position: 1 }];
    await testKnex().transaction((trx) =>
      insertIntake(trx, { id, source: 'test', summary: 'lost attempts', details: '', loss_amount: null, loss_currency: null, occurred_at: null, urls: [], submitted_by: 'test', task_id: `intake-${id}`, files: [], jobs }),
    );
    // Two attempts already vanished (counted), and the last one left the step running without an error.
    await testKnex()('intake_jobs').where({ id: jobs[1].id }).update({ status: 'running', error: null, lost_attempts: 2 });
    const activities = createIntakeActivities(deps);
    const env = new MockActivityEnvironment({ attempt: 4, workflowExecution: { workflowId: `intake-${id}`, runId: randomUUID() } });
    await assert.rejects(env.run(activities.runIntakeStep, { intakeId: id as string, step: 'extract_entities' as const }), (err: unknown) => {
      assert.ok(err instanceof ApplicationFailure);
      assert.equal(err.type, 'IntakeStepAbandoned');
      assert.equal(err.nonRetryable, true);
      assert.equal(err.message, 'extract_entities stopped: the worker process stopped 3 times while running it');
      return true;
    });
    assert.equal((await testKnex()('intake_jobs').where({ id: jobs[1].id }).first()).lost_attempts, 3);
    // An attempt that failed and said so is not a lost one: a retry after it runs the step.
    await testKnex()('intake_jobs').where({ id: jobs[0].id }).update({ status: 'running', error: 'attempt 1 failed: internal error', lost_attempts: 2 });
    const retry = new MockActivityEnvironment({ attempt: 2, workflowExecution: { workflowId: `intake-${id}`, runId: randomUUID() } });
    assert.deepEqual(await retry.run(activities.runIntakeStep, { intakeId: id as string, step: 'extract_text' as const }), { status: 'succeeded' });
  });
});
