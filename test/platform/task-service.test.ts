// Updating a task that ends between the status check and the update (found by fuzzing: the race
// answered 500): the service reports the task as ended instead of throwing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { addProgressNote, cancelTask } from '../../services/tasks/task-service';
import { testTemporal } from '../support/platform';

describe('task service on an ended task', () => {
  it('addProgressNote answers "ended" once the task has ended, and neither it nor cancelTask throws then', async () => {
    const client = await testTemporal();
    const taskId = `report-${randomUUID()}`;
    // On a queue no worker polls, the workflow stays open until terminated. (Notes on open tasks:
    // test/tasks/task-progress-notes.test.ts.)
    await client.workflow.start('generateReportWorkflow', {
      workflowId: taskId,
      taskQueue: `task-service-idle-${randomUUID().slice(0, 8)}`,
      args: [{ template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: [], requestedAt: new Date().toISOString(), requestedBy: 'test' }],
    });
    await client.workflow.getHandle(taskId).terminate('ended for the test');
    assert.deepEqual(await addProgressNote(client, taskId, 'too late', null), { outcome: 'ended' });
    await assert.doesNotReject(cancelTask(client, taskId), 'Temporal accepts a cancel request for an ended workflow');
  });
});
