// Every workflow the platform starts carries a memo title and the FipKind / FipRecordId search
// attributes, so an operator filters by them in the Temporal UI (and this test, in visibility).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ScheduleOverlapPolicy, type Client, type WorkflowExecutionInfo } from '@temporalio/client';
import { msToTs, TypedSearchAttributes } from '@temporalio/common';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testTemporal } from '../support/platform';
import { runCli } from '../support/run-cli';
import { waitFor } from '../support/wait-for';
import { FIP_KIND, FIP_RECORD_ID } from '../../services/tasks/platform-workflows';
import { ensureScheduledReportsJobSchedule, JOB_SCHEDULE_ID } from '../../services/reports/scheduled-reports-job-schedule';

describe('memo and search attributes on platform workflows', function () {
  this.timeout(90_000);
  const queue = `labels-${randomUUID().slice(0, 8)}`;
  let url: string;
  let admin: Record<string, string>;
  let client: Client;

  before(async () => {
    admin = asUser((await usersForEveryRole()).admin);
    client = await testTemporal();
    await startTestWorker(queue);
    url = (await startTestApi({ SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  /** Visibility is eventually consistent: polls until the query answers `expected` workflows. */
  const listUntil = (query: string, expected: number) =>
    waitFor(`${expected} workflows for ${query}`, async () => {
      const found: WorkflowExecutionInfo[] = [];
      for await (const wf of client.workflow.list({ query })) found.push(wf);
      return found.length === expected ? found : null;
    }, 20_000, 250);

  it('a schedule and a one-off report are found by FipKind and FipRecordId, and carry a memo title', async () => {
    const schedule = await http(`${url}/intelligence/scheduled-reports`, {
      method: 'POST',
      headers: admin,
      json: { template: 'wallet-activity', cadence: 'monthly', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: ['ops@example.org'] },
    });
    assert.equal(schedule.status, 201, schedule.text);
    const report = await http(`${url}/reports/generate`, {
      method: 'POST', headers: admin, json: { template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'json' } },
    });
    assert.equal(report.status, 202, report.text);

    const [s] = await listUntil(`FipKind = "report-schedule" AND FipRecordId = "${schedule.body.id}"`, 1);
    assert.equal(s.workflowId, schedule.body.workflow_id);
    const [r] = await listUntil(`FipKind = "report" AND FipRecordId = "${report.body.task_id}"`, 1);
    assert.equal(r.workflowId, report.body.task_id);
    const both = await listUntil(`FipRecordId IN ("${schedule.body.id}", "${report.body.task_id}")`, 2);
    assert.deepEqual(both.map((w) => w.workflowId).sort(), [schedule.body.workflow_id, report.body.task_id].sort());

    const sd = await client.workflow.getHandle(schedule.body.workflow_id).describe();
    assert.equal(sd.memo?.title, `Report schedule ${schedule.body.id}`);
    assert.equal(sd.typedSearchAttributes.get(FIP_KIND), 'report-schedule');
    const rd = await client.workflow.getHandle(report.body.task_id).describe();
    assert.equal(rd.memo?.title, 'One-off report: wallet-activity (json)');
    assert.equal(rd.typedSearchAttributes.get(FIP_RECORD_ID), report.body.task_id);
    await client.workflow.getHandle(schedule.body.workflow_id).terminate('test over');
  });

  it('a schedule keeps its memo and search attributes after it continues as new', async () => {
    const res = await http(`${url}/intelligence/scheduled-reports`, {
      method: 'POST',
      headers: admin,
      json: { template: 'wallet-activity', cadence: 'daily', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: ['ops@example.org'], next_run_at: new Date(Date.now() - 1000).toISOString() },
    });
    assert.equal(res.status, 201, res.text);
    const handle = client.workflow.getHandle(res.body.workflow_id);
    const firstRun = (await handle.describe()).runId;
    const next = await waitFor('the next run', async () => {
      const d = await handle.describe();
      return d.runId !== firstRun && d.status.name === 'RUNNING' ? d : null;
    }, 30_000, 250);
    assert.equal(next.memo?.title, `Report schedule ${res.body.id}`);
    assert.equal(next.typedSearchAttributes.get(FIP_KIND), 'report-schedule');
    assert.equal(next.typedSearchAttributes.get(FIP_RECORD_ID), res.body.id);
    await handle.terminate('test over');
  });

  it("the scheduled-reports job's Schedule starts runs with the labels, and an unlabelled Schedule is updated", async () => {
    await ensureScheduledReportsJobSchedule(client, queue, 60);
    const schedule = client.schedule.getHandle(JOB_SCHEDULE_ID);
    // A Schedule as created before the labels existed.
    await schedule.update((prev) => ({
      ...prev,
      action: prev.action.type === 'startWorkflow' ? { ...prev.action, searchAttributes: {}, typedSearchAttributes: [], memo: undefined } : prev.action,
    }));
    const unlabelled = (await schedule.describe()).action;
    assert.ok(unlabelled.type === 'startWorkflow' && unlabelled.typedSearchAttributes instanceof TypedSearchAttributes);
    assert.deepEqual(unlabelled.typedSearchAttributes.getAll(), []);
    assert.equal(await ensureScheduledReportsJobSchedule(client, queue, 60), 'updated');
    assert.equal(await ensureScheduledReportsJobSchedule(client, queue, 60), 'unchanged');

    const started = new Date().toISOString();
    await schedule.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
    const [run] = await listUntil(`FipKind = "scheduled-reports-job" AND FipRecordId = "${JOB_SCHEDULE_ID}" AND StartTime >= "${started}"`, 1);
    const d = await client.workflow.getHandle(run.workflowId, run.runId).describe();
    assert.equal(d.memo?.title, 'Scheduled-reports reconciliation job');
    await client.workflow.getHandle(run.workflowId, run.runId).terminate('test over').catch(() => undefined);
  });

  it('`fip setup temporal` registers the search attributes in a namespace, and says so when they exist', async () => {
    const namespace = `fip-setup-${randomUUID().slice(0, 8)}`;
    await client.connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    const env = { TEMPORAL_NAMESPACE: namespace };
    const first = await waitFor('the new namespace', async () => {
      const r = await runCli(['setup', 'temporal'], { env });
      return r.code === 0 ? r : null;
    }, 30_000, 500);
    assert.match(first.stdout, new RegExp(`registered search attribute FipKind \\(Keyword\\) in namespace ${namespace}`));
    assert.match(first.stdout, /registered search attribute FipRecordId/);
    const again = await runCli(['setup', 'temporal'], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /search attribute FipKind \(Keyword\) already registered/);
    assert.match(again.stdout, /search attribute FipRecordId \(Keyword\) already registered/);
  });
});
