// As root, PostgreSQL runs as the postgres system user, which cannot enter a directory like /root
// (mode 0700) — mkdtemp directories are 0700 too. The platform must still start there.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { RELOCATION_ROOT, defaultSharedBuffersMb, startEmbeddedPostgres } from '../../infra/embedded-postgres';
import { startEphemeralInfrastructure } from '../../app/ephemeral-infrastructure';
import { createLogger } from '../../infra/logger';
import { freePort } from '../support/free-port';

async function query(url: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL under a directory the postgres user cannot enter (as root)', function () {
  this.timeout(120_000);
  const log = createLogger('silent');
  let closed: string;

  before(function () {
    if (process.getuid?.() !== 0) this.skip(); // only root runs PostgreSQL as another user
    closed = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-closed-'));
    assert.equal(fs.statSync(closed).mode & 0o777, 0o700);
  });
  after(() => {
    if (closed) fs.rmSync(closed, { recursive: true, force: true });
  });

  it('starts, keeps the cluster in a postgres-owned directory it names, and keeps the data across restarts', async () => {
    const dataDir = path.join(closed, 'checkout', '.data', 'pg');
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, database: 'fip', persistent: true, log });
    try {
      assert.ok(first.clusterDir.startsWith(`${RELOCATION_ROOT}/`), first.clusterDir);
      assert.match(fs.readFileSync(path.join(dataDir, 'CLUSTER-LOCATION.txt'), 'utf8'), new RegExp(first.clusterDir));
      await query(first.url, 'CREATE TABLE kept (v text)');
      await query(first.url, 'INSERT INTO kept VALUES ($1)', ['still here']);
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedPostgres({ dataDir, port, database: 'fip', persistent: true, log });
    try {
      assert.equal(second.clusterDir, first.clusterDir);
      assert.deepEqual((await query(second.url, 'SELECT v FROM kept')).rows, [{ v: 'still here' }]);
    } finally {
      await second.stop();
      fs.rmSync(second.clusterDir, { recursive: true, force: true });
    }
  });

  it('starts a fresh cluster after the data directory was removed, keeping the old one aside', async () => {
    const dataDir = path.join(closed, 'reset', '.data', 'pg');
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, database: 'fip', persistent: true, log });
    await query(first.url, 'CREATE TABLE old_data (v int)');
    await first.stop();
    fs.rmSync(path.dirname(dataDir), { recursive: true });
    const second = await startEmbeddedPostgres({ dataDir, port, database: 'fip', persistent: true, log });
    const aside = fs.readdirSync(RELOCATION_ROOT).filter((n) => n.startsWith(`${path.basename(first.clusterDir)}.orphaned-`));
    try {
      assert.equal(second.clusterDir, first.clusterDir);
      assert.deepEqual((await query(second.url, "SELECT to_regclass('old_data') AS t")).rows, [{ t: null }]);
      assert.equal(aside.length, 1);
      assert.ok(fs.existsSync(path.join(RELOCATION_ROOT, aside[0], 'PG_VERSION')));
    } finally {
      await second.stop();
      fs.rmSync(second.clusterDir, { recursive: true, force: true });
      for (const n of aside) fs.rmSync(path.join(RELOCATION_ROOT, n), { recursive: true, force: true });
    }
  });

  it('refuses to move an initialised cluster the postgres user cannot reach, saying which directory to open', async () => {
    const dataDir = path.join(closed, 'old', 'pg');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'PG_VERSION'), '17\n');
    await assert.rejects(
      startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'fip', persistent: true, log }),
      new RegExp(`not reachable by the postgres user.*chmod o\\+x ${closed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*SVC_DATA_DIR`, 's'),
    );
  });

  it("starts the test suite's temporary infrastructure when TMPDIR is such a directory", async () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = closed;
    let infra: Awaited<ReturnType<typeof startEphemeralInfrastructure>> | null = null;
    try {
      infra = await startEphemeralInfrastructure({ name: 'fip-closed-tmp', progress: () => undefined });
      assert.ok(infra.dir.startsWith(closed));
      const { rows } = await query(infra.databaseUrl, 'SELECT count(*)::int AS n FROM knex_migrations');
      assert.ok(rows[0].n > 0, 'migrated');
    } finally {
      process.env.TMPDIR = saved;
      if (saved === undefined) delete process.env.TMPDIR;
      await infra?.stop();
    }
  });
});

describe('embedded PostgreSQL shared_buffers', function () {
  this.timeout(120_000);
  const log = createLogger('silent');
  const GB = 1024 ** 3;
  const sharedBuffersMb = async (url: string) =>
    Number((await query(url, "SELECT setting::bigint * 8 / 1024 AS mb FROM pg_settings WHERE name = 'shared_buffers'")).rows[0].mb);

  it('defaults to a quarter of the RAM, at least 128 MB and at most 4 GB', () => {
    assert.equal(defaultSharedBuffersMb(24 * GB), 4096);
    assert.equal(defaultSharedBuffersMb(8 * GB), 2048);
    assert.equal(defaultSharedBuffersMb(256 * 1024 ** 2), 128);
  });

  it('starts the cluster with the default, or with the size it is given', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-buffers-'));
    fs.chmodSync(dir, 0o755);
    const dataDir = path.join(dir, 'pg');
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, database: 'fip', persistent: true, log });
    try {
      assert.equal(await sharedBuffersMb(first.url), defaultSharedBuffersMb());
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedPostgres({ dataDir, port, database: 'fip', persistent: true, log, sharedBuffersMb: 48 });
    try {
      assert.equal(await sharedBuffersMb(second.url), 48);
    } finally {
      await second.stop();
      if (second.clusterDir !== dataDir) fs.rmSync(second.clusterDir, { recursive: true, force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
