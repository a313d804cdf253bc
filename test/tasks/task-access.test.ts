// /tasks/{task_id} acts on the platform's own task kinds only (domain/tasks/task-kinds.ts), with
// access checked per kind: read to see a task, write to cancel it or add a note.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testTemporal } from '../support/platform';
import type { Role } from '../../domain/accounts/roles';

describe('tasks act on the platform tasks only, with access per kind', function () {
  this.timeout(60_000);
  // No worker polls this queue: the workflows below stay queued, which is all these checks need.
  const queue = `nobody-${randomUUID().slice(0, 8)}`;
  let url: string;
  let users: Record<Role, string>;
  let client: Client;

  before(async () => {
    users = await usersForEveryRole();
    client = await testTemporal();
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
  });

  const start = async (workflowType: string, workflowId: string) => {
    await client.workflow.start(workflowType, { workflowId, taskQueue: queue, args: [{ scheduleId: randomUUID() }] });
    return workflowId;
  };
  const get = (id: string, headers: Record<string, string>) => http(`${url}/tasks/${id}`, { headers });
  const update = (id: string, headers: Record<string, string>, json: unknown) => http(`${url}/tasks/${id}/update`, { method: 'POST', headers, json });
  const cancelRequested = async (id: string) =>
    (await client.workflow.getHandle(id).fetchHistory()).events!.some((e) => e.workflowExecutionCancelRequestedEventAttributes != null);

  it('answers 404 for a workflow that is not a platform task kind, the same as for a missing id, and never cancels it', async () => {
    const foreign = await start('someoneElsesWorkflow', `report-${randomUUID()}`);
    const missing = `report-${randomUUID()}`;
    const admin = asUser(users.admin);
    const writerKey = { 'X-API-KEY': await createTestApiKey(['tasks:update', 'reports:write']) };

    const shape = (r: { status: number; body: { error: { code: string; message: string } } }, id: string) => ({
      status: r.status,
      code: r.body.error.code,
      message: r.body.error.message.replace(id, '<id>'),
    });
    const expected = shape(await get(missing, admin), missing);
    assert.deepEqual(expected, { status: 404, code: 'not_found', message: 'no task <id>' });
    assert.deepEqual(shape(await get(foreign, admin), foreign), expected);
    assert.deepEqual(shape(await update(foreign, admin, { status: 'cancelled' }), foreign), expected);
    assert.deepEqual(shape(await update(foreign, writerKey, { status: 'cancelled' }), foreign), expected);
    assert.deepEqual(shape(await update(foreign, writerKey, { progress: { note: 'hello' } }), foreign), expected);
    assert.equal(await cancelRequested(foreign), false, 'the foreign workflow was not touched');
    assert.equal((await client.workflow.getHandle(foreign).describe()).status.name, 'RUNNING');
  });

  it('shows a task only to the roles and scopes of its kind, answering 404 to the others', async () => {
    const report = await start('generateReportWorkflow', `report-${randomUUID()}`);
    const job = await start('scheduledReportsJobWorkflow', `scheduled-reports-job-test-${randomUUID()}`);
    const readerKey = { 'X-API-KEY': await createTestApiKey(['reports:read']) };

    assert.equal((await get(report, asUser(users.analyst))).status, 200);
    assert.equal((await get(report, asUser(users.admin))).status, 200);
    assert.equal((await get(report, readerKey)).body.kind, 'report');
    assert.equal((await get(report, asUser(users.researcher))).status, 403, 'no task kind is open to researchers');

    assert.equal((await get(job, asUser(users.admin))).body.kind, 'scheduled-reports-job');
    assert.equal((await get(job, asUser(users.analyst))).status, 404, 'the job is for admins');
    assert.equal((await get(job, readerKey)).status, 404);
  });

  it("changes a task only with its kind's write access: 404 to those who cannot see it, 403 to readers", async () => {
    const report = await start('generateReportWorkflow', `report-${randomUUID()}`);
    const job = await start('scheduledReportsJobWorkflow', `scheduled-reports-job-test-${randomUUID()}`);
    const updateOnly = { 'X-API-KEY': await createTestApiKey(['tasks:update']) };
    const updateAndRead = { 'X-API-KEY': await createTestApiKey(['tasks:update', 'reports:read']) };
    const updateAndWrite = { 'X-API-KEY': await createTestApiKey(['tasks:update', 'reports:write']) };
    const cancel = { status: 'cancelled' };

    assert.equal((await update(report, updateOnly, cancel)).status, 404);
    const readOnly = await update(report, updateAndRead, cancel);
    assert.equal(readOnly.status, 403);
    assert.match(readOnly.body.error.message, /report tasks/);
    assert.equal(await cancelRequested(report), false);
    assert.equal((await update(report, updateAndWrite, cancel)).status, 200);
    assert.equal(await cancelRequested(report), true);

    assert.equal((await update(job, updateAndWrite, cancel)).status, 404);
    assert.equal((await update(job, asUser(users.analyst), cancel)).status, 404);
    assert.equal(await cancelRequested(job), false);
    assert.equal((await update(job, asUser(users.admin), cancel)).status, 200);
    assert.equal(await cancelRequested(job), true);
  });
});
