// One-off reports (POST /reports/generate) and task polling (/tasks/{task_id}), with a PDF
// rendered by real Chromium and a delivery that fails twice before it succeeds.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex, testTemporal } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { waitFor } from '../support/wait-for';

describe('one-off reports and task polling', function () {
  this.timeout(300_000);
  const queue = `tasks-${randomUUID().slice(0, 8)}`;
  let url: string;
  let analyst: Record<string, string>;
  let researcher: Record<string, string>;
  let smtp: SmtpSink;

  before(async () => {
    smtp = await startSmtpSink();
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SMTP__URL: smtp.url };
    const users = await usersForEveryRole();
    analyst = asUser(users.analyst);
    researcher = asUser(users.researcher);
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
  });
  after(async () => smtp.close());

  const poll = (taskId: string, headers: Record<string, string>) =>
    waitFor(`task ${taskId} to end`, async () => {
      const t = await http(`${url}/tasks/${taskId}`, { headers });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 180_000, 200); // a PDF through Chromium and three SMTP attempts: seconds alone, a minute or more on a loaded CI machine

  it('generates a PDF once, e-mails it after transient SMTP failures, and reports the result on the task', async () => {
    smtp.failNext(2);
    const res = await http(`${url}/reports/generate`, {
      method: 'POST',
      headers: analyst,
      json: { template: 'threat-overview', scope: { entity_types: ['wallet', 'intake', 'campaign'] }, options: { format: 'pdf', title: 'Weekly <b>threats</b>' }, recipients: ['desk@example.org'] },
    });
    assert.equal(res.status, 202);
    assert.match(res.body.task_id, /^report-[0-9a-f-]{36}$/);
    assert.equal(res.body.status_url, `/tasks/${res.body.task_id}`);
    const task = await poll(res.body.task_id, analyst);
    assert.equal(task.status, 'completed', JSON.stringify(task));
    assert.equal(task.kind, 'report');
    assert.equal(task.result.delivery, 'sent');
    assert.equal(task.result.format, 'pdf');
    assert.ok(Date.parse(task.updated_at) >= Date.parse(task.started_at));

    const dl = await fetch(`${url}${task.result.download_path}`, { headers: analyst });
    assert.equal(dl.headers.get('content-type'), 'application/pdf');
    const pdf = Buffer.from(await dl.arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assert.equal(dl.headers.get('x-content-sha256'), task.result.sha256);

    const mail = await smtp.waitFor((m) => m.text?.includes(task.result.report_id) ?? false);
    assert.equal(mail.attachments[0].contentType, 'application/pdf');
    const delivery = await testKnex()('report_deliveries').where({ report_id: task.result.report_id }).first();
    assert.equal(delivery.status, 'sent');
    assert.equal(delivery.attempts, 3, 'two recorded failures, then the send');
    const rows = await testKnex()('generated_reports').where({ task_id: res.body.task_id });
    assert.equal(rows.length, 1, 'delivery retries never generate a second report');
  });

  it('records delivery as skipped when no SMTP server is configured', async () => {
    const q2 = `${queue}-nosmtp`;
    await startTestWorker(q2, { SVC_TEMPORAL__TASK_QUEUE: q2 });
    const api = await startTestApi({ SVC_TEMPORAL__TASK_QUEUE: q2, SVC_AUTH__TRUST_PROXY_HEADER: 'true' });
    const res = await http(`${api.url}/reports/generate`, {
      method: 'POST', headers: analyst, json: { template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'csv' }, recipients: ['x@example.org'] },
    });
    const task = await poll(res.body.task_id, analyst);
    assert.equal(task.result.delivery, 'skipped');
  });

  it('lets a trusted service add progress notes and cancel a task; reports 404 and 409 clearly', async () => {
    const client = await testTemporal();
    // A task no worker serves stays queued: a workflow on a queue without workers.
    const taskId = `report-${randomUUID()}`;
    await client.workflow.start('generateReportWorkflow', {
      workflowId: taskId,
      taskQueue: `${queue}-nobody`,
      args: [{ template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: [], requestedAt: new Date().toISOString(), requestedBy: 't' }],
    });
    const queued = await http(`${url}/tasks/${taskId}`, { headers: analyst });
    assert.equal(queued.body.status, 'queued');
    assert.equal(queued.body.kind, 'report');

    const key = await createTestApiKey(['tasks:update', 'reports:write']);
    const bad = await http(`${url}/tasks/${taskId}/update`, { method: 'POST', headers: { 'X-API-KEY': key }, json: { status: 'done' } });
    assert.equal(bad.status, 400);
    const empty = await http(`${url}/tasks/${taskId}/update`, { method: 'POST', headers: { 'X-API-KEY': key }, json: {} });
    assert.equal(empty.status, 400);
    const cancel = await http(`${url}/tasks/${taskId}/update`, { method: 'POST', headers: { 'X-API-KEY': key }, json: { status: 'cancelled' } });
    assert.equal(cancel.status, 200);
    // Cancellation of a never-started workflow is recorded as a request; Temporal closes it when a
    // worker picks it up. Start one and check it ends cancelled without a report.
    await startTestWorker(`${queue}-nobody`, { SVC_TEMPORAL__TASK_QUEUE: `${queue}-nobody` });
    const ended = await poll(taskId, analyst);
    assert.equal(ended.status, 'cancelled');
    assert.equal((await testKnex()('generated_reports').where({ task_id: taskId })).length, 0);
    const again = await http(`${url}/tasks/${taskId}/update`, { method: 'POST', headers: { 'X-API-KEY': key }, json: { status: 'cancelled' } });
    assert.equal(again.status, 409);

    assert.equal((await http(`${url}/tasks/no-such-task`, { headers: analyst })).status, 404);
    assert.equal((await http(`${url}/tasks/${taskId}`, { headers: researcher })).status, 403);
  });

  it('accepts progress notes on a running task and shows them in the progress', async () => {
    const client = await testTemporal();
    const res = await http(`${url}/intelligence/scheduled-reports`, {
      method: 'POST',
      headers: asUser((await usersForEveryRole()).admin),
      json: { template: 'wallet-activity', cadence: 'monthly', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: ['a@example.org'] },
    });
    const wf = res.body.workflow_id;
    await waitFor('schedule workflow waiting', async () => (await http(`${url}/tasks/${wf}`, { headers: analyst })).body.progress?.stage === 'waiting');
    const key = await createTestApiKey(['tasks:update', 'reports:write']);
    const note = await http(`${url}/tasks/${wf}/update`, { method: 'POST', headers: { 'X-API-KEY': key }, json: { progress: { note: 'checked by intake-bot', percent: 10 } } });
    assert.equal(note.status, 200);
    const t = await waitFor('note visible', async () => {
      const r = await http(`${url}/tasks/${wf}`, { headers: analyst });
      return r.body.progress?.notes?.length ? r.body : null;
    });
    assert.equal(t.kind, 'report-schedule');
    assert.equal(t.status, 'running');
    assert.equal(t.progress.notes[0].note, 'checked by intake-bot');
    assert.equal(t.progress.detail.next_run_at, res.body.next_run_at);
    const refuse = await http(`${url}/tasks/${wf}/update`, { method: 'POST', headers: { 'X-API-KEY': key }, json: { status: 'cancelled' } });
    assert.equal(refuse.status, 409, 'a schedule is stopped by deactivating it');
    assert.equal((await client.workflow.getHandle(wf).describe()).status.name, 'RUNNING');
  });
});
