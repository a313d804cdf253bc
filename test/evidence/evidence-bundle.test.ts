// The evidence bundle of a real scan (fixture site on 127.0.0.1, real Chromium, worker, API):
// a WACZ that Webrecorder's validator accepts, whose WARC warcio reads back record by record, that
// verifies offline, that names every single tampered file, whose captured files are byte-identical
// across downloads, and whose chain of custody grows by one entry per download.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { WARCParser } from 'warcio';
import { insertInvestigation } from '../../db/repositories/investigations/investigation-repository';
import { evidenceKeyringFor } from '../../infra/evidence-keyring';
import { verifyPackage } from '../../services/evidence/evidence-verification';
import { closeEvidenceBrowsers } from '../../services/evidence/investigation-report-pdf';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { closeAfterTestRun, startTestApi, startTestWorker, testKnex } from '../support/platform';
import { startScamSiteFixture, type ScamSiteFixture } from '../support/scam-site-fixture';
import { waczAnonymousVerify, waczValidate } from '../support/wacz';
import { waitFor } from '../support/wait-for';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const unzipper = require('unzipper') as { Open: { file(p: string): Promise<{ files: Array<{ path: string; type: string; buffer(): Promise<Buffer> }> }> } };

async function download(url: string, headers: Record<string, string>, file: string): Promise<Response> {
  const res = await fetch(url, { headers });
  if (res.status === 200) fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return res;
}

