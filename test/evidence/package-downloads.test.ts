// The packages an analyst downloads, through the API, with a loopback time-stamping authority
// behind an unreachable one: the evidence bundle, the LEA package and the dossier each carry an
// RFC 3161 token over their manifest that OpenSSL verifies as VERIFY.txt says (a changed manifest
// byte fails it); without an authority the package says it has no third-party timestamp. And every
// download route (bundle, LEA package, PDF, each page artifact, a dossier artifact, the dossier)
// adds exactly one custody entry of its download, with who, why and the hashes.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import packageJson from '../../package.json';
import { createDossierActivities } from '../../activities/dossiers/dossier-activities';
import { insertDossier, insertDossierArtifact } from '../../db/repositories/dossiers/dossier-repository';
import { insertInvestigation, insertPage, setInvestigationState } from '../../db/repositories/investigations/investigation-repository';
import { verifyPackage } from '../../services/evidence/evidence-verification';
import { downloadEvidenceBundle } from '../../services/evidence/evidence-service';
import { closeEvidenceBrowsers } from '../../services/evidence/investigation-report-pdf';
import { freePort } from '../support/free-port';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { closeAfterTestRun, startTestApi, testDeps, testKnex } from '../support/platform';
import { startLoopbackTsa, type LoopbackTsa } from '../support/tsa-server';
import { waczValidate } from '../support/wacz';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const unzipper = require('unzipper') as { Open: { file(p: string): Promise<{ files: Array<{ path: string; type: string; buffer(): Promise<Buffer> }> }> } };

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function unzipTo(bytes: Buffer, dir: string): Promise<string> {
  const file = `${dir}.zip`;
  fs.writeFileSync(file, bytes);
  for (const f of (await unzipper.Open.file(file)).files) {
    if (f.type !== 'File') continue;
    fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, f.path), await f.buffer());
  }
  return dir;
}

const opensslVerify = (dir: string, caFile: string) =>
  spawnSync('openssl', ['ts', '-verify', '-data', 'datapackage.json', '-in', 'timestamp.tsr', '-CAfile', caFile], { cwd: dir, encoding: 'utf8' });

