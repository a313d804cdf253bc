// Progress notes are a workflow Update with a validator: bounded in length and in count per run,
// and a refused note never reaches the workflow's history.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { http } from '../support/http';
import { createTestApiKey } from '../support/identities';
import { startTestApi, testTemporal } from '../support/platform';
import { startActivityStubWorker, type StubWorker } from '../support/activity-stub-worker';
import { waitFor } from '../support/wait-for';
import { MAX_PROGRESS_NOTES_PER_RUN } from '../../domain/tasks/task-status';

describe('progress notes on a task', function () {
  this.timeout(60_000);
  const queue = `notes-${randomUUID().slice(0, 8)}`;
  let url: string;
  let worker: StubWorker;

  before(async () => {
    // The real workflows, and no activities: a report's generation waits, the task stays running.
    worker = await startActivityStubWorker(queue, {});
    url = (await startTestApi({ SVC_TEMPORAL__TASK_QUEUE: queue })).url;
  });
  after(async () => worker.shutdown());

  it(`accepts ${MAX_PROGRESS_NOTES_PER_RUN} notes per run, then answers 409 naming the cap without writing the history`, async () => {
    const client = await testTemporal();
    const taskId = `report-${randomUUID()}`;
    const handle = await client.workflow.start('generateReportWorkflow', {
      workflowId: taskId,
      taskQueue: queue,
      args: [{ template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: [], requestedAt: new Date().toISOString(), requestedBy: 't' }],
    });
    const key = { 'X-API-KEY': await createTestApiKey(['tasks:update', 'reports:write']) };
    await waitFor('task running', async () => (await http(`${url}/tasks/${taskId}`, { headers: key })).body.status === 'running');
    const note = (n: number, text = `note ${n}`) => http(`${url}/tasks/${taskId}/update`, { method: 'POST', headers: key, json: { progress: { note: text, percent: n } } });

    for (let n = 1; n <= MAX_PROGRESS_NOTES_PER_RUN; n++) assert.equal((await note(n)).status, 200, `note ${n}`);
    const eventsAtCap = (await handle.fetchHistory()).events!.length;
    const over = await note(MAX_PROGRESS_NOTES_PER_RUN + 1);
    assert.equal(over.status, 409);
    assert.equal(over.body.error.code, 'conflict');
    assert.match(over.body.error.message, new RegExp(`${MAX_PROGRESS_NOTES_PER_RUN} progress notes`));
    const tooLong = await note(1, 'x'.repeat(1001));
    assert.equal(tooLong.status, 400);

    const history = (await handle.fetchHistory()).events!;
    assert.equal(history.length, eventsAtCap, 'the refused notes added nothing to the history');
    assert.equal(history.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes != null).length, MAX_PROGRESS_NOTES_PER_RUN);
    const task = (await http(`${url}/tasks/${taskId}`, { headers: key })).body;
    assert.equal(task.progress.notes.length, MAX_PROGRESS_NOTES_PER_RUN);
    assert.equal(task.progress.notes.at(-1).note, `note ${MAX_PROGRESS_NOTES_PER_RUN}`);
    assert.equal(task.progress.percent, MAX_PROGRESS_NOTES_PER_RUN);
    await handle.terminate('test over');
  });

  it('answers 409 to a note for a task no worker has started, and writes nothing to its history', async () => {
    const client = await testTemporal();
    const taskId = `report-${randomUUID()}`;
    const handle = await client.workflow.start('generateReportWorkflow', { workflowId: taskId, taskQueue: `${queue}-nobody`, args: [{}] });
    const key = { 'X-API-KEY': await createTestApiKey(['tasks:update', 'reports:write']) };
    const before = (await handle.fetchHistory()).events!.length;
    const res = await http(`${url}/tasks/${taskId}/update`, { method: 'POST', headers: key, json: { progress: { note: 'too early' } } });
    assert.equal(res.status, 409);
    assert.match(res.body.error.message, /has not started yet/);
    assert.equal((await handle.fetchHistory()).events!.length, before);
    await handle.terminate('test over');
  });
});
