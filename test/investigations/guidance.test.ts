// The human in the loop end to end on a real Temporal server: a probe workflow (standing in for the
// funnel) calls the real askHuman with the real guidance activities; an analyst reads the question
// and its screenshot and answers, aborts or lets it expire through the real API. The answer reaches
// the typing side only through the vault and never appears in the workflow's history.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { temporal as proto } from '@temporalio/proto';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { findVaultSecret } from '../../db/repositories/vault/vault-secret-repository';
import { guidanceAnswerRef } from '../../domain/investigations/guidance';
import { investigationTaskId } from '../../domain/investigations/investigation-request';
import { resolveGuidanceText } from '../../services/investigations/guidance-service';
import { guidanceProbeWorkflow } from '../support/funnel-probe-workflows';
import { startFunnelProbeWorker } from '../support/funnel-probe-worker';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex, testTemporal } from '../support/platform';
import { waitFor } from '../support/wait-for';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('guidance: a human in the loop (askHuman, the guidance routes)', function () {
  this.timeout(120_000);
  const queue = `guide-${randomUUID().slice(0, 8)}`;
  let api: Awaited<ReturnType<typeof startTestApi>>;
  let analyst: Record<string, string>;
  let analystEmail: string;
  let researcher: Record<string, string>;
  let screenshotKey: string;

  before(async () => {
    const env = { SVC_AUTH__TRUST_PROXY_HEADER: 'true' };
    api = await startTestApi(env);
    await startFunnelProbeWorker(queue, env);
    const users = await usersForEveryRole();
    analystEmail = users.analyst;
    analyst = asUser(users.analyst);
    researcher = asUser(users.researcher);
    screenshotKey = (await api.deps.blobs.put(PNG)).key;
  });

  async function startProbe(timeoutMs?: number) {
    const scanId = randomUUID();
    await insertInvestigation(testKnex(), { scanId, url: 'http://192.0.2.40/', domain: '192.0.2.40', requestedBy: 'guidance-test', playbookId: null, caseId: null, label: null, options: {} });
    const handle = await (await testTemporal()).workflow.start(guidanceProbeWorkflow, {
      workflowId: investigationTaskId(scanId), taskQueue: queue, args: [{ scanId, screenshotKey, ...(timeoutMs ? { timeoutMs } : {}) }],
    });
    const pending = await waitFor('the question', async () => {
      const res = await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { headers: analyst });
      return res.status === 200 ? res.body : null;
    }, 30_000, 100);
    return { scanId, handle, pending };
  }

  const historyBytes = async (workflowId: string) => {
    const history = await (await testTemporal()).workflow.getHandle(workflowId).fetchHistory();
    return Buffer.from(proto.api.history.v1.History.encode(proto.api.history.v1.History.fromObject(history)).finish());
  };

  it('asks (question, field, screenshot), takes an answer, goes on, and keeps the answer out of the workflow history', async () => {
    const { scanId, handle, pending } = await startProbe();
    assert.equal(pending.kind, 'captcha');
    assert.equal(pending.question, 'Type the characters shown in the picture');
    assert.equal(pending.field, '#captcha');
    assert.equal(pending.screenshot_url, `/investigations/ssi/${scanId}/guidance/${pending.request_id}/screenshot`);
    const shot = await fetch(`${api.url}${pending.screenshot_url}`, { headers: analyst });
    assert.equal(shot.status, 200);
    assert.equal(shot.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await shot.arrayBuffer()), PNG);

    const answer = `XK7P-${randomUUID().slice(0, 6)}`;
    const post = await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: analyst, json: { request_id: pending.request_id, answer } });
    assert.equal(post.status, 202, post.text);
    assert.deepEqual(post.body, { request_id: pending.request_id, status: 'answered' });

    const result = await handle.result();
    assert.deepEqual(result.states, ['AWAITING_GUIDANCE', 'VERIFY_CONTACT']);
    assert.deepEqual(result.reply, { request_id: pending.request_id, answer: guidanceAnswerRef(pending.request_id) });
    // The typing side resolves the reference through the vault; plain text passes through.
    assert.equal(await resolveGuidanceText(api.deps, scanId, (result.reply as { answer: string }).answer), answer);
    assert.equal(await resolveGuidanceText(api.deps, scanId, 'plain'), 'plain');

    const row = await testKnex()('guidance_requests').where({ request_id: pending.request_id }).first();
    assert.equal(row.status, 'answered');
    assert.equal(row.answered_by, analystEmail);
    assert.ok(row.answered_at instanceof Date && row.closed_at instanceof Date);
    assert.ok(!JSON.stringify(row).includes(answer), 'the answer is not a column');
    const sealed = await findVaultSecret(testKnex(), { kind: 'guidance', id: pending.request_id });
    assert.ok(sealed, 'the answer is sealed in the vault');
    assert.ok(!sealed.ciphertext.includes(Buffer.from(answer)), 'sealed, not in the clear');

    const history = await historyBytes(investigationTaskId(scanId));
    assert.ok(history.includes(Buffer.from('Type the characters shown in the picture')), 'the history search finds what is in it (the question)');
    assert.ok(history.includes(Buffer.from(guidanceAnswerRef(pending.request_id))), 'the signal carried the reference');
    assert.ok(!history.includes(Buffer.from(answer)), 'the answer is nowhere in the history');

    const audit = await testKnex()('audit_events').where({ target_id: scanId, action: 'investigation.guidance_reply' });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].actor, analystEmail);
    assert.ok(!JSON.stringify(audit[0]).includes(answer), 'the audit event names the reply, not the answer');

    const again = await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: analyst, json: { request_id: pending.request_id, answer: 'again' } });
    assert.equal(again.status, 409, again.text);
    assert.equal((await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { headers: analyst })).status, 404);
  });

  it('aborts when the analyst says abort, and the request is closed as aborted', async () => {
    const { scanId, handle, pending } = await startProbe();
    const post = await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: analyst, json: { request_id: pending.request_id, action: 'abort' } });
    assert.equal(post.status, 202, post.text);
    assert.deepEqual(post.body, { request_id: pending.request_id, status: 'aborted' });
    assert.deepEqual((await handle.result()).reply, { request_id: pending.request_id, action: 'abort' });
    const row = await testKnex()('guidance_requests').where({ request_id: pending.request_id }).first();
    assert.equal(row.status, 'aborted');
    assert.equal(await findVaultSecret(testKnex(), { kind: 'guidance', id: pending.request_id }), undefined);
  });

  it('expires when nobody answers in time: askHuman answers null and a late answer is a 409', async () => {
    const { scanId, handle, pending } = await startProbe(1_500);
    const result = await handle.result();
    assert.equal(result.reply, null);
    assert.deepEqual(result.states, ['AWAITING_GUIDANCE', 'VERIFY_CONTACT']);
    const row = await testKnex()('guidance_requests').where({ request_id: pending.request_id }).first();
    assert.equal(row.status, 'expired');
    assert.equal(row.answered_by, null);
    const late = await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: analyst, json: { request_id: pending.request_id, answer: 'late' } });
    assert.equal(late.status, 409, late.text);
  });

  it('answers 400 for a malformed reply, 404 for an unknown request or scan, and 403 to callers who may not guide', async () => {
    const { scanId, handle, pending } = await startProbe();
    const bad = await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: analyst, json: { request_id: pending.request_id } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.code, 'validation_failed');
    const both = await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: analyst, json: { request_id: pending.request_id, answer: 'x', action: 'abort' } });
    assert.equal(both.status, 400, both.text);
    const unknown = await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: analyst, json: { request_id: randomUUID(), answer: 'x' } });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal((await http(`${api.url}/investigations/ssi/${randomUUID()}/guidance`, { headers: analyst })).status, 404);
    assert.equal((await http(`${api.url}/investigations/ssi/${scanId}/guidance/${randomUUID()}/screenshot`, { headers: analyst })).status, 404);
    assert.equal((await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { headers: researcher })).status, 403);
    assert.equal((await http(`${api.url}${pending.screenshot_url}`, { headers: researcher })).status, 403);
    const reader = { 'x-api-key': await createTestApiKey(['investigations:read']) };
    assert.equal((await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: reader, json: { request_id: pending.request_id, action: 'abort' } })).status, 403);
    const writer = { 'x-api-key': await createTestApiKey(['investigations:write']) };
    const byService = await http(`${api.url}/investigations/ssi/${scanId}/guidance`, { method: 'POST', headers: writer, json: { request_id: pending.request_id, action: 'abort' } });
    assert.equal(byService.status, 202, byService.text);
    assert.equal((await handle.result()).reply?.request_id, pending.request_id);
  });
});
