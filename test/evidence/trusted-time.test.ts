// RFC 3161 trusted time on a signed package, against a loopback time-stamping authority (openssl
// ts -reply behind node's HTTP server, a throwaway CA): the token sits beside the manifest, OpenSSL
// verifies it as VERIFY.txt says, `fip evidence verify` prints the vouched time, a changed manifest
// byte breaks it, and a package without an authority (none configured, none answering) says so.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AppConfig } from '../../config/config';
import { type ManifestSigner } from '../../domain/evidence/package-manifest';
import { publicKeyPem, signingKeyId, signMessage } from '../../domain/evidence/signing-key';
import { readTimestampFile, timestampRequest } from '../../domain/evidence/timestamp-token';
import { signedZipStream } from '../../infra/signed-zip-writer';
import { requestTimestamp } from '../../infra/timestamp-authority';
import { verifyPackage } from '../../services/evidence/evidence-verification';
import { stampManifest, trustedTimeStatement, type Stamp } from '../../services/evidence/trusted-time';
import { freePort } from '../support/free-port';
import { testConfig } from '../support/platform';
import { runCli } from '../support/run-cli';
import { startLoopbackTsa, type LoopbackTsa } from '../support/tsa-server';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const unzipper = require('unzipper') as { Open: { file(p: string): Promise<{ files: Array<{ path: string; type: string; buffer(): Promise<Buffer> }> }> } };

// One platform key for the whole file; the CLI is told to trust it (--public-key), as a recipient would be.
const platformKey = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const platformKeyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-tsa-key-')), 'platform-key.pem');
fs.writeFileSync(platformKeyFile, publicKeyPem(platformKey.publicKey));
const trustKey = ['--public-key', platformKeyFile];

function signer(): ManifestSigner {
  return { keyId: signingKeyId(platformKey.publicKey), publicKeyPem: publicKeyPem(platformKey.publicKey), sign: (m) => signMessage(platformKey.privateKey, m) };
}

const evidenceConfig = (tsaUrls: string[], timeoutMs = 2000) => ({ evidence: { tsa_url: tsaUrls, tsa_timeout_ms: timeoutMs } }) as unknown as Pick<AppConfig, 'evidence'>;

let lastStamp: Stamp | null = null;

async function writePackage(config: Pick<AppConfig, 'evidence'>, dir: string, embedInDigest = false): Promise<string> {
  const file = path.join(dir, 'package.zip');
  const stream = signedZipStream([{ path: 'files/a.txt', open: () => Buffer.from('the evidence\n') }, { path: 'files/b.bin', open: () => Readable.from([Buffer.alloc(70_000, 7)]) }], {
    date: new Date('2026-11-01T00:00:00Z'),
    signer: signer(),
    manifest: { software: 'test', extras: { trusted_time: trustedTimeStatement(config) } },
    timestamp: {
      stamp: async (manifestBytes) => {
        lastStamp = await stampManifest(config, manifestBytes);
        return lastStamp.token;
      },
      embedInDigest,
    },
  });
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  fs.writeFileSync(file, Buffer.concat(chunks));
  const out = path.join(dir, 'unpacked');
  for (const f of (await unzipper.Open.file(file)).files) {
    if (f.type !== 'File') continue;
    fs.mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
    fs.writeFileSync(path.join(out, f.path), await f.buffer());
  }
  return out;
}

const opensslVerify = (dir: string, caFile: string) =>
  spawnSync('openssl', ['ts', '-verify', '-data', 'datapackage.json', '-in', 'timestamp.tsr', '-CAfile', caFile], { cwd: dir, encoding: 'utf8' });

