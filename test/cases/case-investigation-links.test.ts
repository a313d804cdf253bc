// Linking an existing investigation to a case through the API on real PostgreSQL: 201 with who
// linked it, the case detail lists it, a repeat is 409, an unknown scan or case 404, unlinking
// removes it (204; again 404), each change is an audit event, and only analysts and admins may.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import type { Role } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex, testTemporal } from '../support/platform';

describe('cases: linking investigations (API)', function () {
  this.timeout(60_000);
  let url: string;
  let users: Record<Role, string>;

  before(async () => {
    // A queue of its own: the investigation started here is never picked up by another file's worker.
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_TEMPORAL__TASK_QUEUE: `links-${randomUUID().slice(0, 8)}` })).url;
    users = await usersForEveryRole();
  });

  const newScan = async () => {
    const scanId = randomUUID();
    await insertInvestigation(testKnex(), { scanId, url: 'http://192.0.2.20/', domain: '192.0.2.20', requestedBy: 'link-test', playbookId: null, caseId: null, label: null, options: {} });
    return scanId;
  };
  const newCase = async () => {
    const res = await http(`${url}/cases`, { method: 'POST', headers: asUser(users.analyst), json: { title: `link ${randomUUID().slice(0, 8)}` } });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };

  it('links a scan (201), lists it on the case, refuses a repeat (409), unlinks it (204, then 404), auditing both changes', async () => {
    const [caseId, scanId] = [await newCase(), await newScan()];
    const linked = await http(`${url}/cases/${caseId}/investigations`, { method: 'POST', headers: asUser(users.analyst), json: { scan_id: scanId } });
    assert.equal(linked.status, 201, linked.text);
    assert.equal(linked.body.scan_id, scanId);
    assert.equal(linked.body.linked_by, users.analyst);
    const detail = await http(`${url}/cases/${caseId}`, { headers: asUser(users.reviewer) });
    assert.deepEqual(detail.body.investigations.map((i: { id: string }) => i.id), [scanId]);
    const again = await http(`${url}/cases/${caseId}/investigations`, { method: 'POST', headers: asUser(users.admin), json: { scan_id: scanId } });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.error.details.linked_by, users.analyst);

    const unlinked = await http(`${url}/cases/${caseId}/investigations/${scanId}`, { method: 'DELETE', headers: asUser(users.admin) });
    assert.equal(unlinked.status, 204, unlinked.text);
    assert.deepEqual((await http(`${url}/cases/${caseId}`, { headers: asUser(users.analyst) })).body.investigations, []);
    assert.equal((await http(`${url}/cases/${caseId}/investigations/${scanId}`, { method: 'DELETE', headers: asUser(users.admin) })).status, 404);
    const audit = await testKnex()('audit_events').where({ target_type: 'case', target_id: caseId }).whereIn('action', ['case.investigation.link', 'case.investigation.unlink']).orderBy('at');
    assert.deepEqual(audit.map((a: { action: string; actor: string; details: { scan_id: string } }) => [a.action, a.actor, a.details.scan_id]), [
      ['case.investigation.link', users.analyst, scanId],
      ['case.investigation.unlink', users.admin, scanId],
    ]);
  });

  it('an investigation started for a case (POST /investigations/ssi with case_id) is listed on the case', async () => {
    const caseId = await newCase();
    const started = await http(`${url}/investigations/ssi`, { method: 'POST', headers: asUser(users.analyst), json: { url: 'http://192.0.2.21/', case_id: caseId } });
    assert.equal(started.status, 202, started.text);
    const detail = await http(`${url}/cases/${caseId}`, { headers: asUser(users.analyst) });
    assert.deepEqual(detail.body.investigations.map((i: { id: string }) => i.id), [started.body.scan_id]);
    await (await testTemporal()).workflow.getHandle(started.body.task_id).terminate('test over').catch(() => undefined);
  });

  it('answers 404 for an unknown scan or case, 400 for a scan id that is not a UUID, 403 to reviewers and researchers', async () => {
    const [caseId, scanId] = [await newCase(), await newScan()];
    const unknownScan = await http(`${url}/cases/${caseId}/investigations`, { method: 'POST', headers: asUser(users.analyst), json: { scan_id: randomUUID() } });
    assert.equal(unknownScan.status, 404, unknownScan.text);
    assert.match(unknownScan.body.error.message, /no investigation/);
    const unknownCase = await http(`${url}/cases/${randomUUID()}/investigations`, { method: 'POST', headers: asUser(users.analyst), json: { scan_id: scanId } });
    assert.equal(unknownCase.status, 404, unknownCase.text);
    const bad = await http(`${url}/cases/${caseId}/investigations`, { method: 'POST', headers: asUser(users.analyst), json: { scan_id: 'nope' } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.details[0].path, 'body.scan_id');
    for (const role of ['reviewer', 'researcher'] as const) {
      const denied = await http(`${url}/cases/${caseId}/investigations`, { method: 'POST', headers: asUser(users[role]), json: { scan_id: scanId } });
      assert.equal(denied.status, 403, role);
    }
    assert.equal((await testKnex()('case_links').where({ case_id: caseId })).length, 0, 'nothing was linked');
  });
});
