// Per-finding provenance, checked as an expert would: two real investigations (worker, Chromium,
// API) of the loopback fixture sites: the coin-tab exchange whose addresses arrive by XHR after each
// click and whose panel is rebuilt by script, linking to a page with a delayed reveal and to one
// with an iframe; and the home page with e-mail, Telegram and phone contacts. Each evidence bundle is
// downloaded and unpacked, and every reported wallet (and PII value) must be in the body of the WARC
// record findings.json names, read back with warcio; the detail API must name the same records.
// A scan written directly to the database covers the null answers (still running; a record gone).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { WARCParser } from 'warcio';
import { insertInvestigation, insertPage, setInvestigationState } from '../../db/repositories/investigations/investigation-repository';
import { upsertWallets } from '../../db/repositories/wallets/wallet-repository';
import { closeEvidenceBrowsers } from '../../services/evidence/investigation-report-pdf';
import { createFipClient } from '../../sdk/src';
import { http } from '../support/http';
import { startInvestigationStack, waitForScanEnd } from '../support/investigation-stack';
import { closeAfterTestRun, testKnex } from '../support/platform';
import type { ScamSiteFixture } from '../support/scam-site-fixture';
import { waczValidate } from '../support/wacz';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const unzipper = require('unzipper') as { Open: { file(p: string): Promise<{ files: Array<{ path: string; type: string; buffer(): Promise<Buffer> }> }> } };

interface Provenance {
  warc_record_id: string;
  warc_target_uri: string;
  warc_record_type: string;
  page_url: string;
  state: string;
  step: string;
  screenshot_uri: string | null;
  screenshot_path: string | null;
  screenshot_download_path?: string | null;
}
interface Finding {
  provenance: Provenance | null;
  provenance_reason: string | null;
}
interface WalletFinding extends Finding {
  address: string;
  source: string;
}
interface PiiFinding extends Finding {
  kind: string;
  value: string;
}
interface ScanEvidence {
  scanId: string;
  detail: { wallets: WalletFinding[]; pii: PiiFinding[] };
  findings: { scan_id: string; wallets: WalletFinding[]; pii: PiiFinding[] };
  records: Map<string, { type: string; uri: string; contentType: string | null; payload: Buffer }>;
  files: Map<string, Buffer>;
}

/** The address as the site may write it: hex EVM in any case, every other format as is. */
function holds(payload: Buffer, address: string): boolean {
  const text = payload.toString('latin1');
  return /^0x[0-9a-f]{40}$/i.test(address) ? text.toLowerCase().includes(address.toLowerCase()) : text.includes(address);
}

