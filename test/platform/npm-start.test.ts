// `npm start` end to end: embedded PostgreSQL + Temporal dev server with UI + workers + API, the
// printed URLs answer (and the persona mail receiver), and SIGTERM leaves no postgres or temporal process behind.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { freePort } from '../support/free-port';
import { asUser, http } from '../support/http';

const ROOT = path.resolve(__dirname, '..', '..');

function processesUsing(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'));
}

describe('npm start (whole platform, embedded defaults)', function () {
  this.timeout(180_000);

  it('brings everything up, serves the URLs it prints, and stops cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-start-'));
    fs.chmodSync(dataDir, 0o755);
    const [port, pgPort, tPort, uiPort, mailPort] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      SVC_DATA_DIR: dataDir,
      SVC_POSTGRES__PORT: String(pgPort),
      SVC_TEMPORAL__PORT: String(tPort),
      SVC_TEMPORAL__UI_PORT: String(uiPort),
      SVC_SSI__MAIL_BIND: `127.0.0.1:${mailPort}`,
      SVC_SSI__PERSONA_EMAIL_DOMAIN: 'personas.test',
      SVC_AUTH__TRUST_PROXY_HEADER: 'true',
      SVC_AUTH__BOOTSTRAP_ADMINS: 'root@example.org',
      SVC_LOG__LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    const child = spawn(process.execPath, ['--import', 'tsx', 'workers/start-all.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const started = Date.now();
      while (!out.includes('fip: ready')) {
        if (child.exitCode !== null) assert.fail(`npm start exited early:\n${out}`);
        if (Date.now() - started > 90_000) assert.fail(`not ready after 90 s:\n${out}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.match(out, /^fip: chromium (Debian package \/usr\/bin\/chromium|npm package @sparticuz\/chromium .*)$/m);
      // As root (CI, npm start), the crawler's browser runs sandboxed as its own unprivileged user.
      assert.match(out, process.getuid?.() === 0 ? /^fip: crawler browser sandboxed, as the user fip-chromium \(uid \d+\)$/m : /^fip: crawler browser sandboxed, as this process's user$/m);
      // The fonts its screenshots need for every script, prepared at start-up (infra/fonts.ts).
      assert.match(out, /^fip: fonts for Latin \(Vietnamese included\), Cyrillic, Greek, Simplified Chinese, .*, emoji: \d+ files, \d+ MiB in \S+/m);
      assert.match(out, new RegExp(`API\\s+http://localhost:${port}`));
      assert.match(out, new RegExp(`Temporal UI\\s+http://127.0.0.1:${uiPort}`));
      assert.match(out, new RegExp(`Data\\s+${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      const base = `http://127.0.0.1:${port}`;
      assert.equal((await http(`${base}/docs`)).status, 200);
      assert.equal((await http(`${base}/redoc`)).status, 200);
      assert.equal((await http(`${base}/readyz`)).status, 200);
      assert.equal((await fetch(`http://127.0.0.1:${uiPort}/`)).status, 200);
      const me = await http(`${base}/accounts/me`, { headers: asUser('root@example.org') });
      assert.deepEqual(me.body, { email: 'root@example.org', roles: ['admin'] });
      assert.equal((await http(`${base}/accounts/me`)).status, 401);
      // The persona mail receiver runs in the process and asks the database which mailboxes exist.
      assert.match(out, new RegExp(`Persona mail\\s+smtp://127\\.0\\.0\\.1:${mailPort} for @personas\\.test`));
      const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: mailPort, secure: false, ignoreTLS: true });
      await assert.rejects(
        smtp.sendMail({ envelope: { from: 'a@site.test', to: ['nobody@personas.test'] }, raw: 'Subject: x\r\n\r\nx\r\n' }),
        (err: { responseCode?: number }) => err.responseCode === 550,
      );
      smtp.close();
      assert.ok(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION')), 'PostgreSQL data kept in the data directory');
      assert.ok(processesUsing(dataDir).length >= 2, 'postgres and temporal run with the data directory');
    } finally {
      child.kill('SIGTERM');
      const code = await exited;
      assert.equal(code, 0, out);
    }
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(processesUsing(dataDir), [], 'no postgres or temporal process is left');
    assert.ok(fs.existsSync(path.join(dataDir, 'temporal.db')), 'Temporal keeps its state in the data directory');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