describe('package downloads: trusted time and the chain of custody', function () {
  this.timeout(240_000);
  let tsa: LoopbackTsa;
  let dead: string;
  let api: Awaited<ReturnType<typeof startTestApi>>;
  let analyst: Record<string, string>;
  let analystEmail: string;
  const scanId = randomUUID();
  const planId = randomUUID();
  let pageId: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-downloads-test-'));
  const get = async (url: string) => {
    const res = await fetch(`${api.url}${url}`, { headers: analyst });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  };
  const downloads = async (kind: 'investigation' | 'dossier', id: string) =>
    testKnex()('evidence_custody').where({ subject_kind: kind, subject_id: id, action: 'download' }).orderBy('id');

  before(async () => {
    tsa = await startLoopbackTsa();
    dead = `http://127.0.0.1:${await freePort()}/tsa`;
    api = await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_EVIDENCE__TSA_URL: `${dead},${tsa.url}`, SVC_EVIDENCE__TSA_TIMEOUT_MS: '3000' });
    closeAfterTestRun(closeEvidenceBrowsers);
    analystEmail = (await usersForEveryRole()).analyst;
    analyst = asUser(analystEmail);
    const { knex, blobs } = api.deps;
    await insertInvestigation(knex, { scanId, url: 'http://scam.example/', domain: 'scam.example', requestedBy: 'test', playbookId: null, caseId: null, label: 'tsa', options: {} });
    const put = async (b: Buffer) => {
      const s = await blobs.put(b);
      return { key: s.key, sha256: s.sha256, size: s.size };
    };
    pageId = await insertPage(knex, {
      scanId, url: 'http://scam.example/', seq: 0, state: 'landing', title: 'Scam', httpStatus: 200, serverIp: '192.0.2.1', tls: null, responseHeaders: {},
      screenshot: await put(PNG), dom: await put(Buffer.from('<html><body>send BTC</body></html>')),
      har: await put(Buffer.from(JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [] } }))), capturedAt: new Date(),
    });
    await setInvestigationState(knex, scanId, { state: 'done', status: 'completed', finalUrl: 'http://scam.example/' });
    await insertDossier(knex, { id: planId, title: 'TSA dossier', case_id: null, plan: { title: 'TSA dossier', scan_ids: [scanId] } as never, created_by: 'test' });
    const note = await blobs.put(Buffer.from('{"note": "collected"}\n'));
    await insertDossierArtifact(knex, { dossier_id: planId, name: 'notes/note.json', blob_key: note.key, sha256: note.sha256, bytes: note.size, content_type: 'application/json', source_kind: 'scan', source_id: scanId });
    await createDossierActivities({ ...api.deps, softwareVersion: packageJson.version }).sealDossier({ planId });
  });
  after(async () => {
    await tsa?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the evidence bundle carries a token from the authority that answered (past an unreachable one), which OpenSSL verifies; wacz validate accepts it', async () => {
    const res = await get(`/investigations/ssi/${scanId}/evidence-bundle?purpose=tsa%20check`);
    assert.equal(res.status, 200);
    const dir = await unzipTo(res.body, path.join(tmp, 'bundle'));
    // A WACZ lists every file it holds: the token travels in datapackage-digest.json.
    const digest = JSON.parse(fs.readFileSync(path.join(dir, 'datapackage-digest.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'timestamp.tsr'), Buffer.from(digest.timestamp.token, 'base64'));
    const ok = opensslVerify(dir, tsa.caFile);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    fs.rmSync(path.join(dir, 'timestamp.tsr'));
    const waczCheck = await waczValidate(path.join(tmp, 'bundle.zip'));
    assert.equal(waczCheck.code, 0, waczCheck.output);
    const verified = await verifyPackage(dir, { tsaCaFile: tsa.caFile });
    assert.equal(verified.valid, true, JSON.stringify(verified.problems));
    assert.equal(verified.timestamp.chain, 'verified');
  });

  it('the LEA package carries a token; the openssl line of its VERIFY.txt succeeds, and fails on a changed manifest byte', async () => {
    const res = await get(`/investigations/ssi/${scanId}/lea-package?purpose=referral`);
    assert.equal(res.status, 200);
    const dir = await unzipTo(res.body, path.join(tmp, 'lea'));
    const verifyTxt = fs.readFileSync(path.join(dir, 'VERIFY.txt'), 'utf8');
    const line = verifyTxt.split('\n').map((l) => l.trim()).find((l) => l.startsWith('openssl ts -verify'));
    assert.equal(line, 'openssl ts -verify -data datapackage.json -in timestamp.tsr -CAfile tsa-ca.pem');
    fs.copyFileSync(tsa.caFile, path.join(dir, 'tsa-ca.pem'));
    const run = () => spawnSync('sh', ['-c', line!], { cwd: dir, encoding: 'utf8' });
    const ok = run();
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /Verification: OK/);
    fs.rmSync(path.join(dir, 'tsa-ca.pem'));
    assert.equal((await verifyPackage(dir, { tsaCaFile: tsa.caFile })).valid, true);

    // The evidence bundle inside: VERIFY.txt's extraction line gives OpenSSL its token.
    const inner = await unzipTo(fs.readFileSync(path.join(dir, `evidence/ssi-${scanId}-evidence.wacz`)), path.join(tmp, 'lea-inner'));
    const extract = verifyTxt.split('\n').map((l) => l.trim()).find((l) => l.startsWith('sed -n') && l.includes('"token"'));
    assert.ok(extract, verifyTxt);
    assert.equal(spawnSync('sh', ['-c', extract], { cwd: inner }).status, 0);
    fs.copyFileSync(tsa.caFile, path.join(inner, 'tsa-ca.pem'));
    const innerOk = spawnSync('sh', ['-c', line!], { cwd: inner, encoding: 'utf8' });
    assert.equal(innerOk.status, 0, innerOk.stdout + innerOk.stderr);

    const manifest = path.join(dir, 'datapackage.json');
    const bytes = fs.readFileSync(manifest);
    bytes[bytes.indexOf('"title"') + 1] = 'T'.charCodeAt(0);
    fs.writeFileSync(manifest, bytes);
    fs.copyFileSync(tsa.caFile, path.join(dir, 'tsa-ca.pem'));
    assert.notEqual(run().status, 0);
    fs.rmSync(path.join(dir, 'tsa-ca.pem'));
    const tampered = await verifyPackage(dir);
    assert.equal(tampered.valid, false);
    assert.ok(tampered.problems.some((p) => p.code === 'timestamp_mismatch'), JSON.stringify(tampered.problems));
  });

  it('the sealed dossier carries a token: in its ZIP (OpenSSL verifies it), as a single download and in its verification', async () => {
    const res = await get(`/reports/dossiers/${planId}/download?purpose=agency`);
    assert.equal(res.status, 200);
    const dir = await unzipTo(res.body, path.join(tmp, 'dossier'));
    const ok = opensslVerify(dir, tsa.caFile);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.equal((await verifyPackage(dir, { tsaCaFile: tsa.caFile })).valid, true);
    const single = await get(`/reports/dossiers/${planId}/download/timestamp.tsr`);
    assert.equal(single.status, 200);
    assert.deepEqual(single.body, fs.readFileSync(path.join(dir, 'timestamp.tsr')));
    const verify = await http(`${api.url}/reports/dossiers/${planId}/verify`, { method: 'POST', headers: analyst });
    assert.equal(verify.status, 200, verify.text);
    assert.equal(verify.body.valid, true);
    assert.equal(verify.body.timestamp.status, 'stamped');
    assert.ok(verify.body.timestamp.gen_time);
  });

  it('without an authority configured the bundle says it carries no third-party timestamp', async () => {
    const deps = await testDeps();
    assert.deepEqual(deps.config.evidence.tsa_url, []);
    const { stream } = await downloadEvidenceBundle(deps, null, scanId, 'no tsa');
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    const dir = await unzipTo(Buffer.concat(chunks), path.join(tmp, 'plain'));
    assert.equal(fs.existsSync(path.join(dir, 'timestamp.tsr')), false);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'datapackage-digest.json'), 'utf8')).timestamp, undefined);
    assert.match(JSON.parse(fs.readFileSync(path.join(dir, 'datapackage.json'), 'utf8')).extras.trusted_time.statement, /^no third-party timestamp: no time-stamping authority is configured/);
    const verified = await verifyPackage(dir);
    assert.equal(verified.valid, true);
    assert.equal(verified.timestamp.status, 'none');
    assert.match(verified.timestamp.statement ?? '', /^no third-party timestamp/);
  });

  it('every download route adds exactly one custody entry of its download (who, why, hashes)', async () => {
    const routes: Array<{ url: string; kind: 'investigation' | 'dossier'; id: string; artifact: string; file: string }> = [
      { url: `/investigations/ssi/${scanId}/evidence-bundle`, kind: 'investigation', id: scanId, artifact: 'evidence-bundle', file: 'screenshots/page-0000.png' },
      { url: `/investigations/ssi/${scanId}/report.pdf`, kind: 'investigation', id: scanId, artifact: 'report.pdf', file: 'report.pdf' },
      { url: `/investigations/ssi/${scanId}/lea-package`, kind: 'investigation', id: scanId, artifact: 'lea-package', file: 'report.pdf' },
      { url: `/investigations/ssi/${scanId}/pages/${pageId}/screenshot`, kind: 'investigation', id: scanId, artifact: 'page 0 screenshot', file: 'screenshots/page-0000.png' },
      { url: `/investigations/ssi/${scanId}/pages/${pageId}/dom`, kind: 'investigation', id: scanId, artifact: 'page 0 dom', file: 'dom/page-0000.html' },
      { url: `/investigations/ssi/${scanId}/pages/${pageId}/har`, kind: 'investigation', id: scanId, artifact: 'page 0 har', file: 'har/page-0000.har' },
      { url: `/reports/dossiers/${planId}/download/notes%2Fnote.json`, kind: 'dossier', id: planId, artifact: 'notes/note.json', file: 'notes/note.json' },
      { url: `/reports/dossiers/${planId}/download/datapackage.json`, kind: 'dossier', id: planId, artifact: 'datapackage.json', file: 'datapackage.json' },
      { url: `/reports/dossiers/${planId}/download`, kind: 'dossier', id: planId, artifact: 'dossier.zip', file: 'notes/note.json' },
    ];
    for (const r of routes) {
      const purpose = `custody ${randomUUID().slice(0, 8)}`;
      const before = (await downloads(r.kind, r.id)).length;
      const res = await get(`${r.url}${r.url.includes('?') ? '&' : '?'}purpose=${encodeURIComponent(purpose)}`);
      assert.equal(res.status, 200, `${r.url}: ${res.body.toString('utf8').slice(0, 300)}`);
      const after = await downloads(r.kind, r.id);
      assert.equal(after.length, before + 1, `${r.url} adds exactly one custody entry`);
      const entry = after.at(-1)!;
      assert.deepEqual({ actor: entry.actor, artifact: entry.artifact, purpose: entry.purpose }, { actor: analystEmail, artifact: r.artifact, purpose }, r.url);
      assert.match(entry.hashes[r.file] ?? '', /^sha256:[0-9a-f]{64}$/, `${r.url}: ${JSON.stringify(entry.hashes)}`);
      assert.equal(entry.verified, true, r.url);
    }
    // The scan's chain starts with its capture.
    const chain = await testKnex()('evidence_custody').where({ subject_kind: 'investigation', subject_id: scanId }).orderBy('id');
    assert.equal(chain[0].action, 'capture');
    assert.equal(chain.filter((e: { action: string }) => e.action === 'capture').length, 1);
  });
});
