// `fip ssi wallet ...` end to end: spawns `node bin/fip.js` and checks exit codes and JSON output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sentCandidates, startFakeAnthropicServer } from '../support/fake-anthropic-server';
import { makeAddresses } from '../support/wallet-address-factory';
import { promisedAllowlistPairs, promisedNetworkCount } from '../support/doc-promises';
import { runFip } from '../support/wallet-test-io';

const a = makeAddresses(31);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-wallet-cli-'));
const page = path.join(dir, 'page.html');
fs.writeFileSync(page, `<html><body><div class="tab">USDT-TRC20</div>
<p>Deposit address <button data-clipboard-text="${a.tron}">Copy</button></p>
<p><a href="bitcoin:${a.btcSegwit}?amount=0.1">Pay</a></p>
<p>build 3f1b149d07e7e8636636b8b7f7043c40ed64a10b28986181fb046c498432c2d4</p>
<p>${'<span>filler</span>'.repeat(40)}</p><p>DOGE ${a.doge}</p></body></html>`);

describe('fip ssi wallet (CLI)', function () {
  this.timeout(60000);

  it('validate: exit 0 with networks for a valid address, 1 for an invalid one, 2 on usage errors', async () => {
    let r = await runFip(['ssi', 'wallet', 'validate', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { valid: boolean; matches: Array<{ network_id: string; checksum: string; tokens: string[] }> };
    assert.equal(json.valid, true);
    assert.ok(json.matches.some((m) => m.network_id === 'ethereum' && m.checksum === 'EIP-55' && m.tokens.includes('USDT')));
    r = await runFip(['ssi', 'wallet', 'validate', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /invalid/);
    r = await runFip(['ssi', 'wallet', 'validate', 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', '--network', 'bitcoin']);
    assert.equal(r.code, 1);
    r = await runFip(['ssi', 'wallet', 'validate', 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', '--network', 'TRX']);
    assert.equal(r.code, 0);
    r = await runFip(['ssi', 'wallet', 'validate', 'x', '--network', 'nonsense']);
    assert.equal(r.code, 2);
    r = await runFip(['ssi', 'wallet', 'validate']);
    assert.equal(r.code, 2);
  });

  it('scan --json --no-llm: array of {address, token, network, confidence, source, network_basis, token_basis, memo}', async () => {
    const r = await runFip(['ssi', 'wallet', 'scan', page, '--json', '--no-llm']);
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<Record<string, string>>;
    assert.deepEqual(rows.map((x) => Object.keys(x).sort()), rows.map(() => ['address', 'confidence', 'memo', 'network', 'network_basis', 'source', 'token', 'token_basis']));
    const tron = rows.find((x) => x.address === a.tron);
    assert.deepEqual(tron, { address: a.tron, token: 'USDT', network: 'Tron', confidence: 'high', source: 'attr:data-clipboard-text', network_basis: 'format', token_basis: 'context', memo: null });
    assert.equal(rows.find((x) => x.address === a.btcSegwit)?.source, 'uri:bitcoin');
    assert.ok(rows.some((x) => x.address === a.doge && x.network === 'Dogecoin'));
    assert.equal(rows.length, 3);
    assert.match(r.stderr, /scanned .* 3 wallet/);
  });

  it('scan --no-llm loads neither the Anthropic SDK nor the database and Temporal clients', async () => {
    const guard = path.join(dir, 'no-heavy-modules.cjs');
    fs.writeFileSync(guard, `const M = require('node:module'); const load = M._load;
M._load = function (request, ...rest) { if (/^(@anthropic-ai\\/sdk|@temporalio\\/client|knex|pg)$/.test(request)) throw new Error('loaded by a scan: ' + request); return load.call(this, request, ...rest); };`);
    const r = await runFip(['ssi', 'wallet', 'scan', page, '--json', '--no-llm'], { env: { NODE_OPTIONS: `--require ${guard}`, ANTHROPIC_API_KEY: 'set-but-disabled' } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as unknown[]).length, 3);
    // The guard does bite: a command that needs the database loads pg.
    const db = await runFip(['ssi', 'wallet', 'export', '00000000-0000-4000-8000-000000000000', '--format', 'csv'], { env: { NODE_OPTIONS: `--require ${guard}` } });
    assert.notEqual(db.code, 0);
    assert.match(db.stderr, /loaded by a scan: (pg|knex)/);
  });

  it('scan - reads stdin; --all lists removed candidates with the reason', async () => {
    const r = await runFip(['ssi', 'wallet', 'scan', '-', '--json', '--all', '--no-llm'], { input: `wallet ${a.evm}\ncommit 0xfeb4151394fbf7bf54b43056d4b17187dc31cf88 wallet\nexample 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\n` });
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<{ address: string; status: string; reason: string | null }>;
    assert.equal(rows.find((x) => x.address === a.evm)?.status, 'kept');
    assert.match(rows.find((x) => x.address === '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')?.reason ?? '', /EIP-55 test vector/);
    assert.match(rows.find((x) => x.address.startsWith('0xfeb4'))?.reason ?? '', /hash\/commit\/tx/);
  });

  it('scan with ANTHROPIC_API_KEY asks the (fake) Messages API once; --no-llm does not', async () => {
    const server = await startFakeAnthropicServer();
    try {
      server.setHandler((req) => ({ toolInput: { candidates: sentCandidates(req).map((c) => ({ id: c.id, role: 'not_an_address', network: null, token: null, evidence: '', confidence: 0.9 })) } }));
      const env = { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, SVC_SSI__LLM_MODEL: 'claude-fake' };
      let r = await runFip(['ssi', 'wallet', 'scan', '-', '--json'], { input: `send ${a.evm} and DOGE ${a.doge}`, env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0].model, 'claude-fake');
      const rows = JSON.parse(r.stdout) as Array<{ address: string }>;
      assert.deepEqual(rows.map((x) => x.address), [a.doge], 'the LLM dropped the low-confidence EVM candidate; the checksummed DOGE address with context stays');
      r = await runFip(['ssi', 'wallet', 'scan', '-', '--json', '--no-llm'], { input: `send ${a.evm}`, env });
      assert.equal(server.requests.length, 1);
      assert.equal((JSON.parse(r.stdout) as unknown[]).length, 1);
    } finally {
      await server.close();
    }
  });

  it('starts from the transpile cache: a second start does not transpile (esbuild is never loaded)', async () => {
    const cacheDir = fs.mkdtempSync(path.join(dir, 'ts-cache-'));
    const guard = path.join(dir, 'no-esbuild.cjs');
    fs.writeFileSync(guard, `const M = require('node:module'); const load = M._load;
M._load = function (request, ...rest) { if (request === 'esbuild' || request === 'tsx/cjs/api' || request === 'tsx/esm/api') throw new Error('transpiler loaded: ' + request); return load.call(this, request, ...rest); };`);
    const first = await runFip(['ssi', 'wallet', 'validate', a.tron], { env: { FIP_TS_CACHE_DIR: cacheDir } });
    assert.equal(first.code, 0, first.stderr);
    assert.ok(fs.readdirSync(cacheDir).filter((f) => f.endsWith('.js')).length > 5, 'the first start fills the cache');
    const second = await runFip(['ssi', 'wallet', 'validate', a.tron, '--json'], { env: { FIP_TS_CACHE_DIR: cacheDir, NODE_OPTIONS: `--require ${guard}` } });
    assert.equal(second.code, 0, second.stderr);
    assert.equal((JSON.parse(second.stdout) as { valid: boolean }).valid, true);
  });

  it('networks --json lists exactly the networks the documentation promises (254: 46 and the Cosmos-SDK chains of the registry), each with patterns and a checksum kind', async () => {
    const r = await runFip(['ssi', 'wallet', 'networks', '--json']);
    assert.equal(r.code, 0);
    const nets = JSON.parse(r.stdout) as Array<{ id: string; patterns: string[]; checksum: string }>;
    assert.equal(promisedNetworkCount(), 254);
    assert.equal(nets.length, promisedNetworkCount());
    assert.equal(new Set(nets.map((n) => n.id)).size, nets.length, 'network ids are distinct');
    for (const n of nets) {
      assert.ok(n.patterns.length > 0 && n.checksum.length > 0, n.id);
      for (const p of n.patterns) assert.doesNotThrow(() => new RegExp(p));
    }
  });

  it('allowlist --json prints the 286 shipped pairs; an invalid file fails with exit 1 naming the entry', async () => {
    let r = await runFip(['ssi', 'wallet', 'allowlist', '--json']);
    assert.equal(r.code, 0);
    assert.equal((JSON.parse(r.stdout) as { pairs: unknown[] }).pairs.length, promisedAllowlistPairs());
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, '{"version":1,"pairs":[{"token":"BTC","network":"bitcoin"},{"token":"USDT"}]}');
    r = await runFip(['ssi', 'wallet', 'allowlist'], { env: { SVC_SSI__ALLOWLIST_PATH: bad } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /pairs\[1\]\.network/);
    r = await runFip(['ssi', 'wallet', 'scan', page, '--no-llm'], { env: { SVC_SSI__ALLOWLIST_PATH: bad } });
    assert.equal(r.code, 1);
  });

  it('export: usage errors exit 2', async () => {
    let r = await runFip(['ssi', 'wallet', 'export', 'scan-1', '--format', 'pdf']);
    assert.equal(r.code, 2);
    r = await runFip(['ssi', 'wallet', 'export', 'scan-1']);
    assert.equal(r.code, 2);
  });

  it('scan of a missing file exits 1', async () => {
    const r = await runFip(['ssi', 'wallet', 'scan', path.join(dir, 'missing.html')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no such file/);
  });
  it('scan --json piped into another process: the whole JSON of 100 wallets arrives (more than the 64 KiB a pipe buffers)', () => {
    const rows: string[] = [];
    const wallets: string[] = [];
    const decoys: string[] = [];
    for (let i = 0; i < 100; i++) {
      const w = makeAddresses(7000 + i);
      wallets.push(w.tron);
      // Four copies with a broken checksum each, so that --all prints well over 64 KiB.
      const broken = ['1', '2', '3', '4'].map((k) => w.tron.slice(0, -1) + (w.tron.endsWith(k) ? 'A' : k));
      decoys.push(...broken);
      rows.push(`<p>USDT (TRC20) deposit address: <button data-clipboard-text="${w.tron}">${w.tron}</button></p><p>Old (do not use): ${broken.join(' ')}</p>`);
    }
    const big = path.join(dir, 'hundred.html');
    fs.writeFileSync(big, `<html><body>${rows.join('\n')}</body></html>`);
    // The reader is a second process started by the shell: slower to start than the scan, so the pipe fills.
    const reader = "let s='';process.stdin.setEncoding('utf8').on('data',(d)=>{s+=d}).on('end',()=>{process.stdout.write(JSON.stringify({bytes:Buffer.byteLength(s),rows:JSON.parse(s)}))})";
    const fip = path.resolve(__dirname, '../../bin/fip.js');
    for (let run = 0; run < 3; run++) {
      const r = spawnSync('sh', ['-c', `"${process.execPath}" "${fip}" ssi wallet scan "${big}" --json --no-llm --all | "${process.execPath}" -e "${reader}"`], { encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: '' } });
      assert.equal(r.status, 0, r.stderr);
      const got = JSON.parse(r.stdout) as { bytes: number; rows: Array<{ address: string; status: string }> };
      assert.ok(got.bytes > 65_536, `only ${got.bytes} bytes`);
      assert.deepEqual(got.rows.filter((x) => x.status === 'kept').map((x) => x.address).sort(), [...wallets].sort());
      const rejected = new Set(got.rows.filter((x) => x.status === 'rejected').map((x) => x.address));
      assert.deepEqual(decoys.filter((d) => !rejected.has(d)), []);
    }
  });
});
