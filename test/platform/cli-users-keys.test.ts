import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { emptyDatabase } from '../support/empty-database';
import { runCli } from '../support/run-cli';
import { http } from '../support/http';
import { startTestApi } from '../support/platform';

describe('fip users / keys / db', function () {
  this.timeout(120_000);

  it('db migrate reports the schema is up to date', async () => {
    const r = await runCli(['db', 'migrate']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /up to date/);
  });

  it('db migrate on an empty database names the migrations it applied, then reports it up to date', async () => {
    const db = await emptyDatabase();
    try {
      const first = await runCli(['db', 'migrate'], { env: { DATABASE_URL: db.url } });
      assert.equal(first.code, 0, first.stderr);
      // Every migration in db/migrations, in the order knex applies them (by file name).
      const files = fs.readdirSync(path.join(__dirname, '..', '..', 'db', 'migrations')).filter((f) => /\.ts$/.test(f)).sort();
      assert.ok(files.length > 20, `${files.length} migrations`);
      assert.equal(first.stdout, `applied: ${files.join(', ')}\n`);
      const again = await runCli(['db', 'migrate'], { env: { DATABASE_URL: db.url } });
      assert.equal(again.stdout, 'database is up to date\n');
    } finally {
      await db.drop();
    }
  });

  it('users add/list/remove manage roles', async () => {
    const email = `Ops-${randomUUID().slice(0, 6)}@Example.org`;
    const add = await runCli(['users', 'add', email, '--role', 'analyst', '--role', 'reviewer']);
    assert.equal(add.code, 0, add.stderr);
    assert.equal(add.stdout.trim(), `${email.toLowerCase()}\tanalyst,reviewer`);
    const list = await runCli(['users', 'list', '--json']);
    const row = JSON.parse(list.stdout).find((u: { email: string }) => u.email === email.toLowerCase());
    assert.deepEqual(row, { email: email.toLowerCase(), roles: ['analyst', 'reviewer'], active: true });
    assert.equal((await runCli(['users', 'remove', email])).code, 0);
    assert.equal((await runCli(['users', 'remove', email])).code, 1);
  });

  it('users add rejects bad input with exit 2', async () => {
    const r = await runCli(['users', 'add', 'someone@example.org', '--role', 'superuser']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown role/);
    assert.equal((await runCli(['users', 'add', 'not-an-email', '--role', 'admin'])).code, 2);
  });

  it('keys create prints a working key once; list never shows it; revoke disables it', async () => {
    const name = `bot-${randomUUID().slice(0, 6)}`;
    const created = await runCli(['keys', 'create', '--name', name, '--scope', 'intake:write']);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    assert.match(key, /^fip_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    const api = await startTestApi();
    const me = await http(`${api.url}/accounts/me`, { headers: { 'X-API-KEY': key } });
    assert.equal(me.status, 200);
    assert.equal(me.body.service.name, name);
    const list = await runCli(['keys', 'list', '--json']);
    assert.ok(!list.stdout.includes(key.slice(18)), 'the secret is never listed');
    assert.ok(JSON.parse(list.stdout).some((k: { name: string }) => k.name === name));
    assert.equal((await runCli(['keys', 'create', '--name', name, '--scope', 'intake:write'])).code, 2, 'duplicate active name');
    assert.equal((await runCli(['keys', 'revoke', name])).code, 0);
    assert.equal((await http(`${api.url}/accounts/me`, { headers: { 'X-API-KEY': key } })).status, 401);
    assert.equal((await runCli(['keys', 'create', '--name', 'x y', '--scope', 'nope'])).code, 2);
  });
});
