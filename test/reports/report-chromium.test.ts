// A PDF report on a worker whose Chromium cannot work (SVC_CHROMIUM__PATH at a file that is not
// executable, or at a program that does not start): the task fails within seconds, after one
// attempt, with a ChromiumUnavailable failure that names the path and the reason. Real API, real
// worker, real Temporal.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { createBrowserProvider } from '../../infra/browser-pool';
import { createReportGenerationActivities } from '../../activities/reports/report-generation-activities';
import { findReportSchedule, insertReportSchedule } from '../../db/repositories/reports/report-schedule-repository';
import { createBlobStore } from '../../infra/blob-store';
import { resolveChromium } from '../../infra/chromium';
import { createLogger } from '../../infra/logger';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex, testTemporal } from '../support/platform';
import { waitFor } from '../support/wait-for';

function tempFile(content: string, mode: number): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-chromium-')), 'chromium');
  fs.writeFileSync(file, content);
  fs.chmodSync(file, mode);
  return file;
}

describe('PDF reports without a working Chromium', function () {
  this.timeout(120_000);
  let analyst: Record<string, string>;

  before(async () => {
    analyst = asUser((await usersForEveryRole()).analyst);
  });

  /** A worker and an API on their own task queue, with SVC_CHROMIUM__PATH set to `chromiumPath`. */
  async function platformWith(chromiumPath: string): Promise<string> {
    const queue = `chromium-${randomUUID().slice(0, 8)}`;
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_CHROMIUM__PATH: chromiumPath };
    await startTestWorker(queue, env);
    return (await startTestApi(env)).url;
  }

  async function generate(url: string, format: string): Promise<{ taskId: string; task: { status: string; error: { message: string } | null }; seconds: number }> {
    const started = Date.now();
    const res = await http(`${url}/reports/generate`, {
      method: 'POST',
      headers: analyst,
      json: { template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format } },
    });
    assert.equal(res.status, 202, res.text);
    const taskId: string = res.body.task_id;
    const task = await waitFor(`task ${taskId} to end`, async () => {
      const t = await http(`${url}/tasks/${taskId}`, { headers: analyst });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 60_000, 200);
    return { taskId, task, seconds: (Date.now() - started) / 1000 };
  }

  /** The workflow's failure: an activity failure caused by an ApplicationFailure. */
  async function failureOf(taskId: string): Promise<{ failure: ApplicationFailure; attempts: number[] }> {
    const handle = (await testTemporal()).workflow.getHandle(taskId);
    const err = await handle.result().then(() => assert.fail('the workflow succeeded'), (e: unknown) => e);
    assert.ok(err instanceof WorkflowFailedError, String(err));
    assert.ok(err.cause instanceof ActivityFailure, String(err.cause));
    assert.ok(err.cause.cause instanceof ApplicationFailure, String(err.cause.cause));
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 0);
    return { failure: err.cause.cause, attempts };
  }

  it('fails at once, naming the configured path, when it is not an executable file; other formats still work', async () => {
    const notExecutable = tempFile('#!/bin/sh\n', 0o644);
    const url = await platformWith(notExecutable);
    const { taskId, task, seconds } = await generate(url, 'pdf');
    assert.equal(task.status, 'failed', JSON.stringify(task));
    assert.ok(seconds < 20, `failed after ${seconds} s`);
    const { failure, attempts } = await failureOf(taskId);
    assert.equal(failure.type, 'ChromiumUnavailable');
    assert.equal(failure.nonRetryable, true);
    assert.equal(failure.message, `Chromium at the configured path ${notExecutable} (SVC_CHROMIUM__PATH) is not executable`);
    assert.deepEqual(attempts, [1], 'one attempt, no retries');
    assert.equal(task.error?.message, failure.message, 'the task shows why (ChromiumUnavailable is a public failure type)');

    const csv = await generate(url, 'csv');
    assert.equal(csv.task.status, 'completed', 'a worker without Chromium still makes CSV reports');
  });

  it('fails at once with the browser\'s own reason when the configured program does not start', async () => {
    const broken = tempFile('#!/bin/sh\necho "error while loading shared libraries: libnss3.so" >&2\nexit 127\n', 0o755);
    const url = await platformWith(broken);
    const { taskId, task, seconds } = await generate(url, 'pdf');
    assert.equal(task.status, 'failed', JSON.stringify(task));
    assert.ok(seconds < 20, `failed after ${seconds} s`);
    const { failure, attempts } = await failureOf(taskId);
    assert.equal(failure.type, 'ChromiumUnavailable');
    assert.equal(failure.nonRetryable, true);
    assert.match(failure.message, new RegExp(`^Chromium \\(configured, ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) did not start: .*libnss3\\.so`));
    assert.deepEqual(attempts, [1], 'one attempt, no retries');
  });

  it('fails a schedule\'s run retryably (the schedule lives on until Chromium is fixed) without storing or advancing; a one-off run finally', async () => {
    const missing = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-chromium-')), 'chromium');
    const browser = createBrowserProvider({ chromium: () => resolveChromium({ configuredPath: missing }) });
    const activities = createReportGenerationActivities({
      knex: testKnex(),
      blobs: createBlobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-blobs-'))),
      browser,
      log: createLogger('silent'),
    });
    const id = randomUUID();
    const dueAt = new Date('2025-06-01T09:00:00.000Z');
    await insertReportSchedule(testKnex(), {
      id,
      template: 'wallet-activity',
      cadence: 'daily',
      scope: { entity_types: ['wallet'] },
      options: { format: 'pdf' },
      recipients: [],
      next_run_at: dueAt,
      anchor_day: 1,
      workflow_id: `report-schedule-${id}`,
      created_by: 'chromium-test@example.org',
    });
    try {
      const err = await activities.generateScheduledReport({ scheduleId: id, dueAt: dueAt.toISOString() }).then(
        () => assert.fail('the run succeeded'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof ApplicationFailure, String(err));
      assert.equal(err.type, 'ChromiumUnavailable');
      assert.equal(err.nonRetryable, false);
      assert.equal(err.message, `Chromium at the configured path ${missing} (SVC_CHROMIUM__PATH) does not exist`);
      assert.equal((await findReportSchedule(testKnex(), id))?.next_run_at.toISOString(), dueAt.toISOString(), 'not advanced');
      assert.equal((await testKnex()('generated_reports').where({ schedule_id: id })).length, 0);

      const oneOff = await activities
        .generateOneOffReport({
          taskId: `report-${randomUUID()}`,
          template: 'wallet-activity',
          scope: { entity_types: ['wallet'] },
          options: { format: 'pdf' },
          requestedAt: dueAt.toISOString(),
          requestedBy: 'chromium-test@example.org',
        })
        .then(() => assert.fail('the report succeeded'), (e: unknown) => e);
      assert.ok(oneOff instanceof ApplicationFailure && oneOff.type === 'ChromiumUnavailable' && oneOff.nonRetryable, String(oneOff));
    } finally {
      await browser.close();
    }
  });
});
