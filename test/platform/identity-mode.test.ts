import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decideIdentityMode, isLoopbackHost, type IdentityModeInput } from '../../domain/accounts/identity-mode';
import { freePort } from '../support/free-port';

const ROOT = path.resolve(__dirname, '..', '..');

function run(file: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not exit within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('identity mode at start-up', () => {
  const base: IdentityModeInput = { host: '127.0.0.1', trustProxyHeader: true, iapAudience: undefined, allowUnverifiedHeader: false };

  it('treats 127.0.0.0/8, ::1 and localhost as loopback, and nothing else', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '127.255.255.255', '::1', '[::1]', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1']) {
      assert.equal(isLoopbackHost(h), true, h);
    }
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '127.0.0.256', '127.0.0', 'example.org', 'localhost.example.org', '']) {
      assert.equal(isLoopbackHost(h), false, h);
    }
  });

  it('starts without a warning when the identity header is not trusted, on any address', () => {
    for (const host of ['127.0.0.1', '0.0.0.0']) {
      for (const allowUnverifiedHeader of [false, true]) {
        assert.deepEqual(decideIdentityMode({ ...base, host, trustProxyHeader: false, allowUnverifiedHeader }), { start: true, warning: null });
      }
    }
  });

  it('starts without a warning when the header must come with a verified IAP assertion, on any address', () => {
    for (const host of ['127.0.0.1', '0.0.0.0', '10.1.2.3']) {
      assert.deepEqual(decideIdentityMode({ ...base, host, iapAudience: '/projects/1/global/backendServices/2' }), { start: true, warning: null });
    }
  });

  it('starts without a warning when an unverified header is trusted on loopback only', () => {
    for (const host of ['127.0.0.1', '::1', 'localhost']) {
      assert.deepEqual(decideIdentityMode({ ...base, host }), { start: true, warning: null });
    }
  });

  it('refuses an unverified header on a non-loopback address, naming both ways out', () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.5']) {
      const d = decideIdentityMode({ ...base, host });
      assert.equal(d.start, false);
      assert.ok(!d.start);
      assert.match(d.message, new RegExp(`listen on ${host.replace(/\./g, '\\.')}`));
      assert.match(d.message, /SVC_AUTH__IAP_AUDIENCE/);
      assert.match(d.message, /SVC_AUTH__ALLOW_UNVERIFIED_HEADER=true/);
    }
  });

  it('starts with a loud warning when the operator acknowledges the unverified header off loopback', () => {
    const d = decideIdentityMode({ ...base, host: '0.0.0.0', allowUnverifiedHeader: true });
    assert.equal(d.start, true);
    assert.ok(d.start);
    assert.match(d.warning ?? '', /SECURITY WARNING.*0\.0\.0\.0.*any\s+user/s);
  });

  describe('the API process (npm run api)', function () {
    this.timeout(90_000);

    it('exits 1 with the refusal before connecting to anything when an unverified header would be trusted on 0.0.0.0', async () => {
      const closed = await freePort();
      const { code, out } = await run('workers/api-server.ts', {
        ...process.env,
        PORT: String(await freePort()),
        SVC_API__HOST: '0.0.0.0',
        SVC_AUTH__TRUST_PROXY_HEADER: 'true',
        DATABASE_URL: `postgres://nobody:nothing@127.0.0.1:${closed}/none`,
        TEMPORAL_ADDRESS: `127.0.0.1:${closed}`,
      });
      assert.equal(code, 1);
      assert.match(out, /fip-api: start-up failed: refusing to start: SVC_AUTH__TRUST_PROXY_HEADER=true/);
      assert.match(out, /SVC_AUTH__IAP_AUDIENCE/);
      assert.match(out, /SVC_AUTH__ALLOW_UNVERIFIED_HEADER=true/);
      assert.doesNotMatch(out, /ECONNREFUSED|database|migrat/i);
    });

    it('prints the loud warning when the acknowledgement is set (then goes on to connect)', async () => {
      const closed = await freePort();
      const { code, out } = await run('workers/api-server.ts', {
        ...process.env,
        PORT: String(await freePort()),
        SVC_API__HOST: '0.0.0.0',
        SVC_AUTH__TRUST_PROXY_HEADER: 'true',
        SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true',
        SVC_LOG__LEVEL: 'silent',
        DATABASE_URL: `postgres://nobody:nothing@127.0.0.1:${closed}/none`, // closed: it stops before listening
        TEMPORAL_ADDRESS: `127.0.0.1:${closed}`,
      });
      assert.equal(code, 1);
      assert.match(out, /!{78}\nSECURITY WARNING: the API listens on 0\.0\.0\.0/);
      assert.match(out, /fip-api: start-up failed: .*ECONNREFUSED/);
    });
  });

  describe('the whole platform (npm start)', function () {
    this.timeout(90_000);

    it('exits 1 with the refusal before starting PostgreSQL or Temporal', async () => {
      const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-refuse-')), 'data');
      const env: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: dataDir, SVC_API__HOST: '0.0.0.0', SVC_AUTH__TRUST_PROXY_HEADER: 'true' };
      delete env.DATABASE_URL;
      delete env.TEMPORAL_ADDRESS;
      const { code, out } = await run('workers/start-all.ts', env);
      assert.equal(code, 1);
      assert.match(out, /fip: start-up failed: refusing to start: .*SVC_AUTH__IAP_AUDIENCE.*SVC_AUTH__ALLOW_UNVERIFIED_HEADER=true/s);
      assert.equal(fs.existsSync(dataDir), false, 'nothing was started in the data directory');
    });
  });
});
