// `npm run record-histories`: runs each scenario against the real workers, API, PostgreSQL and
// Temporal of the test setup and writes its history to test/fixtures/workflow-histories/.
// Re-record after an intended workflow change (patched or versioned), then commit the files:
// test/workflows/workflow-replay.test.ts replays them in CI so that an unintended
// non-deterministic change fails.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testTemporal } from '../support/platform';
import { startScamSiteFixture } from '../support/scam-site-fixture';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { waitFor } from '../support/wait-for';
import { writeHistory } from '../support/workflow-histories';
import { startPlatformWorkflow } from '../../services/tasks/platform-workflows';
import { scheduledReportsJobWorkflow } from '../../workflows/reports/scheduled-reports-job-workflow';
import { analyticsRefreshWorkflow } from '../../workflows/analytics/analytics-refresh-workflow';
import { watchlistAlertsWorkflow } from '../../workflows/alerts/watchlist-alerts-workflow';

describe('record workflow histories', function () {
  this.timeout(120_000);
  const queue = `record-${randomUUID().slice(0, 8)}`;
  let url: string;
  let admin: Record<string, string>;
  let client: Client;
  let smtp: SmtpSink;

  before(async () => {
    smtp = await startSmtpSink();
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SMTP__URL: smtp.url };
    admin = asUser((await usersForEveryRole()).admin);
    client = await testTemporal();
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
  });
  after(async () => smtp.close());

  const schedule = (over: Record<string, unknown>) => ({
    template: 'wallet-activity', cadence: 'daily', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: ['ops@example.org'], ...over,
  });

  it('report-schedule-run: a due run generates, delivers and continues as new', async () => {
    const res = await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: admin, json: schedule({ next_run_at: new Date(Date.now() - 1000).toISOString() }) });
    assert.equal(res.status, 201, res.text);
    const firstRun = (await client.workflow.getHandle(res.body.workflow_id).describe()).runId;
    await waitFor('continue-as-new', async () => (await client.workflow.getHandle(res.body.workflow_id).describe()).runId !== firstRun, 60_000, 250);
    const handle = client.workflow.getHandle(res.body.workflow_id, firstRun);
    assert.equal((await handle.describe()).status.name, 'CONTINUED_AS_NEW');
    writeHistory('report-schedule-run', 'reportScheduleWorkflow', res.body.workflow_id, await handle.fetchHistory());
    await client.workflow.getHandle(res.body.workflow_id).terminate('recorded');
  });

  it('report-schedule-deactivated: a waiting schedule takes a progress note (Update and former signal), then is deactivated', async () => {
    const res = await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: admin, json: schedule({ next_run_at: new Date(Date.now() + 3_600_000).toISOString() }) });
    assert.equal(res.status, 201, res.text);
    const id = res.body.workflow_id;
    await waitFor('waiting', async () => (await http(`${url}/tasks/${id}`, { headers: admin })).body.progress?.stage === 'waiting');
    const key = { 'X-API-KEY': await createTestApiKey(['tasks:update', 'reports:write']) };
    const note = await http(`${url}/tasks/${id}/update`, { method: 'POST', headers: key, json: { progress: { note: 'checked', percent: 5 } } });
    assert.equal(note.status, 200, note.text);
    // Histories of workflows that started before notes became an Update hold this signal.
    await client.workflow.getHandle(id).signal('progressNote', { note: 'former signal', percent: null });
    const off = await http(`${url}/intelligence/scheduled-reports/${res.body.id}/deactivate`, { method: 'PUT', headers: admin });
    assert.equal(off.status, 200, off.text);
    await waitFor('cancelled', async () => (await client.workflow.getHandle(id).describe()).status.name === 'CANCELLED');
    writeHistory('report-schedule-deactivated', 'reportScheduleWorkflow', id, await client.workflow.getHandle(id).fetchHistory());
  });

  it('one-off-report: generate once and e-mail it', async () => {
    const res = await http(`${url}/reports/generate`, {
      method: 'POST', headers: admin, json: { template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'csv' }, recipients: ['desk@example.org'] },
    });
    assert.equal(res.status, 202, res.text);
    const handle = client.workflow.getHandle(res.body.task_id);
    const result = await handle.result();
    assert.equal(result.delivery, 'sent');
    writeHistory('one-off-report', 'generateReportWorkflow', res.body.task_id, await handle.fetchHistory());
  });

  it('scheduled-reports-job: one run of the reconciliation job', async () => {
    const workflowId = `scheduled-reports-job-record-${randomUUID()}`;
    const handle = await startPlatformWorkflow(client, {
      workflow: scheduledReportsJobWorkflow, workflowId, taskQueue: queue, args: [], recordId: 'scheduled-reports-job', title: 'Scheduled-reports reconciliation job',
    });
    await handle.result();
    writeHistory('scheduled-reports-job', 'scheduledReportsJobWorkflow', workflowId, await handle.fetchHistory());
  });

  it('analytics-refresh: one refresh of the dashboards\' materialized views', async () => {
    const workflowId = `analytics-refresh-record-${randomUUID()}`;
    const handle = await startPlatformWorkflow(client, {
      workflow: analyticsRefreshWorkflow, workflowId, taskQueue: queue, args: [], recordId: 'analytics-refresh', title: 'Analytics dashboards refresh',
    });
    await handle.result();
    writeHistory('analytics-refresh', 'analyticsRefreshWorkflow', workflowId, await handle.fetchHistory());
  });

  it('watchlist-alerts: one evaluation of the watchlists and one delivery pass', async () => {
    const workflowId = `watchlist-alerts-record-${randomUUID()}`;
    const handle = await startPlatformWorkflow(client, {
      workflow: watchlistAlertsWorkflow, workflowId, taskQueue: queue, args: [], recordId: 'watchlist-alerts', title: 'Watchlist alerts',
    });
    await handle.result();
    writeHistory('watchlist-alerts', 'watchlistAlertsWorkflow', workflowId, await handle.fetchHistory());
  });

  it('intake-processing: an intake with a file is processed into the graph', async () => {
    const form = new FormData();
    form.append('payload', JSON.stringify({ summary: 'recorded intake', details: 'Call +44 20 7946 0958 or see https://scam.example.com' }));
    form.append('files', new Blob(['Send USDT to TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE']), 'note.txt');
    const res = await http(`${url}/intakes`, { method: 'POST', headers: admin, body: form });
    assert.equal(res.status, 201, res.text);
    const handle = client.workflow.getHandle(res.body.task_id);
    const result = await handle.result();
    assert.equal(result.status, 'processed');
    writeHistory('intake-processing', 'intakeProcessingWorkflow', res.body.task_id, await handle.fetchHistory());
  });

  it('ssi-investigation: a scam-site investigation through every state (fixture site on 127.0.0.1)', async () => {
    const site = await startScamSiteFixture();
    try {
      const invQueue = `${queue}-ssi`;
      const env = { SVC_TEMPORAL__TASK_QUEUE: invQueue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_WORKER__INSTANCE: `record-${invQueue}` };
      await startTestWorker(invQueue, env);
      const api = await startTestApi(env);
      const res = await http(`${api.url}/investigations/ssi`, { method: 'POST', headers: admin, json: { url: `${site.origin}/r1`, playbook_id: null, options: { max_pages: 3 } } });
      assert.equal(res.status, 202, res.text);
      const handle = client.workflow.getHandle(res.body.task_id);
      const result = await handle.result();
      assert.equal(result.state, 'COMPLETE');
      writeHistory('ssi-investigation', 'ssiInvestigationWorkflow', res.body.task_id, await handle.fetchHistory());
    } finally {
      await site.close();
    }
  });

  it('review-claim-released: a claim expires (1.2 s TTL) and its timer returns the review to the queue', async () => {
    const shortTtl = (await startTestApi({ SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_REVIEW__CLAIM_TTL_MINUTES: '0.02' })).url;
    const review = await reviewToClaim();
    const claim = await http(`${shortTtl}/reviews/${review}/claim`, { method: 'POST', headers: admin });
    assert.equal(claim.status, 200, claim.text);
    const handle = client.workflow.getHandle(claim.body.claim_task_id);
    assert.equal(await handle.result(), 'released');
    writeHistory('review-claim-released', 'reviewClaimWorkflow', claim.body.claim_task_id, await handle.fetchHistory());
  });

  it('review-claim-cancelled: a renewed claim cancels the timer of the claim it replaces', async () => {
    const review = await reviewToClaim();
    const first = await http(`${url}/reviews/${review}/claim`, { method: 'POST', headers: admin });
    assert.equal(first.status, 200, first.text);
    const renewed = await http(`${url}/reviews/${review}/claim`, { method: 'POST', headers: admin });
    assert.equal(renewed.body.renewed, true);
    const handle = client.workflow.getHandle(first.body.claim_task_id);
    assert.equal(await handle.result(), 'cancelled');
    writeHistory('review-claim-cancelled', 'reviewClaimWorkflow', first.body.claim_task_id, await handle.fetchHistory());
    await client.workflow.getHandle(renewed.body.claim_task_id).terminate('recorded');
  });

  it('dossier: a case with an intake file is collected, then sealed', async () => {
    const c = await http(`${url}/cases`, { method: 'POST', headers: admin, json: { title: 'recorded dossier case', description: 'for the dossier history' } });
    assert.equal(c.status, 201, c.text);
    const form = new FormData();
    form.append('payload', JSON.stringify({ summary: 'recorded dossier intake' }));
    form.append('files', new Blob(['statement for the recorded dossier']), 'statement.txt');
    const intake = await http(`${url}/intakes`, { method: 'POST', headers: admin, body: form });
    assert.equal(intake.status, 201, intake.text);
    const attach = await http(`${url}/intakes/${intake.body.id}/case`, { method: 'POST', headers: admin, json: { case_id: c.body.id } });
    assert.ok(attach.status < 300, attach.text);
    const res = await http(`${url}/reports/dossiers`, { method: 'POST', headers: admin, json: { title: 'recorded dossier', case_id: c.body.id } });
    assert.equal(res.status, 202, res.text);
    const handle = client.workflow.getHandle(res.body.task_id);
    const result = await handle.result();
    assert.equal(result.status, 'ready');
    writeHistory('dossier', 'dossierWorkflow', res.body.task_id, await handle.fetchHistory());
  });

  async function reviewToClaim(): Promise<string> {
    const c = await http(`${url}/cases`, { method: 'POST', headers: admin, json: { title: 'recorded review' } });
    assert.equal(c.status, 201, c.text);
    const r = await http(`${url}/reviews/`, { method: 'POST', headers: admin, json: { case_id: c.body.id } });
    assert.equal(r.status, 201, r.text);
    return r.body.id as string;
  }
});
