// Checked as a court's expert would: every wallet an investigation reports must be in its evidence.
// A real investigation (worker, Chromium, API) of a coin-tab exchange whose addresses arrive by XHR
// after each click (one of them late) and whose panel is rebuilt by script, with a delayed reveal
// and an address in an iframe; the evidence bundle is downloaded, unpacked, and every reported
// address looked for in its records. The same scan checks the archive's limits: a 3 MB body kept
// whole, a 6 MB one (over the 4 MB set here) kept in part, marked and recorded.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WARCParser } from 'warcio';
import { closeEvidenceBrowsers } from '../../services/evidence/investigation-report-pdf';
import { http } from '../support/http';
import { startInvestigationStack, waitForScanEnd } from '../support/investigation-stack';
import { closeAfterTestRun } from '../support/platform';
import type { ScamSiteFixture } from '../support/scam-site-fixture';
import { waczValidate } from '../support/wacz';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const unzipper = require('unzipper') as { Open: { file(p: string): Promise<{ files: Array<{ path: string; type: string; buffer(): Promise<Buffer> }> }> } };

interface WarcRecordRead {
  type: string;
  url: string;
  truncated: string | null;
  contentType: string | null;
  payload: Buffer;
}

const MB = 1024 * 1024;

describe('the evidence holds every reported wallet (XHR after clicks, rebuilt panels, delays, frames) and every response, within documented limits', function () {
  this.timeout(300_000);
  let site: ScamSiteFixture;
  let url: string;
  let analyst: Record<string, string>;
  let inv: { wallets: Array<{ address: string }>; agent_actions: Array<{ action: string; target: string; outcome: string }> };
  const records: WarcRecordRead[] = [];
  const files = new Map<string, Buffer>();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-capture-test-'));

  before(async () => {
    ({ site, url, analyst } = await startInvestigationStack('cap', {}, { SVC_SSI__MAX_RESPONSE_BODY_MB: '4' }));
    closeAfterTestRun(closeEvidenceBrowsers);
    const start = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}/xhr-deposit`, label: 'capture', options: { max_pages: 3, page_timeout_s: 30 } } });
    assert.equal(start.status, 202, start.text);
    const done = await waitForScanEnd(url, start.body.status_url, analyst);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    const d = await http(`${url}/investigations/ssi/${start.body.scan_id}`, { headers: analyst });
    assert.equal(d.status, 200, d.text);
    inv = d.body;

    const file = path.join(tmp, 'bundle.wacz');
    const res = await fetch(`${url}/investigations/ssi/${start.body.scan_id}/evidence-bundle?purpose=expert%20check`, { headers: analyst });
    assert.equal(res.status, 200);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const validation = await waczValidate(file);
    assert.equal(validation.code, 0, validation.output);
    for (const f of (await unzipper.Open.file(file)).files) if (f.type === 'File') files.set(f.path, await f.buffer());
    fs.writeFileSync(path.join(tmp, 'data.warc.gz'), files.get('archive/data.warc.gz')!);
    for await (const record of new WARCParser(fs.createReadStream(path.join(tmp, 'data.warc.gz')))) {
      const type = record.warcType ?? '';
      records.push({
        type, url: record.warcTargetURI ?? '', truncated: record.warcHeaders.headers.get('WARC-Truncated') ?? null,
        contentType: record.warcHeaders.headers.get('Content-Type') ?? null, payload: Buffer.from(await record.readFully(false)),
      });
    }
  });
  after(async () => {
    await site?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('finds every reported wallet in the archive: XHR answers as WARC responses, after-reveal DOM snapshots as resource records', () => {
    const reported = inv.wallets.map((w) => w.address);
    const w = site.wallets;
    // The fixture works: the agent reported what the clicks, the delay and the frame revealed.
    for (const expected of [...Object.values(w.xhr), w.delayed, w.frame]) assert.ok(reported.includes(expected), `${expected} reported (${reported})`);

    const archived = [
      ...records.filter((r) => r.type === 'response' || r.type === 'resource').map((r) => ({ where: `${r.type} ${r.url}`, text: r.payload.toString('utf8') })),
      ...[...files].filter(([p]) => /^(dom|reveals)\/.*\.html$/.test(p)).map(([p, b]) => ({ where: p, text: b.toString('utf8') })),
    ];
    const missing = reported.filter((address) => !archived.some((a) => a.text.includes(address)));
    assert.deepEqual(missing, [], `reported wallets nowhere in the evidence: ${missing.join(', ')}`);

    for (const [coin, address] of Object.entries(w.xhr)) {
      const answer = records.find((r) => r.type === 'response' && r.url === `${site.origin}/api/deposit-address?coin=${coin}`);
      assert.ok(answer, `the XHR answer for ${coin} is a WARC response record`);
      assert.equal(JSON.parse(answer.payload.toString('utf8')).address, address);
      assert.ok(records.some((r) => r.type === 'request' && r.url === answer.url), `its request record for ${coin}`);
      const label = coin === 'USDT' ? 'usdt-trc20' : coin.toLowerCase();
      const dom = records.find((r) => r.type === 'resource' && new RegExp(`:reveal-\\d{4}-coin-tab-${label}\\.html$`).test(r.url));
      assert.ok(dom, `an after-reveal DOM snapshot of coin tab ${coin} (${records.filter((r) => r.type === 'resource').map((r) => r.url)})`);
      assert.equal(dom.contentType, 'text/html');
      assert.ok(dom.payload.toString('utf8').includes(address), `the DOM after clicking ${coin} shows its address`);
      const shot = [...files.keys()].find((p) => new RegExp(`^reveals/reveal-\\d{4}-coin-tab-${label}\\.png$`).test(p));
      assert.ok(shot, `an after-reveal screenshot of coin tab ${coin}`);
      assert.equal(files.get(shot)!.subarray(1, 4).toString('latin1'), 'PNG');
      assert.ok(records.some((r) => r.type === 'resource' && r.url.endsWith(shot.slice('reveals/'.length)) && r.contentType === 'image/png'), `the screenshot is a WARC resource record too`);
    }
    // Exchanges after the reveal's capture (the beacon after the last click) are archived too.
    const seen = records.filter((r) => r.type === 'response' && r.url.startsWith(`${site.origin}/api/deposit-seen?coin=`)).map((r) => JSON.parse(r.payload.toString('utf8')).seen as string);
    assert.ok(seen.includes('TRX'), `the beacon after the last click is in the WARC: ${seen}`);
    // The frame's document is archived with its address.
    assert.ok(records.some((r) => r.type === 'response' && r.url === `${site.origin}/frame-inner` && r.payload.toString('utf8').includes(w.frame)));
    const reveals = inv.agent_actions.filter((a) => a.action === 'capture_reveal');
    assert.ok(reveals.length >= 4, `a capture_reveal action per click: ${JSON.stringify(reveals)}`);
    const manifest = JSON.parse(files.get('datapackage.json')!.toString('utf8')) as { resources: Array<{ path: string }> };
    assert.ok(manifest.resources.some((r) => /^reveals\/reveal-\d{4}-coin-tab-btc\.html$/.test(r.path)), 'the after-reveal records are listed (and signed) in the manifest');
  });

  it('archives a 3 MB body whole, and marks and records one over the per-response limit', () => {
    const big = records.find((r) => r.type === 'response' && r.url === `${site.origin}/api/big.txt`);
    assert.ok(big, 'the 3 MB response is archived');
    assert.equal(big.payload.length, 3 * MB);
    assert.equal(big.truncated, null);
    assert.ok(big.payload.toString('latin1').endsWith(site.bigBodyEnd));

    const huge = records.find((r) => r.type === 'response' && r.url === `${site.origin}/api/huge.txt`);
    assert.ok(huge, 'the 6 MB response is archived');
    assert.equal(huge.truncated, 'length', 'marked WARC-Truncated: length');
    assert.equal(huge.payload.length, 4 * MB, 'its first 4 MB are kept');
    const har = [...files].filter(([p]) => p.startsWith('har/')).flatMap(([, b]) => (JSON.parse(b.toString('utf8')) as { log: { entries: Array<{ request: { url: string }; _truncated?: string; _truncatedReason?: string }> } }).log.entries);
    const harEntry = har.find((e) => e.request.url === huge.url);
    assert.equal(harEntry?._truncated, 'length');
    assert.equal(har.find((e) => e.request.url === big.url)?._truncated, undefined);

    const recorded = inv.agent_actions.filter((a) => a.action === 'archive_truncated');
    // One action per fetch of it (the page is loaded again for its coin tabs), none for anything else.
    assert.ok(recorded.length >= 1, 'the truncation is recorded as an agent action');
    for (const a of recorded) {
      assert.equal(a.target, huge.url);
      assert.match(a.outcome, /longer than the 4 MB archived per response; its first 4 MB are kept/);
    }
    assert.equal(records.filter((r) => r.type === 'response' && r.truncated).length, recorded.length, 'each truncated record has its action');
    const provenance = JSON.parse(files.get('provenance/provenance.json')!.toString('utf8')) as { truncated_responses: Array<{ url: string; reason: string }> };
    assert.deepEqual(provenance.truncated_responses.map((t) => `${t.url} ${t.reason}`).sort(), recorded.map((a) => `${a.target} ${a.outcome}`).sort(), 'the bundle itself says which bodies were cut and why');
  });
});
