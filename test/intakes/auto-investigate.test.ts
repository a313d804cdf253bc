// SVC_INTAKE__AUTO_INVESTIGATE: intake processing starts an investigation of each URL the intake
// mentions, with scan ids that are the same on every retry. The URLs are documentation addresses
// (TEST-NET-1/3), which the crawler's egress policy refuses before any connection.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { autoInvestigationScanId } from '../../domain/intakes/auto-investigation';
import { findInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { InvestigationOptionsSchema } from '../../domain/investigations/investigation-request';
import { startInvestigation } from '../../services/investigations/investigation-service';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { intakeForm } from '../support/intake-fixtures';
import { startTestApi, startTestWorker, testDeps, testKnex } from '../support/platform';
import { waitFor } from '../support/wait-for';

describe('intake: automatic investigations of the URLs found (SVC_INTAKE__AUTO_INVESTIGATE)', function () {
  this.timeout(120_000);
  const queue = `intake-auto-${randomUUID().slice(0, 8)}`;
  const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_INTAKE__AUTO_INVESTIGATE: 'true' };
  let url: string;
  let analyst: Record<string, string>;

  before(async () => {
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
    analyst = asUser((await usersForEveryRole()).analyst);
  });

  it('starts one investigation per URL of the intake, recorded on its entities job and linked to the intake', async () => {
    const key = { 'X-API-KEY': await createTestApiKey(['intake:write']) };
    const urls = ['http://192.0.2.10/deposit', 'https://203.0.113.7/pay'];
    const res = await http(`${url}/intakes`, { method: 'POST', headers: key, body: intakeForm({ summary: 'fake broker', details: `Pay at ${urls[0]} or ${urls[1]}` }) });
    assert.equal(res.status, 201, res.text);
    const intake = await waitFor('the intake processed', async () => {
      const r = await http(`${url}/intakes/${res.body.id}`, { headers: analyst });
      return ['processed', 'failed'].includes(r.body.status) ? r.body : null;
    }, 60_000, 200);
    assert.equal(intake.status, 'processed', JSON.stringify(intake.jobs));
    const job = await http(`${url}/intakes/jobs/${intake.jobs[1].id}`, { headers: analyst });
    const started = job.body.result.investigations as Array<{ url: string; scan_id: string; task_id: string }>;
    assert.deepEqual(started.map((s) => s.url).sort(), urls);
    for (const s of started) {
      assert.equal(s.scan_id, autoInvestigationScanId(res.body.id, s.url));
      assert.equal(s.task_id, `ssi-${s.scan_id}`);
      const scan = await findInvestigation(testKnex(), s.scan_id);
      assert.equal(scan?.url, s.url);
      assert.equal(scan?.requested_by, `intake:${res.body.id}`);
      // The egress policy refuses documentation addresses: the investigation ends without a connection.
      const task = await waitFor(`investigation ${s.scan_id} to end`, async () => {
        const t = await http(`${url}/tasks/${s.task_id}`, { headers: analyst });
        return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
      }, 60_000, 200);
      assert.equal(task.kind, 'investigation');
    }
  });

  it('starting the same automatic investigation again (a retried step) adds nothing', async () => {
    const deps = await testDeps(env);
    const intakeId = randomUUID();
    const target = 'http://192.0.2.11/';
    const req = { scanId: autoInvestigationScanId(intakeId, target), url: target, requestedBy: `intake:${intakeId}`, playbookId: null, caseId: null, label: null, options: InvestigationOptionsSchema.parse({}) };
    const first = await startInvestigation(deps, req, true);
    const again = await startInvestigation(deps, req, true);
    assert.deepEqual(again, first);
    assert.equal(Number((await testKnex()('investigations').where({ scan_id: req.scanId }).count<Array<{ n: string }>>('* as n'))[0].n), 1);
    await assert.rejects(startInvestigation(deps, req, false), /already started|AlreadyStarted/i, 'without repeatable, a second start is an error');
  });
});