describe('per-finding provenance: each reported wallet and PII value names the WARC record that holds it', function () {
  this.timeout(600_000);
  let site: ScamSiteFixture;
  let url: string;
  let analyst: Record<string, string>;
  let analystEmail: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-provenance-test-'));
  let xhr: ScanEvidence;
  let home: ScanEvidence;

  async function investigate(start: string, label: string): Promise<string> {
    const res = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}${start}`, label, options: { max_pages: 3, page_timeout_s: 30 } } });
    assert.equal(res.status, 202, res.text);
    const done = await waitForScanEnd(url, res.body.status_url, analyst);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    return res.body.scan_id as string;
  }

  async function bundleFiles(scanId: string, name: string): Promise<Map<string, Buffer>> {
    const file = path.join(tmp, `${name}.wacz`);
    const res = await fetch(`${url}/investigations/ssi/${scanId}/evidence-bundle?purpose=provenance%20check`, { headers: analyst });
    assert.equal(res.status, 200);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const files = new Map<string, Buffer>();
    for (const f of (await unzipper.Open.file(file)).files) if (f.type === 'File') files.set(f.path, await f.buffer());
    return files;
  }

  async function evidenceOf(scanId: string, name: string, validate: boolean): Promise<ScanEvidence> {
    const d = await http(`${url}/investigations/ssi/${scanId}`, { headers: analyst });
    assert.equal(d.status, 200, d.text);
    const files = await bundleFiles(scanId, name);
    if (validate) {
      const validation = await waczValidate(path.join(tmp, `${name}.wacz`));
      assert.equal(validation.code, 0, validation.output);
    }
    const warc = path.join(tmp, `${name}.warc.gz`);
    fs.writeFileSync(warc, files.get('archive/data.warc.gz')!);
    const records: ScanEvidence['records'] = new Map();
    for await (const record of new WARCParser(fs.createReadStream(warc))) {
      const id = record.warcHeaders.headers.get('WARC-Record-ID') ?? '';
      records.set(id, { type: record.warcType ?? '', uri: record.warcTargetURI ?? '', contentType: record.warcHeaders.headers.get('Content-Type') ?? null, payload: Buffer.from(await record.readFully(false)) });
    }
    const findingsFile = files.get('findings/findings.json');
    assert.ok(findingsFile, `findings/findings.json in the bundle (${[...files.keys()].join(', ')})`);
    return { scanId, detail: d.body, findings: JSON.parse(findingsFile.toString('utf8')), records, files };
  }

  before(async () => {
    ({ site, url, analyst, analystEmail } = await startInvestigationStack('prov'));
    closeAfterTestRun(closeEvidenceBrowsers);
    const [xhrScan, homeScan] = [await investigate('/xhr-deposit', 'provenance xhr'), await investigate('/home', 'provenance home')];
    xhr = await evidenceOf(xhrScan, 'xhr', true);
    home = await evidenceOf(homeScan, 'home', false);
  });
  after(async () => {
    await site?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('finds every reported wallet in the body of the WARC record findings.json names (with its URI), for both sites', () => {
    for (const scan of [xhr, home]) {
      assert.ok(scan.detail.wallets.length >= 1, `scan ${scan.scanId} reported wallets`);
      assert.deepEqual(scan.findings.wallets.map((w) => w.address).sort(), scan.detail.wallets.map((w) => w.address).sort(), 'findings.json lists every reported wallet');
      const missing: string[] = [];
      for (const w of scan.findings.wallets) {
        const record = w.provenance ? scan.records.get(w.provenance.warc_record_id) : undefined;
        if (!w.provenance || !record || record.uri !== w.provenance.warc_target_uri || !holds(record.payload, w.address)) {
          missing.push(`${w.address} (${w.source}): ${JSON.stringify(w.provenance ?? w.provenance_reason)}${record ? ` -> ${record.type} ${record.uri}` : ' -> no such record'}`);
        }
      }
      assert.deepEqual(missing, [], `wallets whose named record does not hold them in scan ${scan.scanId}`);
    }
  });

  it('names the XHR answer of each coin-tab click, with the click as the step and the screenshot taken after it', () => {
    for (const [coin, address] of Object.entries(site.wallets.xhr)) {
      const p = xhr.findings.wallets.find((w) => w.address === address)?.provenance;
      assert.ok(p, `${coin} wallet has provenance`);
      assert.equal(p.warc_target_uri, `${site.origin}/api/deposit-address?coin=${coin}`);
      assert.equal(p.warc_record_type, 'response');
      assert.equal(p.page_url, `${site.origin}/xhr-deposit`);
      assert.equal(p.state, 'DISCOVER_COIN_TABS');
      assert.equal(p.step, `click_coin_tab: ${coin === 'USDT' ? 'USDT (TRC20)' : coin}`);
      const label = coin === 'USDT' ? 'usdt-trc20' : coin.toLowerCase();
      assert.match(p.screenshot_path ?? '', new RegExp(`^reveals/reveal-\\d{4}-coin-tab-${label}\\.png$`));
      const shot = [...xhr.records.values()].find((r) => r.type === 'resource' && r.uri === p.screenshot_uri);
      assert.ok(shot, `the screenshot ${p.screenshot_uri} is a WARC resource record`);
      assert.equal(shot.contentType, 'image/png');
      assert.ok(shot.payload.equals(xhr.files.get(p.screenshot_path!)!), 'the record and the bundle file are the same screenshot');
    }
  });

  it('serves the screenshot of each provenance at the path the detail gives (the same bytes as the bundle file), with a custody entry', async () => {
    const shown = xhr.detail.wallets.filter((w) => w.provenance?.screenshot_path);
    assert.ok(shown.length >= 4, `wallets with a screenshot: ${shown.length}`);
    for (const w of shown) {
      const p = w.provenance!;
      assert.ok(p.screenshot_download_path, `a download path for ${p.screenshot_path}`);
      const res = await fetch(`${url}${p.screenshot_download_path}?purpose=provenance%20check`, { headers: analyst });
      assert.equal(res.status, 200, `${p.screenshot_download_path}`);
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(xhr.files.get(p.screenshot_path!)!), `${p.screenshot_download_path} serves ${p.screenshot_path}`);
    }
    const reveal = shown.find((w) => w.provenance!.screenshot_path!.startsWith('reveals/'))!.provenance!;
    const name = reveal.screenshot_path!.slice('reveals/'.length);
    // The SDK's call for it gives the same bytes.
    const fip = createFipClient({ kind: 'core', baseUrl: url, proxyIdentity: { value: `accounts.google.com:${analystEmail}` } });
    const viaSdk = await fip.investigations.revealRecord(xhr.scanId, name, { purpose: 'provenance check' });
    assert.ok(Buffer.from(await new Response(viaSdk.stream).arrayBuffer()).equals(xhr.files.get(reveal.screenshot_path!)!), 'the SDK downloads the same screenshot');
    const custody = await testKnex()('evidence_custody').where({ subject_id: xhr.scanId, artifact: `after-reveal record ${name}` });
    assert.ok(custody.length >= 1, 'the download is in the chain of custody');
    const bad = await http(`${url}/investigations/ssi/${xhr.scanId}/reveals/..%2Fsecret.png`, { headers: analyst });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.details[0].path, 'params.name');
    const unknown = await http(`${url}/investigations/ssi/${xhr.scanId}/reveals/reveal-9999-none.png`, { headers: analyst });
    assert.equal(unknown.status, 404, unknown.text);
  });

  it('names the frame document for the iframe wallet and the DOM snapshot of the page for the delayed one', () => {
    const frame = xhr.findings.wallets.find((w) => w.address === site.wallets.frame)?.provenance;
    assert.ok(frame, 'the iframe wallet has provenance');
    assert.equal(frame.warc_target_uri, `${site.origin}/frame-inner`);
    assert.equal(frame.warc_record_type, 'response');
    assert.equal(frame.page_url, `${site.origin}/frame`);
    // Written reversed in the page's script: only the DOM after the delay holds it as shown.
    const delayed = xhr.findings.wallets.find((w) => w.address === site.wallets.delayed)?.provenance;
    assert.ok(delayed, 'the delayed wallet has provenance');
    assert.equal(delayed.warc_record_type, 'resource');
    assert.match(delayed.warc_target_uri, new RegExp(`^urn:fip:${xhr.scanId}:page-\\d{4}\\.html$`));
    assert.equal(delayed.page_url, `${site.origin}/delayed`);
    assert.equal(delayed.step, 'page capture');
    assert.ok(delayed.screenshot_path && xhr.files.has(delayed.screenshot_path), `the page screenshot ${delayed.screenshot_path} is in the bundle`);
  });

  it('gives the detail API the same provenance as findings.json, and signs findings.json in the manifest', () => {
    for (const scan of [xhr, home]) {
      const byAddress = new Map(scan.findings.wallets.map((w) => [w.address, w]));
      // The detail adds where the API serves the screenshot; everything else is findings.json's.
      const bare = (p: Provenance | null) => (p ? Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'screenshot_download_path')) : p);
      for (const w of scan.detail.wallets) {
        assert.deepEqual({ p: bare(w.provenance), r: w.provenance_reason }, { p: byAddress.get(w.address)?.provenance, r: byAddress.get(w.address)?.provenance_reason }, `wallet ${w.address}`);
      }
      const byPii = new Map(scan.findings.pii.map((p) => [`${p.kind}|${p.value}`, p]));
      assert.equal(scan.detail.pii.length, scan.findings.pii.length);
      for (const p of scan.detail.pii) assert.deepEqual(bare(p.provenance), byPii.get(`${p.kind}|${p.value}`)?.provenance, `pii ${p.kind} ${p.value}`);
      const manifest = JSON.parse(scan.files.get('datapackage.json')!.toString('utf8')) as { resources: Array<{ path: string }> };
      assert.ok(manifest.resources.some((r) => r.path === 'findings/findings.json'), 'findings.json is hashed (and so signed) in the manifest');
    }
  });

  it('finds the e-mail, Telegram and phone contacts of the home page in the body of the records named', () => {
    const kinds = new Set(home.findings.pii.map((p) => p.kind));
    for (const kind of ['email', 'telegram', 'phone']) assert.ok(kinds.has(kind), `a ${kind} finding (${[...kinds]})`);
    for (const p of home.findings.pii) {
      assert.ok(p.provenance, `${p.kind} ${p.value} has provenance (${p.provenance_reason})`);
      const record = home.records.get(p.provenance.warc_record_id);
      assert.ok(record, `its record ${p.provenance.warc_record_id} is in the WARC`);
      const text = record.payload.toString('utf8').toLowerCase();
      const needle = p.kind === 'phone' ? '+44 20 7183 8750' : p.kind === 'telegram' ? p.value.slice(1) : p.value;
      assert.ok(text.includes(needle.toLowerCase()), `${record.uri} holds ${needle}`);
    }
  });

  it('shows in the PDF report, for each wallet, the record that holds it, the page, the step and the screenshot', async () => {
    const res = await fetch(`${url}/investigations/ssi/${xhr.scanId}/report.pdf?purpose=provenance%20check`, { headers: analyst });
    assert.equal(res.status, 200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });
    assert.match(text, /Where each finding was seen/);
    // Table cells wrap long values: compare without white space.
    const flat = text.replace(/\s+/g, '');
    for (const address of Object.values(site.wallets.xhr)) {
      const p = xhr.findings.wallets.find((w) => w.address === address)!.provenance!;
      for (const shown of [p.warc_record_id, p.warc_target_uri, p.step, p.screenshot_path!]) assert.ok(flat.includes(shown.replace(/\s+/g, '')), `the report shows ${shown} for ${address}`);
    }
  });

  it('answers null with the reason while a scan runs, and when a stored record is gone (then keeps nothing, so a later read tries again)', async () => {
    const knex = testKnex();
    const address = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
    const scanId = randomUUID();
    await insertInvestigation(knex, { scanId, url: 'http://192.0.2.30/', domain: '192.0.2.30', requestedBy: 'provenance-test', playbookId: null, caseId: null, label: null, options: {} });
    const gone = { key: `sha256/00/${'0'.repeat(64)}`, sha256: '0'.repeat(64), size: 1 };
    await insertPage(knex, {
      scanId, url: 'http://192.0.2.30/', seq: 0, state: 'CAPTURE', title: 'gone', httpStatus: 200, serverIp: '192.0.2.30', tls: null, responseHeaders: {},
      screenshot: gone, dom: gone, har: gone, capturedAt: new Date(),
    });
    await upsertWallets(knex, scanId, [{ address, token: 'USDT', network: 'tron', confidence: 'high', source: 'dom', pageUrl: 'http://192.0.2.30/' }]);
    const running = await http(`${url}/investigations/ssi/${scanId}`, { headers: analyst });
    assert.equal(running.status, 200, running.text);
    assert.deepEqual(running.body.wallets.map((w: WalletFinding) => [w.address, w.provenance, w.provenance_reason]), [[address, null, 'computed once the investigation has ended, from its final evidence']]);
    await setInvestigationState(knex, scanId, { state: 'COMPLETE', status: 'completed' });
    const ended = await http(`${url}/investigations/ssi/${scanId}`, { headers: analyst });
    assert.equal(ended.status, 200, ended.text);
    const [w] = ended.body.wallets as WalletFinding[];
    assert.equal(w!.provenance, null);
    assert.match(w!.provenance_reason ?? '', /not written as such in any archived record.*2 stored record\(s\) could not be read/);
    assert.equal((await knex('investigation_finding_provenance').where({ scan_id: scanId })).length, 0, 'an incomplete answer is not kept');
  });

  it('writes the same findings.json (and the same record ids) on every download', async () => {
    const again = await bundleFiles(home.scanId, 'home-again');
    assert.ok(again.get('findings/findings.json')!.equals(home.files.get('findings/findings.json')!));
    assert.ok(again.get('archive/data.warc.gz')!.equals(home.files.get('archive/data.warc.gz')!), 'the WARC bytes (and so its record ids) are the same');
  });
});
