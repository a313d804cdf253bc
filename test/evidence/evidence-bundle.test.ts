// The evidence bundle of a real scan (fixture site on 127.0.0.1, real Chromium, worker, API):
// a WACZ that Webrecorder's validator accepts, whose WARC warcio reads back record by record, that
// verifies offline, that names every single tampered file, whose captured files are byte-identical
// across downloads, and whose chain of custody grows by one entry per download.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WARCParser } from 'warcio';
import { insertInvestigation } from '../../db/repositories/investigation-repository';
import { evidenceKeyringFor } from '../../infra/evidence-keyring';
import { verifyPackage } from '../../services/evidence-verification';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex } from '../support/platform';
import { startScamSiteFixture, type ScamSiteFixture } from '../support/scam-site-fixture';
import { waczValidate } from '../support/wacz';
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
});
