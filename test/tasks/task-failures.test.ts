// A task whose activity keeps failing shows its latest failed attempt while Temporal retries it;
// callers read the message only for deliberate, public failure types: anything else is named by
// its step and the request id under which the API logged the details.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { http } from '../support/http';
import { createTestApiKey } from '../support/identities';
import { testDeps, testTemporal } from '../support/platform';
import { startActivityStubWorker, type StubWorker } from '../support/activity-stub-worker';
import { waitFor } from '../support/wait-for';
import { startApiServer, type RunningApi } from '../../app/platform-runtime';

const SECRET = 'relation "generated_reports" does not exist: INSERT INTO generated_reports ... /var/lib/fip/blobs/4f/4f2a.pdf';
const PUBLIC = 'Chromium is not installed on the worker: install Debian\'s chromium';

describe('task failures shown to callers', function () {
  this.timeout(90_000);
  const queue = `failing-${randomUUID().slice(0, 8)}`;
  const logLines: string[] = [];
  let api: RunningApi;
  let worker: StubWorker;
  let key: Record<string, string>;

  before(async () => {
    // generateOneOffReport fails in the way the report's title names.
    worker = await startActivityStubWorker(queue, {
      generateOneOffReport: async (input: { options: { title?: string } }) => {
        switch (input.options.title) {
          case 'internal-retrying': throw new Error(SECRET);
          case 'public-retrying': throw ApplicationFailure.retryable(PUBLIC, 'ChromiumUnavailable');
          case 'internal-fatal': throw ApplicationFailure.nonRetryable(SECRET, 'DatabaseError');
          case 'silent': return Context.current().sleep(30_000); // no heartbeat: times out after 10 s
          default: throw ApplicationFailure.nonRetryable('the report request is not valid: unknown template', 'InvalidReportRequest');
        }
      },
    });
    const deps = await testDeps({ SVC_TEMPORAL__TASK_QUEUE: queue });
    const sink = new Writable({ write: (chunk, _enc, done) => { logLines.push(String(chunk)); done(); } });
    api = await startApiServer({ ...deps, log: pino({ level: 'warn' }, sink) }, 0, '127.0.0.1');
    key = { 'X-API-KEY': await createTestApiKey(['reports:read']) };
  });
  after(async () => {
    await api.close();
    await worker.shutdown();
  });

  const startReport = async (title: string) => {
    const taskId = `report-${randomUUID()}`;
    await (await testTemporal()).workflow.start('generateReportWorkflow', {
      workflowId: taskId,
      taskQueue: queue,
      args: [{ template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'json', title }, recipients: [], requestedAt: new Date().toISOString(), requestedBy: 't' }],
    });
    return taskId;
  };
  const get = (taskId: string) => http(`${api.url}/tasks/${taskId}`, { headers: key });

  it('shows attempt and a generic message naming the step while an internal failure retries, and logs the details under the request id', async () => {
    const taskId = await startReport('internal-retrying');
    const res = await waitFor('a second failed attempt', async () => {
      const r = await get(taskId);
      return (r.body.last_failure?.attempt ?? 0) >= 2 ? r : null;
    }, 30_000, 250);
    const requestId = res.headers.get('x-request-id')!;
    assert.equal(res.body.status, 'running');
    assert.equal(res.body.last_failure.activity, 'generateOneOffReport');
    assert.equal(res.body.last_failure.message, `generateOneOffReport failed: internal error; quote request id ${requestId}`);
    assert.ok(!Number.isNaN(Date.parse(res.body.last_failure.at)));
    assert.ok(!res.text.includes('generated_reports') && !res.text.includes('/var/lib'), res.text);
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.request_id === requestId && l.task_id === taskId);
    assert.ok(logged, 'the API logged the failure under the request id');
    assert.match(JSON.stringify(logged), /relation \\"generated_reports\\" does not exist/);
    await (await testTemporal()).workflow.getHandle(taskId).terminate('test over');
  });

  it('shows the message of a public failure type verbatim while it retries', async () => {
    const taskId = await startReport('public-retrying');
    const res = await waitFor('a failed attempt', async () => {
      const r = await get(taskId);
      return r.body.last_failure ? r : null;
    }, 30_000, 250);
    assert.equal(res.body.last_failure.message, PUBLIC);
    assert.ok(res.body.last_failure.attempt >= 1);
    await (await testTemporal()).workflow.getHandle(taskId).terminate('test over');
  });

  it("hides an internal failure in a failed task's error, and shows a public failure type's message and type", async () => {
    const internal = await startReport('internal-fatal');
    const failed = await waitFor('internal failure', async () => {
      const r = await get(internal);
      return r.body.status === 'failed' ? r : null;
    });
    assert.deepEqual(failed.body.error, { message: `generateOneOffReport failed: internal error; quote request id ${failed.headers.get('x-request-id')}` });
    assert.equal(failed.body.last_failure, null);
    assert.ok(!failed.text.includes('generated_reports'), failed.text);

    const invalid = await startReport('public-fatal');
    const shown = await waitFor('public failure', async () => {
      const r = await get(invalid);
      return r.body.status === 'failed' ? r : null;
    });
    assert.deepEqual(shown.body.error, { message: 'the report request is not valid: unknown template', type: 'InvalidReportRequest' });
  });

  it('names the step of an activity that timed out while it is retried', async () => {
    const taskId = await startReport('silent');
    const res = await waitFor('a timed-out attempt', async () => {
      const r = await get(taskId);
      return r.body.last_failure ? r : null;
    }, 30_000, 500);
    assert.deepEqual({ ...res.body.last_failure, at: null }, { activity: 'generateOneOffReport', attempt: 1, message: 'generateOneOffReport timed out', at: null });
    await (await testTemporal()).workflow.getHandle(taskId).terminate('test over');
  });

  it('says a terminated task was terminated, without the termination reason', async () => {
    const taskId = await startReport('internal-retrying');
    await (await testTemporal()).workflow.getHandle(taskId).terminate('operator: see /var/lib/fip/notes');
    const res = await get(taskId);
    assert.equal(res.body.status, 'failed');
    assert.deepEqual(res.body.error, { message: 'workflow terminated' });
  });
});
