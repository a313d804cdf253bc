// The embedded PostgreSQL's password is random per data directory: generated at the first initdb,
// kept beside the data directory (`<dataDir>.password`, mode 0600) and reused at every restart;
// a cluster made before that (the old fixed password, no password file) keeps working.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { platformAddresses } from '../../app/infrastructure';
import { loadConfig } from '../../config/config';
import { embeddedPostgresPassword, embeddedPostgresUrl, passwordFile, startEmbeddedPostgres } from '../../infra/embedded-postgres';
import { createLogger } from '../../infra/logger';
import { freePort } from '../support/free-port';

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const withPassword = (url: string, password: string) => {
  const u = new URL(url);
  u.password = encodeURIComponent(password);
  return u.href;
};

describe('embedded PostgreSQL password', function () {
  this.timeout(180_000);
  const log = createLogger('silent');
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-pgpass-'));
    fs.chmodSync(root, 0o755); // as root, PostgreSQL runs as the postgres user, which must reach it
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('two fresh data directories get different random passwords, kept 0600 beside them; a restart reuses it', async () => {
    const dirs = [path.join(root, 'a', 'pg'), path.join(root, 'b', 'pg')];
    const ports = [await freePort(), await freePort()];
    const passwords: string[] = [];
    for (const [i, dataDir] of dirs.entries()) {
      const server = await startEmbeddedPostgres({ dataDir, port: ports[i], database: 'fip', persistent: true, log });
      try {
        const file = passwordFile(dataDir);
        assert.equal(file, `${dataDir}.password`);
        assert.equal(fs.statSync(file).mode & 0o777, 0o600);
        const password = fs.readFileSync(file, 'utf8').trim();
        assert.match(password, /^[A-Za-z0-9_-]{32}$/, '192 random bits');
        assert.notEqual(password, 'fip-embedded');
        assert.equal(decodeURIComponent(new URL(server.url).password), password);
        assert.equal(embeddedPostgresUrl(dataDir, ports[i], 'fip'), server.url, 'a joining process finds the same URL');
        const joining = loadConfig({ SVC_DATA_DIR: path.dirname(dataDir), SVC_POSTGRES__PORT: String(ports[i]) });
        assert.equal(platformAddresses(joining).databaseUrl, server.url, 'npm run api / the CLI find it through SVC_DATA_DIR');
        assert.equal((await query(server.url, 'SELECT 1 AS one')).rows[0].one, 1);
        await assert.rejects(query(withPassword(server.url, 'fip-embedded'), 'SELECT 1'), /password authentication failed/);
        if (i === 0) await query(server.url, "CREATE TABLE kept AS SELECT 'still here' AS v");
        passwords.push(password);
      } finally {
        await server.stop();
      }
    }
    assert.notEqual(passwords[0], passwords[1]);

    const again = await startEmbeddedPostgres({ dataDir: dirs[0], port: ports[0], database: 'fip', persistent: true, log });
    try {
      assert.equal(embeddedPostgresPassword(dirs[0]), passwords[0], 'the password file is kept');
      assert.equal(decodeURIComponent(new URL(again.url).password), passwords[0]);
      assert.deepEqual((await query(again.url, 'SELECT v FROM kept')).rows, [{ v: 'still here' }]);
    } finally {
      await again.stop();
    }
  });

  it('a data directory from before (the old fixed password, no password file) keeps working', async () => {
    const dataDir = path.join(root, 'old', 'pg');
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, database: 'fip', persistent: true, log });
    try {
      // What an old cluster looks like: the fixed password, and no password file beside it.
      await query(first.url, "ALTER ROLE fip PASSWORD 'fip-embedded'");
    } finally {
      await first.stop();
    }
    fs.rmSync(passwordFile(dataDir));
    assert.equal(embeddedPostgresPassword(dataDir), 'fip-embedded');
    const old = await startEmbeddedPostgres({ dataDir, port, database: 'fip', persistent: true, log });
    try {
      assert.equal(decodeURIComponent(new URL(old.url).password), 'fip-embedded');
      assert.equal((await query(old.url, 'SELECT 1 AS one')).rows[0].one, 1);
      assert.equal(fs.existsSync(passwordFile(dataDir)), false, 'an existing cluster is not given a file it does not match');
    } finally {
      await old.stop();
    }
  });

  it('a throw-away cluster takes its password file with it', async () => {
    const dataDir = path.join(root, 'temp', 'pg');
    const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'fip', persistent: false, log });
    assert.ok(fs.existsSync(passwordFile(dataDir)));
    await server.stop();
    assert.equal(fs.existsSync(passwordFile(dataDir)), false);
    assert.equal(fs.existsSync(dataDir), false);
  });
});