describe('trusted time (RFC 3161) on signed packages', function () {
  this.timeout(60_000);
  let tsa: LoopbackTsa;
  let other: LoopbackTsa;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-tsa-test-'));
  const sub = (name: string) => fs.mkdtempSync(path.join(tmp, `${name}-`));

  before(async () => {
    tsa = await startLoopbackTsa();
    other = await startLoopbackTsa();
  });
  after(async () => {
    await tsa?.close();
    await other?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(() => {
    tsa.mode = 'ok';
    other.mode = 'ok';
  });

  it('reads SVC_EVIDENCE__TSA_URL as comma-separated http(s) URLs in order, and refuses anything else', () => {
    const config = testConfig({ SVC_EVIDENCE__TSA_URL: ' http://127.0.0.1:1/a , https://tsa.example/b ', SVC_EVIDENCE__TSA_TIMEOUT_MS: '2500' });
    assert.deepEqual(config.evidence.tsa_url, ['http://127.0.0.1:1/a', 'https://tsa.example/b']);
    assert.equal(config.evidence.tsa_timeout_ms, 2500);
    assert.deepEqual(testConfig().evidence.tsa_url, []);
    assert.throws(() => testConfig({ SVC_EVIDENCE__TSA_URL: 'ftp://tsa.example/' }), /TSA_URL|tsa_url/i);
  });

  it('the request is one OpenSSL reads as a SHA-256 query with a nonce and certReq', () => {
    const q = path.join(tmp, 'q.tsq');
    fs.writeFileSync(q, timestampRequest(Buffer.alloc(32, 0xab), Buffer.from('0102030405060708', 'hex')));
    const text = execFileSync('openssl', ['ts', '-query', '-in', q, '-text'], { encoding: 'utf8' });
    assert.match(text, /Hash Algorithm: sha256/);
    assert.match(text, /AB AB AB AB|ab ab ab ab|abababab/i);
    assert.match(text, /Nonce: 0x0102030405060708/);
    assert.match(text, /Certificate required: yes/);
  });

  it('carries a token over the manifest that OpenSSL verifies with the CA, and fip evidence verify prints its time', async () => {
    const dir = await writePackage(evidenceConfig([tsa.url]), sub('stamped'));
    const status = lastStamp!.status as { status: string; gen_time: string };
    assert.equal(status.status, 'stamped');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'datapackage.json'), 'utf8'));
    assert.equal(manifest.extras.trusted_time.rfc3161, true);
    assert.ok(!manifest.resources.some((r: { path: string }) => r.path.startsWith('timestamp')), 'the token is beside the manifest, not in it');

    const ok = opensslVerify(dir, tsa.caFile);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /Verification: OK/);

    const info = readTimestampFile(fs.readFileSync(path.join(dir, 'timestamp.tsr')));
    assert.equal(info.genTime, status.gen_time);
    assert.ok(Math.abs(Date.parse(info.genTime) - Date.now()) < 60_000, info.genTime);

    const verified = await verifyPackage(dir, { tsaCaFile: tsa.caFile });
    assert.equal(verified.valid, true, JSON.stringify(verified.problems));
    assert.deepEqual({ status: verified.timestamp.status, chain: verified.timestamp.chain, gen_time: verified.timestamp.gen_time }, { status: 'stamped', chain: 'verified', gen_time: info.genTime });

    const cli = await runCli(['evidence', 'verify', dir, ...trustKey, '--tsa-ca', tsa.caFile]);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.ok(cli.stdout.includes(`trusted time: ${info.genTime}`), cli.stdout);
    assert.match(cli.stdout, /signature chain verified/);

    // Another authority's CA does not vouch for this token.
    const wrong = await verifyPackage(dir, { tsaCaFile: other.caFile });
    assert.equal(wrong.valid, false);
    assert.ok(wrong.problems.some((p) => p.code === 'timestamp_untrusted'), JSON.stringify(wrong.problems));
    assert.notEqual(opensslVerify(dir, other.caFile).status, 0);
  });

  it('a changed manifest byte fails the token check (and OpenSSL)', async () => {
    const dir = await writePackage(evidenceConfig([tsa.url]), sub('tampered'));
    const file = path.join(dir, 'datapackage.json');
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('"software": "test"') + 14;
    bytes[at] = 'T'.charCodeAt(0);
    fs.writeFileSync(file, bytes);
    const result = await verifyPackage(dir);
    assert.equal(result.valid, false);
    assert.equal(result.timestamp.status, 'invalid');
    assert.ok(result.problems.some((p) => p.file === 'timestamp.tsr' && p.code === 'timestamp_mismatch'), JSON.stringify(result.problems));
    const openssl = opensslVerify(dir, tsa.caFile);
    assert.notEqual(openssl.status, 0);
    assert.match(openssl.stdout + openssl.stderr, /message imprint mismatch/);
    const cli = await runCli(['evidence', 'verify', dir, ...trustKey]);
    assert.equal(cli.code, 1);
    assert.match(cli.stdout, /trusted time: INVALID/);
  });

  it('a changed token byte is named too', async () => {
    const dir = await writePackage(evidenceConfig([tsa.url]), sub('token'));
    const file = path.join(dir, 'timestamp.tsr');
    const bytes = fs.readFileSync(file);
    const imprintAt = bytes.indexOf(readTimestampFile(bytes).imprintSha256.slice(0, 16), 0, 'hex');
    assert.ok(imprintAt > 0);
    bytes[imprintAt] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const result = await verifyPackage(dir);
    assert.equal(result.valid, false);
    assert.ok(result.problems.some((p) => p.file === 'timestamp.tsr'), JSON.stringify(result.problems));
  });

  it('without an authority configured the package says it has no third-party timestamp', async () => {
    const dir = await writePackage(evidenceConfig([]), sub('none'));
    assert.equal(fs.existsSync(path.join(dir, 'timestamp.tsr')), false);
    assert.equal(lastStamp!.status.status, 'not_configured');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'datapackage.json'), 'utf8'));
    assert.equal(manifest.extras.trusted_time.rfc3161, false);
    assert.match(manifest.extras.trusted_time.statement, /^no third-party timestamp/);
    const result = await verifyPackage(dir);
    assert.equal(result.valid, true, JSON.stringify(result.problems));
    assert.equal(result.timestamp.status, 'none');
    assert.match(result.timestamp.statement ?? '', /^no third-party timestamp: no time-stamping authority is configured/);
    const cli = await runCli(['evidence', 'verify', dir, ...trustKey]);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /trusted time: none \(no third-party timestamp/);
  });

  it('an unreachable or failing authority gives way to the next; none answering is stated, not an error', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/tsa`;
    other.mode = 'fail';
    const before = tsa.requests;
    const dir = await writePackage(evidenceConfig([dead, other.url, tsa.url]), sub('fallback'));
    assert.equal(tsa.requests, before + 1);
    const status = lastStamp!.status as { status: string; tsa: string; failed_attempts: Array<{ tsa: string; error: string }> };
    assert.equal(status.status, 'stamped');
    assert.equal(status.tsa, tsa.url);
    assert.deepEqual(status.failed_attempts.map((a: { tsa: string }) => a.tsa), [dead, other.url]);
    assert.match(status.failed_attempts[1].error, /HTTP 500/);
    assert.equal(opensslVerify(dir, tsa.caFile).status, 0);

    tsa.mode = 'fail';
    const none = await writePackage(evidenceConfig([dead, tsa.url]), sub('unavailable'));
    assert.equal(fs.existsSync(path.join(none, 'timestamp.tsr')), false);
    const unavailable = lastStamp!.status as { status: string; attempts: unknown[] };
    assert.equal(unavailable.status, 'unavailable');
    assert.equal(unavailable.attempts.length, 2);
    const result = await verifyPackage(none);
    assert.equal(result.valid, true);
    assert.match(result.timestamp.statement ?? '', /^no third-party timestamp: none of the time-stamping authorities named in the manifest answered/);
    assert.equal(JSON.parse(fs.readFileSync(path.join(none, 'datapackage.json'), 'utf8')).extras.trusted_time.rfc3161, true);
  });

  it('a WACZ carries the token in datapackage-digest.json (its validators refuse unlisted files); the VERIFY.txt extraction gives OpenSSL the token', async () => {
    const dir = await writePackage(evidenceConfig([tsa.url]), sub('wacz'), true);
    assert.equal(fs.existsSync(path.join(dir, 'timestamp.tsr')), false);
    const verified = await verifyPackage(dir, { tsaCaFile: tsa.caFile });
    assert.equal(verified.valid, true, JSON.stringify(verified.problems));
    assert.equal(verified.timestamp.chain, 'verified');
    const extract = spawnSync('sh', ['-c', `sed -n 's/.*"token": "\\([A-Za-z0-9+/=]*\\)".*/\\1/p' datapackage-digest.json | base64 -d > timestamp.tsr`], { cwd: dir });
    assert.equal(extract.status, 0);
    assert.equal(opensslVerify(dir, tsa.caFile).status, 0);
    fs.rmSync(path.join(dir, 'timestamp.tsr'));
    // A changed character of the embedded token is named.
    const digestFile = path.join(dir, 'datapackage-digest.json');
    const text = fs.readFileSync(digestFile, 'utf8');
    const at = text.indexOf('"token": "') + 200;
    fs.writeFileSync(digestFile, text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1));
    const tampered = await verifyPackage(dir, { tsaCaFile: tsa.caFile });
    assert.equal(tampered.valid, false);
    assert.ok(tampered.problems.some((p) => p.file === 'datapackage-digest.json' && p.code.startsWith('timestamp_')), JSON.stringify(tampered.problems));
  });

  it('an authority that does not answer in time is left after the timeout', async () => {
    const port = await freePort();
    const net = await import('node:net');
    const silent = net.createServer(() => undefined).listen(port, '127.0.0.1');
    try {
      const startedAt = Date.now();
      const outcome = await requestTimestamp([`http://127.0.0.1:${port}/`, tsa.url], Buffer.alloc(32, 1), 500);
      assert.equal(outcome.status, 'stamped');
      assert.ok(Date.now() - startedAt < 5000);
      assert.match(outcome.status === 'stamped' ? outcome.attempts[0]!.error : '', /no answer within 500 ms/);
    } finally {
      silent.close();
    }
  });
});
