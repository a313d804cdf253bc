// Dossiers (POST /reports/dossiers and the routes under it) against the real API, worker,
// PostgreSQL and Temporal: a case with an intake (file + vault contact data), a review note and an
// LEA referral becomes a sealed dossier that verifies; tampering is named; traversal is 404; the
// access list derives from the case and referral; lists filter and paginate.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCase, linkToCase } from '../../db/repositories/cases/case-repository';
import { saveReferral } from '../../db/repositories/cases/lea-referral-repository';
import { addReviewNote, claimReview, enqueueReview } from '../../db/repositories/reviews/review-repository';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { insertInvestigation, insertPage, setInvestigationState } from '../../db/repositories/investigations/investigation-repository';
import type { BlobStore } from '../../infra/blob-store';
import { verifyPackage } from '../../services/evidence/evidence-verification';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { intakeForm } from '../support/intake-fixtures';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';
import { waitFor } from '../support/wait-for';

/** GET with the path sent byte for byte (no dot-segment resolution). */
function rawGetStatus(target: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(target);
  const rawPath = target.slice(target.indexOf('/', u.protocol.length + 2));
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: rawPath, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('dossiers', function () {
  this.timeout(120_000);
  const queue = `dossiers-${randomUUID().slice(0, 8)}`;
  let url: string;
  let blobRoot: string;
  let blobs: BlobStore;
  let users: Record<'admin' | 'analyst' | 'researcher' | 'reviewer', string>;
  let admin: Record<string, string>;
  let analyst: Record<string, string>;
  let intakeKey: string;

  before(async () => {
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true' };
    users = await usersForEveryRole();
    admin = asUser(users.admin);
    analyst = asUser(users.analyst);
    intakeKey = await createTestApiKey(['intake:write']);
    await startTestWorker(queue, env);
    const api = await startTestApi(env);
    url = api.url;
    blobRoot = fileURLToPath(api.deps.config.blobs.url!);
    blobs = api.deps.blobs;
  });

  /** A case with an intake (one file, contact data in the vault), a review with a note, an LEA referral. */
  async function caseFixture(tag: string) {
    const knex = testKnex();
    const theCase = await createCase(knex, { title: `Dossier case ${tag}`, description: `Victim lost savings (${tag})`, assignee: users.analyst }, users.admin);
    const fileBytes = Buffer.from(`bank statement ${tag}\n`);
    const contactEmail = `victim.${tag}@example.net`;
    const submitted = await http(`${url}/intakes`, {
      method: 'POST',
      headers: { 'X-API-KEY': intakeKey },
      body: intakeForm({ summary: `Investment scam ${tag}`, details: 'Paid a fake broker', reporter_name: `Reporter ${tag}`, contact_email: contactEmail }, [
        { name: 'statement.txt', type: 'text/plain', bytes: fileBytes },
      ]),
    });
    assert.equal(submitted.status, 201, submitted.text);
    await linkToCase(knex, theCase.id, { type: 'intake', id: submitted.body.id }, users.analyst);
    const review = await enqueueReview(knex, { caseId: theCase.id, reason: 'check before referral' }, users.analyst);
    assert.ok(review.ok);
    const claimed = await claimReview(knex, review.review.id, users.reviewer, 60_000);
    assert.ok(claimed.ok);
    await addReviewNote(knex, review.review.id, 'annotate', users.reviewer, { note: `wallet confirmed ${tag}` });
    const saved = await saveReferral(knex, theCase.id, { agency: 'NCA', jurisdiction: 'UK', contact: `Desk.${tag}@nca.example`, status: 'draft' }, users.analyst);
    assert.ok(saved.ok);
    return { caseId: theCase.id, intakeId: submitted.body.id as string, fileBytes, contactEmail, reporter: `Reporter ${tag}` };
  }

  const plan = (json: unknown, headers: Record<string, string> = analyst) => http(`${url}/reports/dossiers`, { method: 'POST', headers, json });

  const ready = (planId: string) =>
    waitFor(`dossier ${planId} to end`, async () => {
      const t = await http(`${url}/tasks/dossier-${planId}`, { headers: analyst });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 90_000, 200);

  const download = async (planId: string, name: string, headers = analyst) => {
    const res = await fetch(`${url}/reports/dossiers/${planId}/download/${encodeURIComponent(name)}`, { headers });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  describe('a dossier of a case', () => {
    let fx: Awaited<ReturnType<typeof caseFixture>>;
    let planId: string;

    before(async () => {
      fx = await caseFixture(randomUUID().slice(0, 8));
      const res = await plan({ title: 'Case handed to the NCA', case_id: fx.caseId });
      assert.equal(res.status, 202, res.text);
      planId = res.body.plan_id;
      const task = await ready(planId);
      assert.equal(task.status, 'completed', JSON.stringify(task));
    });

    it('collects the case, its notes and its intake file, completes as a dossier task, and verifies valid', async () => {
      const task = (await http(`${url}/tasks/dossier-${planId}`, { headers: analyst })).body;
      assert.equal(task.kind, 'dossier');
      assert.equal(task.result.plan_id, planId);
      assert.equal(task.result.status, 'ready');

      const detail = await http(`${url}/reports/dossiers/${planId}`, { headers: analyst });
      assert.equal(detail.status, 200, detail.text);
      assert.equal(detail.body.status, 'ready');
      assert.equal(detail.body.case_id, fx.caseId);
      assert.match(detail.body.manifest_sha256, /^[0-9a-f]{64}$/);
      const names: string[] = detail.body.artifacts.map((a: { name: string }) => a.name);
      assert.deepEqual(names, ['case/case.json', 'case/case.md', `intakes/${fx.intakeId}/files/0-statement.txt`, `intakes/${fx.intakeId}/intake.json`]);

      const file = await download(planId, `intakes/${fx.intakeId}/files/0-statement.txt`);
      assert.equal(file.status, 200);
      assert.deepEqual(file.bytes, fx.fileBytes);
      const caseJson = JSON.parse((await download(planId, 'case/case.json')).bytes.toString('utf8'));
      assert.equal(caseJson.case.id, fx.caseId);
      assert.equal(caseJson.notes.length, 1);
      assert.match(JSON.stringify(caseJson.notes[0].details), /wallet confirmed/);
      assert.equal(caseJson.lea_referral.agency, 'NCA');

      const verify = await http(`${url}/reports/dossiers/${planId}/verify`, { method: 'POST', headers: analyst });
      assert.equal(verify.status, 200, verify.text);
      assert.equal(verify.body.valid, true, verify.text);
      assert.match(verify.body.key_id, /^ecdsa-p384:[0-9a-f]{32}$/);
      assert.match(verify.body.fingerprint, new RegExp(`^${verify.body.key_id.slice('ecdsa-p384:'.length)}[0-9a-f]{32}$`));
      assert.equal(verify.body.trusted, true, 'signed by a key of the platform\'s keyring');
      assert.equal(verify.body.key_id, detail.body.key_id);
      assert.deepEqual(verify.body.artifacts.map((a: { name: string }) => a.name), ['datapackage-digest.json', 'datapackage.json', ...names]);
      assert.ok(verify.body.artifacts.every((a: { ok: boolean }) => a.ok));
      assert.deepEqual(verify.body.problems, []);

      const manifest = await http(`${url}/reports/dossiers/${planId}/signature_manifest`, { headers: analyst });
      assert.equal(manifest.status, 200);
      const listed = JSON.parse(manifest.body.manifest);
      assert.deepEqual(listed.resources.map((a: { path: string }) => a.path), names);
      assert.equal(listed.extras.dossier.plan_id, planId);
      assert.equal(manifest.body.digest.signature.key_id, verify.body.key_id);
      assert.equal(manifest.body.digest.hash, `sha256:${manifest.body.manifest_sha256}`);
    });

    it('downloads the whole dossier as a ZIP that the offline verifier accepts, and names a changed file in a copy', async () => {
      const res = await fetch(`${url}/reports/dossiers/${planId}/download`, { headers: analyst });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dossier-zip-'));
      const zip = path.join(dir, 'dossier.zip');
      fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
      const checked = await verifyPackage(zip);
      assert.equal(checked.valid, true, JSON.stringify(checked.problems));
      assert.equal(checked.key_id, (await http(`${url}/reports/dossiers/${planId}`, { headers: analyst })).body.key_id);
      assert.deepEqual(checked.artifacts.map((a) => a.name).sort(), ['case/case.json', 'case/case.md', 'datapackage-digest.json', 'datapackage.json', `intakes/${fx.intakeId}/files/0-statement.txt`, `intakes/${fx.intakeId}/intake.json`]);
      // The same files unpacked, one byte of one changed: named.
      const unpacked = path.join(dir, 'unpacked');
      for (const a of checked.artifacts) {
        const one = await download(planId, a.name);
        assert.equal(one.status, 200, a.name);
        fs.mkdirSync(path.dirname(path.join(unpacked, a.name)), { recursive: true });
        fs.writeFileSync(path.join(unpacked, a.name), one.bytes);
      }
      assert.equal((await verifyPackage(unpacked)).valid, true);
      const target = path.join(unpacked, `intakes/${fx.intakeId}/files/0-statement.txt`);
      const bytes = fs.readFileSync(target);
      bytes[2] = bytes[2]! ^ 0x20;
      fs.writeFileSync(target, bytes);
      const broken = await verifyPackage(unpacked);
      assert.equal(broken.valid, false);
      assert.deepEqual(broken.problems.map((p) => [p.file, p.code]), [[`intakes/${fx.intakeId}/files/0-statement.txt`, 'changed']]);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('holds no contact data from the vault in any artifact, and audits each download', async () => {
      const detail = await http(`${url}/reports/dossiers/${planId}`, { headers: analyst });
      for (const a of detail.body.artifacts as Array<{ name: string }>) {
        const text = (await download(planId, a.name)).bytes.toString('utf8');
        assert.ok(!text.includes(fx.contactEmail), `${a.name} holds the reporter's e-mail`);
        assert.ok(!text.includes(fx.reporter), `${a.name} holds the reporter's name`);
      }
      await fetch(`${url}/reports/dossiers/${planId}/download/${encodeURIComponent('case/case.md')}?purpose=handover`, { headers: analyst });
      const audit = await testKnex()('audit_events').where({ target_type: 'dossier', target_id: planId, action: 'dossier.download', purpose: 'handover' });
      assert.equal(audit.length, 1);
      assert.equal(audit[0].actor, users.analyst);
      assert.equal(audit[0].details.artifact, 'case/case.md');
    });

    it('answers 404 for unknown and traversing artifact names', async () => {
      for (const name of ['nope.json', '../../etc/passwd', 'case/../case/case.json', '/etc/passwd', 'case\\case.json', 'case/./case.json']) {
        const res = await download(planId, name);
        assert.equal(res.status, 404, `${name}: ${res.status}`);
      }
      // Unencoded dot segments, sent as they are (fetch would resolve them before sending).
      for (const raw of ['..', '.', '..%2F..%2Fcase%2Fcase.json', '%2e%2e']) {
        assert.equal(await rawGetStatus(`${url}/reports/dossiers/${planId}/download/${raw}`, analyst), 404, raw);
      }
      assert.equal((await download(randomUUID(), 'case/case.json')).status, 404);
      assert.equal((await download(planId, 'case/case.json', asUser(users.researcher))).status, 403);
    });

    it('derives the access list from the case team and the LEA referral; only admins grant and revoke', async () => {
      const acl = await http(`${url}/reports/dossiers/${planId}/drive_acl`, { headers: analyst });
      assert.equal(acl.status, 200, acl.text);
      const by = new Map<string, { role: string; source: string }>(acl.body.entries.map((e: { principal: string; role: string; source: string }) => [e.principal, e]));
      assert.equal(by.get(users.admin)?.role, 'owner', 'the case creator');
      assert.equal(by.get(users.analyst)?.role, 'owner', 'the dossier creator outranks the assignee entry');
      assert.equal(by.get(users.reviewer)?.source, 'case_reviewer');
      const lea = acl.body.entries.find((e: { source: string }) => e.source === 'lea_referral');
      assert.match(lea.principal, /^desk\.[0-9a-f]{8}@nca\.example$/);
      assert.equal(lea.role, 'reader');

      const grant = { principal: 'partner@agency.example', role: 'reader', expires_at: new Date(Date.now() + 86_400_000).toISOString() };
      for (const who of [analyst, asUser(users.reviewer), asUser(users.researcher)]) {
        assert.equal((await http(`${url}/reports/dossiers/${planId}/drive_acl`, { method: 'POST', headers: who, json: grant })).status, 403);
      }
      const granted = await http(`${url}/reports/dossiers/${planId}/drive_acl`, { method: 'POST', headers: admin, json: grant });
      assert.equal(granted.status, 200, granted.text);
      const entry = granted.body.entries.find((e: { principal: string }) => e.principal === 'partner@agency.example');
      assert.deepEqual([entry.role, entry.granted_by, entry.source, entry.expires_at], ['reader', users.admin, 'grant', grant.expires_at]);

      const revoked = await http(`${url}/reports/dossiers/${planId}/drive_acl`, { method: 'POST', headers: admin, json: { principal: users.reviewer, revoke: true } });
      assert.equal(revoked.status, 200, revoked.text);
      assert.ok(!revoked.body.entries.some((e: { principal: string }) => e.principal === users.reviewer), 'a revocation removes a derived entry');
      const bad = await http(`${url}/reports/dossiers/${planId}/drive_acl`, { method: 'POST', headers: admin, json: { principal: 'x@example.org' } });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.details[0].path, 'body.role');
    });
  });

  it('names the artifacts whose blob bytes changed or whose blob was replaced after sealing', async () => {
    const fx = await caseFixture(randomUUID().slice(0, 8));
    const res = await plan({ title: 'Tamper check', case_id: fx.caseId });
    assert.equal(res.status, 202, res.text);
    assert.equal((await ready(res.body.plan_id)).status, 'completed');
    const planId = res.body.plan_id;
    const rows = await testKnex()('dossier_artifacts').where({ dossier_id: planId }).orderBy('name');
    // One byte of the case's Markdown changes in the blob store (the case id makes its bytes unique to this test).
    const md = rows.find((r) => r.name === 'case/case.md')!;
    const file = path.join(blobRoot, md.blob_key);
    const bytes = fs.readFileSync(file);
    bytes[0] = bytes[0]! ^ 0x01;
    fs.writeFileSync(file, bytes);
    // The intake record's blob is replaced by other bytes (a swapped object in the store).
    const intakeJson = `intakes/${fx.intakeId}/intake.json`;
    const other = await blobs.put(Buffer.from(`{"replaced": "${randomUUID()}"}\n`));
    await testKnex()('dossier_artifacts').where({ dossier_id: planId, name: intakeJson }).update({ blob_key: other.key });

    const verify = await http(`${url}/reports/dossiers/${planId}/verify`, { method: 'POST', headers: analyst });
    assert.equal(verify.status, 200, verify.text);
    assert.equal(verify.body.valid, false);
    const failed = verify.body.artifacts.filter((a: { ok: boolean }) => !a.ok).map((a: { name: string }) => a.name);
    assert.deepEqual(failed, ['case/case.md', intakeJson]);
    assert.deepEqual(verify.body.problems.map((p: { file: string; code: string }) => [p.file, p.code]), [['case/case.md', 'changed'], [intakeJson, 'changed']]);
    const mdCheck = verify.body.artifacts.find((a: { name: string }) => a.name === 'case/case.md');
    assert.notEqual(mdCheck.sha256, `sha256:${md.sha256}`, 'the hash of the bytes found');
  });

  it('validates plans: a source is required, unknown ids are 400 with field paths, roles are checked, Idempotency-Key repeats answer the same plan', async () => {
    const none = await plan({ title: 'Nothing' });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.details[0].path, 'body.case_id');
    const unknownScan = randomUUID();
    const unknown = await plan({ title: 'Unknown', case_id: randomUUID(), scan_ids: [unknownScan], entity_ids: [randomUUID()] });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body.error.details.map((d: { path: string }) => d.path), ['body.case_id', 'body.scan_ids.0', 'body.entity_ids.0']);
    assert.equal((await plan({ title: 'x', case_id: randomUUID() }, asUser(users.researcher))).status, 403);
    assert.equal((await plan({ title: 'x', case_id: randomUUID() }, asUser(users.reviewer))).status, 403);

    // An entity-only dossier: the graph extract.
    const tag = randomUUID().slice(0, 8);
    const recorded = await recordSourceEntities(testKnex(), { kind: 'manual', id: `dossier-${tag}` }, [{ type: 'domain', value: `scam-${tag}.example` }, { type: 'url', value: `https://scam-${tag}.example/pay` }]);
    const entityIds = recorded.entities.map((e) => e.id);
    const key = randomUUID();
    const body = { title: `Entities ${tag}`, entity_ids: entityIds };
    const first = await plan(body, { ...analyst, 'Idempotency-Key': key });
    const again = await plan(body, { ...analyst, 'Idempotency-Key': key });
    assert.equal(first.status, 202, first.text);
    assert.equal(again.body.plan_id, first.body.plan_id);
    assert.equal(first.body.task_id, `dossier-${first.body.plan_id}`);
    assert.equal((await plan({ ...body, title: 'changed' }, { ...analyst, 'Idempotency-Key': key })).status, 422);
    assert.equal((await ready(first.body.plan_id)).status, 'completed');
    const graph = JSON.parse((await download(first.body.plan_id, 'graph/entities.json')).bytes.toString('utf8'));
    assert.deepEqual(graph.entities.map((e: { id: string }) => e.id).sort(), [...entityIds].sort());
    assert.equal((await http(`${url}/reports/dossiers?limit=500`, { headers: analyst })).body.items.filter((d: { title: string }) => d.title === body.title).length, 1);
  });

  it('collects a scan\'s captured pages (screenshot, DOM, HAR) byte for byte with the scan record', async () => {
    const tag = randomUUID();
    const scanId = randomUUID();
    await insertInvestigation(testKnex(), { scanId, url: 'http://127.0.0.1:9/', domain: '127.0.0.1', requestedBy: users.analyst, playbookId: null, caseId: null, label: tag, options: {} });
    const shot = await blobs.put(Buffer.from(`png ${tag}`));
    const dom = await blobs.put(Buffer.from(`<html>${tag}</html>`));
    const har = await blobs.put(Buffer.from(JSON.stringify({ log: { tag } })));
    await insertPage(testKnex(), {
      scanId, url: 'http://127.0.0.1:9/', seq: 0, state: 'CAPTURE', title: 'fixture', httpStatus: 200, serverIp: '127.0.0.1', tls: null, responseHeaders: {},
      screenshot: shot, dom, har, capturedAt: new Date(),
    });
    const res = await plan({ title: `Scan ${tag}`, scan_ids: [scanId] });
    assert.equal(res.status, 202, res.text);
    assert.equal((await ready(res.body.plan_id)).status, 'completed');
    const detail = await http(`${url}/reports/dossiers/${res.body.plan_id}`, { headers: analyst });
    const base = `investigations/${scanId}`;
    assert.deepEqual(detail.body.artifacts.map((a: { name: string }) => a.name), [`${base}/investigation.json`, `${base}/pages/0/dom.html`, `${base}/pages/0/page.har`, `${base}/pages/0/screenshot.png`]);
    for (const [name, blob] of [['dom.html', dom], ['page.har', har], ['screenshot.png', shot]] as const) {
      const a = detail.body.artifacts.find((x: { name: string }) => x.name === `${base}/pages/0/${name}`);
      assert.equal(a.sha256, blob.sha256, name);
    }
    assert.deepEqual((await download(res.body.plan_id, `${base}/pages/0/dom.html`)).bytes, Buffer.from(`<html>${tag}</html>`));
    const record = JSON.parse((await download(res.body.plan_id, `${base}/investigation.json`)).bytes.toString('utf8'));
    assert.equal(record.scan_id, scanId);
    assert.equal(record.pages[0].screenshot_sha256, shot.sha256);
    assert.equal((await http(`${url}/reports/dossiers/${res.body.plan_id}/verify`, { method: 'POST', headers: analyst })).body.valid, true);
    assert.ok(!detail.body.artifacts.some((a: { name: string }) => a.name.endsWith('evidence.wacz')), 'a scan that has not ended has no evidence bundle yet');

    // Once the scan has ended, a dossier also carries its signed evidence bundle, and the scan's
    // chain of custody records the export to this dossier.
    await setInvestigationState(testKnex(), scanId, { state: 'COMPLETE', status: 'completed' });
    const ended = await plan({ title: `Ended scan ${tag}`, scan_ids: [scanId] });
    assert.equal(ended.status, 202, ended.text);
    assert.equal((await ready(ended.body.plan_id)).status, 'completed');
    const wacz = await download(ended.body.plan_id, `${base}/evidence.wacz`);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-dossier-wacz-')), 'evidence.wacz');
    fs.writeFileSync(file, wacz.bytes);
    const verdict = await verifyPackage(file);
    assert.equal(verdict.valid, true, JSON.stringify(verdict.problems));
    assert.ok(verdict.artifacts.some((a) => a.name === 'archive/data.warc.gz'));
    const custody = await testKnex()('evidence_custody').where({ subject_kind: 'investigation', subject_id: scanId, action: 'export' });
    assert.deepEqual(custody.map((c) => [c.actor, c.purpose]), [[`dossier:${ended.body.plan_id}`, `dossier ${ended.body.plan_id}`]]);
  });

  it('lists dossiers newest first, filtered by case_id and status, page by page', async () => {
    const knex = testKnex();
    const theCase = await createCase(knex, { title: `List case ${randomUUID().slice(0, 8)}` }, users.analyst);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await plan({ title: `List ${n}`, case_id: theCase.id, sections: ['case'] });
      assert.equal(res.status, 202, res.text);
      ids.push(res.body.plan_id);
    }
    for (const id of ids) assert.equal((await ready(id)).status, 'completed');
    const page1 = await http(`${url}/reports/dossiers?case_id=${theCase.id}&status=ready&limit=2`, { headers: analyst });
    assert.equal(page1.status, 200, page1.text);
    assert.equal(page1.body.items.length, 2);
    const page2 = await http(`${url}/reports/dossiers?case_id=${theCase.id}&status=ready&limit=2&cursor=${page1.body.next_cursor}`, { headers: analyst });
    assert.equal(page2.body.next_cursor, null);
    const seen = [...page1.body.items, ...page2.body.items].map((d: { id: string }) => d.id);
    assert.deepEqual(seen, [...ids].reverse());
    const failed = await http(`${url}/reports/dossiers?case_id=${theCase.id}&status=failed`, { headers: analyst });
    assert.deepEqual(failed.body.items, []);
    const sectionOnly = await http(`${url}/reports/dossiers/${ids[0]}`, { headers: analyst });
    assert.deepEqual(sectionOnly.body.artifacts.map((a: { name: string }) => a.name), ['case/case.json', 'case/case.md']);
    assert.equal((await http(`${url}/reports/dossiers?status=bogus`, { headers: analyst })).status, 400);
    assert.equal((await http(`${url}/reports/dossiers`, { headers: asUser(users.researcher) })).status, 403);
  });
});