async function unzipTo(file: string, dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const f of (await unzipper.Open.file(file)).files) {
    if (f.type !== 'File') continue;
    const bytes = await f.buffer();
    out.set(f.path, bytes);
    fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, f.path), bytes);
  }
  return out;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('evidence bundles of a real scan', function () {
  this.timeout(300_000);
  const queue = `evb-${randomUUID().slice(0, 8)}`;
  let site: ScamSiteFixture;
  let api: Awaited<ReturnType<typeof startTestApi>>;
  let analyst: Record<string, string>;
  let scanId: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-test-'));

  before(async () => {
    site = await startScamSiteFixture();
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_WORKER__INSTANCE: `t-${queue}` };
    await startTestWorker(queue, env);
    api = await startTestApi(env);
    closeAfterTestRun(closeEvidenceBrowsers);
    analyst = asUser((await usersForEveryRole()).analyst);
    const start = await http(`${api.url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}/r1`, label: 'evidence', options: { max_pages: 3, page_timeout_s: 30 } } });
    assert.equal(start.status, 202, start.text);
    scanId = start.body.scan_id;
    const done = await waitFor('investigation ends', async () => {
      const t = await http(`${api.url}/investigations/ssi/${scanId}`, { headers: analyst });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 240_000, 500);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
  });
  after(async () => site?.close());

  it('is a WACZ that wacz validate accepts, whose WARC records warcio reads back, and that verifies offline with the platform key', async () => {
    const file = path.join(tmp, 'one.wacz');
    const res = await download(`${api.url}/investigations/ssi/${scanId}/evidence-bundle?purpose=court%20filing`, analyst, file);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`ssi-${scanId}-evidence\\.wacz`));

    const validation = await waczValidate(file);
    assert.equal(validation.code, 0, validation.output);
    assert.match(validation.output, /Validation succeeded/);
    assert.match(validation.output, /Has signature/, 'py-wacz reads the wacz-auth signedData (its created matches the datapackage)');
    // The anonymous wacz-auth signature, checked outside Node (pyca/cryptography), as the spec describes.
    const anonymous = await waczAnonymousVerify(file);
    assert.equal(anonymous.code, 0, anonymous.output);
    assert.equal(anonymous.verified, true, anonymous.output);
    assert.equal(anonymous.fingerprint, evidenceKeyringFor(api.deps.config).list().find((k) => k.active)!.fingerprint);

    const dir = path.join(tmp, 'one');
    const files = await unzipTo(file, dir);
    const names = [...files.keys()];
    for (const required of ['archive/data.warc.gz', 'indexes/index.cdxj', 'pages/pages.jsonl', 'provenance/provenance.json', 'custody/custody.jsonl', 'datapackage.json', 'datapackage-digest.json']) {
      assert.ok(names.includes(required), `${required} in ${names}`);
    }
    assert.ok(names.some((n) => /^screenshots\/page-\d{4}\.png$/.test(n)) && names.some((n) => /^dom\/page-\d{4}\.html$/.test(n)) && names.some((n) => /^har\/page-\d{4}\.har$/.test(n)));

    // warcio reads every record back; payload digests match the payloads.
    const parser = new WARCParser(fs.createReadStream(path.join(dir, 'archive', 'data.warc.gz')));
    const types: string[] = [];
    let homeBody = '';
    for await (const record of parser) {
      types.push(record.warcType ?? '');
      if (record.warcType === 'response') {
        const payload = Buffer.from(await record.readFully(false));
        const digest = record.warcHeaders.headers.get('WARC-Payload-Digest');
        assert.equal(digest, `sha256:${sha(payload)}`, `payload digest of ${record.warcTargetURI}`);
        if (record.warcTargetURI === `${site.origin}/home`) homeBody = payload.toString('utf8');
      }
    }
    assert.equal(types[0], 'warcinfo');
    assert.ok(types.filter((t) => t === 'response').length >= 4, `responses in ${types}`);
    assert.equal(types.filter((t) => t === 'response').length, types.filter((t) => t === 'request').length);
    assert.ok(homeBody.includes(site.wallets.home), 'the /home response carries the page with its wallet');
    assert.ok(files.get('indexes/index.cdxj')!.toString('utf8').includes(`"url":"${site.origin}/home"`));

    const pagesLines = files.get('pages/pages.jsonl')!.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(pagesLines[0].format, 'json-pages-1.0');
    assert.ok(pagesLines.slice(1).some((p: { url: string; ts: string }) => p.url === `${site.origin}/home` && /Z$/.test(p.ts)));

    const prov = JSON.parse(files.get('provenance/provenance.json')!.toString('utf8'));
    assert.equal(prov.final_url, `${site.origin}/home`);
    assert.deepEqual(prov.crawler.egress_addresses, ['127.0.0.1']);
    assert.ok(prov.crawler.user_agents.length >= 1);
    assert.match(prov.crawler.browser.version, /^\d+\./);
    assert.match(prov.capture.completed_at, /Z$/);
    assert.ok(Array.isArray(prov.blocked_requests) && prov.blocked_requests.length >= 1, 'the fixture canary requests were blocked and are listed');

    const custody = files.get('custody/custody.jsonl')!.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(custody[0].action, 'capture');
    const last = custody.at(-1);
    assert.equal(last.action, 'download');
    assert.equal(last.purpose, 'court filing');
    assert.equal(last.verified, true);
    assert.equal(last.hashes['archive/data.warc.gz'], `sha256:${sha(files.get('archive/data.warc.gz')!)}`);

    const keyring = evidenceKeyringFor(api.deps.config);
    for (const target of [file, dir]) {
      const result = await verifyPackage(target, { trustedKeys: keyring.trustedKeys() });
      assert.deepEqual(result.problems, [], target);
      assert.equal(result.valid, true);
      assert.equal(result.key_id, keyring.activeKeyId());
    }
    const audit = await testKnex()('audit_events').where({ target_type: 'investigation', target_id: scanId, action: 'evidence.download', purpose: 'court filing' });
    assert.equal(audit.length, 1);
  });

  it('names the file when any single byte of any file of the bundle is flipped, one file at a time', async () => {
    const file = path.join(tmp, 'flip.wacz');
    assert.equal((await download(`${api.url}/investigations/ssi/${scanId}/evidence-bundle`, analyst, file)).status, 200);
    const dir = path.join(tmp, 'flip');
    const files = await unzipTo(file, dir);
    const trusted = evidenceKeyringFor(api.deps.config).trustedKeys();
    assert.equal((await verifyPackage(dir, { trustedKeys: trusted })).valid, true);
    assert.ok(files.size >= 12, `files in the bundle: ${[...files.keys()]}`);
    for (const [name, original] of files) {
      for (const at of [0, Math.floor(original.length / 2), original.length - 1]) {
        const tampered = Buffer.from(original);
        tampered[at] ^= 0x01;
        fs.writeFileSync(path.join(dir, name), tampered);
        const result = await verifyPackage(dir, { trustedKeys: trusted });
        assert.equal(result.valid, false, `${name} byte ${at} flipped went unnoticed`);
        assert.ok(result.problems.some((p) => p.file === name), `${name} byte ${at}: problems name ${result.problems.map((p) => p.file)}`);
        assert.equal(result.artifacts.find((a) => a.name === name)?.ok, false, `${name}: artifact verdict`);
      }
      fs.writeFileSync(path.join(dir, name), original);
    }
    assert.equal((await verifyPackage(dir, { trustedKeys: trusted })).valid, true, 'restored, the bundle verifies again');
  });

  it('carries identical bytes for every captured file across two downloads, and the custody log grows by one entry each', async () => {
    assert.equal((await download(`${api.url}/investigations/ssi/${scanId}/evidence-bundle`, analyst, path.join(tmp, 'a.wacz'))).status, 200);
    assert.equal((await download(`${api.url}/investigations/ssi/${scanId}/evidence-bundle`, analyst, path.join(tmp, 'b.wacz'))).status, 200);
    const first = await unzipTo(path.join(tmp, 'a.wacz'), path.join(tmp, 'a'));
    const second = await unzipTo(path.join(tmp, 'b.wacz'), path.join(tmp, 'b'));
    assert.deepEqual([...first.keys()].sort(), [...second.keys()].sort());
    const changing = new Set(['custody/custody.jsonl', 'datapackage.json', 'datapackage-digest.json']);
    for (const [name, bytes] of first) {
      if (changing.has(name)) continue;
      assert.equal(sha(second.get(name)!), sha(bytes), `${name} differs between downloads`);
    }
    const lines = (m: Map<string, Buffer>) => m.get('custody/custody.jsonl')!.toString('utf8').trim().split('\n');
    assert.equal(lines(second).length, lines(first).length + 1);
    assert.equal(lines(second).slice(0, -1).join('\n'), lines(first).join('\n'), 'earlier custody entries are unchanged');
    assert.equal(JSON.parse(lines(second).at(-1)!).purpose, 'download');
  });

  it('publishes the signing keys\' fingerprints on a public route and on the LEA referral, public halves only', async () => {
    const keyring = evidenceKeyringFor(api.deps.config);
    const active = keyring.list().find((k) => k.active)!;
    const res = await http(`${api.url}/evidence/signing-keys`);
    assert.equal(res.status, 200, res.text);
    assert.ok(!/PRIVATE KEY/.test(res.text), 'no private key material');
    const first = res.body.items[0];
    assert.deepEqual(
      { key_id: first.key_id, fingerprint: first.fingerprint, algorithm: first.algorithm, active: first.active, public_key: first.public_key },
      { key_id: active.key_id, fingerprint: active.fingerprint, algorithm: 'ecdsa-p384-sha256', active: true, public_key: active.public_key },
    );
    assert.equal(sha(Buffer.from(first.public_key.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64')), first.fingerprint, 'the fingerprint is the SHA-256 of the SPKI DER');
    assert.ok('created_at' in first && 'retired_at' in first);

    const created = await http(`${api.url}/cases`, { method: 'POST', headers: analyst, json: { title: `referral ${randomUUID().slice(0, 8)}` } });
    assert.equal(created.status, 201, created.text);
    const referral = await http(`${api.url}/cases/${created.body.id}/lea-referral`, { method: 'POST', headers: analyst, json: { agency: 'NCA', jurisdiction: 'UK', contact: 'desk@nca.example', status: 'draft' } });
    assert.equal(referral.status, 201, referral.text);
    assert.deepEqual(referral.body.evidence_signing_key, { key_id: active.key_id, fingerprint: active.fingerprint, algorithm: 'ecdsa-p384-sha256' });
    const read = await http(`${api.url}/cases/${created.body.id}/lea-referral`, { headers: analyst });
    assert.equal(read.body.evidence_signing_key.fingerprint, active.fingerprint);
  });

  it('answers 404 for an unknown scan and 409 for a scan that is still running; the custody log refuses UPDATE and DELETE', async () => {
    const unknown = await http(`${api.url}/investigations/ssi/${randomUUID()}/evidence-bundle`, { headers: analyst });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.error.code, 'not_found');
    const running = randomUUID();
    await insertInvestigation(testKnex(), { scanId: running, url: 'http://127.0.0.1:9/x', domain: '127.0.0.1', requestedBy: 'test', playbookId: null, caseId: null, label: null, options: {} });
    const busy = await http(`${api.url}/investigations/ssi/${running}/evidence-bundle`, { headers: analyst });
    assert.equal(busy.status, 409, busy.text);
    await assert.rejects(testKnex()('evidence_custody').where({ subject_id: scanId }).update({ purpose: 'rewritten' }), /append-only/);
    await assert.rejects(testKnex()('evidence_custody').where({ subject_id: scanId }).delete(), /append-only/);
  });

  it('renders the PDF report with Chromium: its text layer holds the final URL, every wallet address and the signing key id; the download is in custody and audit', async () => {
    const res = await fetch(`${api.url}/investigations/ssi/${scanId}/report.pdf?purpose=agency%20briefing`, { headers: analyst });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(res.headers.get('x-content-sha256'), sha(pdf));
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
    const flat = text.replace(/\s+/g, '');
    const keyId = evidenceKeyringFor(api.deps.config).activeKeyId();
    assert.ok(flat.includes(`${site.origin}/home`), 'final URL in the PDF text');
    assert.ok(flat.includes(keyId), `key id ${keyId} in the PDF text`);
    const wallets = (await http(`${api.url}/investigations/ssi/${scanId}`, { headers: analyst })).body.wallets as Array<{ address: string }>;
    assert.ok(wallets.length >= 2, `wallets of the scan: ${wallets.length}`);
    for (const w of wallets) assert.ok(flat.includes(w.address), `wallet ${w.address} in the PDF text`);
    assert.ok(flat.includes('Redirectchain') && flat.includes('Timelineoftheagent'), 'sections present');
    const custody = await testKnex()('evidence_custody').where({ subject_id: scanId, artifact: 'report.pdf', purpose: 'agency briefing' });
    assert.equal(custody.length, 1);
    assert.equal(custody[0].hashes['report.pdf'], `sha256:${sha(pdf)}`);
    assert.equal(custody[0].verified, true);
    assert.equal((await testKnex()('audit_events').where({ target_id: scanId, purpose: 'agency briefing', action: 'evidence.download' })).length, 1);
  });

  it('builds an LEA package that verifies with fip evidence verify, with sha256sum -c and with openssl, and whose inner bundle verifies too', async () => {
    const file = path.join(tmp, 'lea.zip');
    const res = await download(`${api.url}/investigations/ssi/${scanId}/lea-package?purpose=referral`, analyst, file);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    const dir = path.join(tmp, 'lea');
    const files = await unzipTo(file, dir);
    const bundleName = `evidence/ssi-${scanId}-evidence.wacz`;
    for (const required of ['report.pdf', bundleName, 'wallets/wallets.csv', 'wallets/wallets.xlsx', 'custody/custody.jsonl', 'signature/public-key.pem', 'SHA256SUMS', 'VERIFY.txt', 'datapackage.json', 'datapackage-digest.json']) {
      assert.ok(files.has(required), `${required} in ${[...files.keys()]}`);
    }
    const keyring = evidenceKeyringFor(api.deps.config);
    const outer = await verifyPackage(file, { trustedKeys: keyring.trustedKeys() });
    assert.deepEqual(outer.problems, []);
    const inner = await verifyPackage(path.join(dir, bundleName), { trustedKeys: keyring.trustedKeys() });
    assert.deepEqual(inner.problems, []);
    assert.equal(files.get('signature/public-key.pem')!.toString('utf8'), keyring.signer().publicKeyPem);
    const wallets = (await http(`${api.url}/investigations/ssi/${scanId}`, { headers: analyst })).body.wallets as Array<{ address: string }>;
    for (const w of wallets) assert.ok(files.get('wallets/wallets.csv')!.toString('utf8').includes(w.address), `${w.address} in wallets.csv`);
    // findings.json beside the bundle is the bundle's own: the same bytes.
    const innerFiles = await unzipTo(path.join(dir, bundleName), path.join(tmp, 'lea-inner'));
    assert.ok(files.get('findings/findings.json'), 'findings/findings.json in the LEA package');
    assert.ok(files.get('findings/findings.json')!.equals(innerFiles.get('findings/findings.json')!), 'the same findings.json as the bundle inside');
    assert.deepEqual((JSON.parse(files.get('findings/findings.json')!.toString('utf8')) as { wallets: Array<{ address: string }> }).wallets.map((w) => w.address).sort(), wallets.map((w) => w.address).sort());
    assert.ok(files.get('VERIFY.txt')!.toString('utf8').includes('npx fip evidence verify'));
    const custody = files.get('custody/custody.jsonl')!.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(custody.slice(-2).map((c: { action: string; purpose: string }) => [c.action, c.purpose]), [['export', 'referral'], ['download', 'referral']]);

    // Standard tools, as VERIFY.txt tells an agency to use them.
    const sums = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
    assert.equal(sums.status, 0, sums.stdout + sums.stderr);
    assert.match(sums.stdout, /report\.pdf: OK/);
    // VERIFY.txt's own commands, as written, run by bash with the real sha256sum and openssl.
    const verifyTxt = files.get('VERIFY.txt')!.toString('utf8');
    const commands = verifyTxt.split('\n').map((l) => l.trim()).filter((l) => /^(openssl|printf|sed|sha256sum) /.test(l));
    assert.ok(commands.some((c) => c.startsWith('openssl pkey ')) && commands.some((c) => c.startsWith('openssl dgst ')), commands.join('\n'));
    const fingerprint = keyring.list().find((k) => k.active)!.fingerprint;
    assert.ok(!verifyTxt.includes(fingerprint), 'VERIFY.txt does not hand the recipient the fingerprint to compare with');
    assert.match(verifyTxt, /received out of band/);
    const opensslCheck = () => spawnSync('bash', ['-c', ['set -e -o pipefail', ...commands].join('\n')], { cwd: dir, encoding: 'utf8' });
    const ok = opensslCheck();
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /^Verified OK$/m);
    assert.match(ok.stdout, new RegExp(`^${fingerprint}  -$`, 'm'), 'the fingerprint command prints the platform key fingerprint');
    assert.equal(JSON.parse(files.get('datapackage-digest.json')!.toString('utf8')).signature.fingerprint, fingerprint);
    fs.rmSync(path.join(dir, 'digest.txt'));
    fs.rmSync(path.join(dir, 'signature.der'));

    const manifest = path.join(dir, 'datapackage.json');
    fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').replace('"bytes": ', '"bytes":  '));
    const tampered = opensslCheck();
    assert.notEqual(tampered.status, 0, 'openssl rejects a changed manifest');
    assert.match(tampered.stdout + tampered.stderr, /Verification failure/);
    const viaCli = await verifyPackage(dir, { trustedKeys: keyring.trustedKeys() });
    assert.deepEqual(viaCli.problems.map((p) => p.file).filter((f) => f === 'datapackage.json').length, 1);
  });
});
