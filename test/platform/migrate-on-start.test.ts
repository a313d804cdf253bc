import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createLogger } from '../../infra/logger';
import { connectDatabase, migrateOnStart } from '../../app/database';
import { emptyDatabase } from '../support/empty-database';
import { freePort } from '../support/free-port';
import { testConfig } from '../support/platform';

const ROOT = path.resolve(__dirname, '..', '..');

describe('migrations at start-up', function () {
  this.timeout(90_000);
  const log = createLogger('silent');

  it('migrates only when asked: SVC_DB__MIGRATE_ON_START=true or --migrate', () => {
    assert.equal(migrateOnStart(testConfig(), ['node', 'worker.ts']), false);
    assert.equal(migrateOnStart(testConfig({ SVC_DB__MIGRATE_ON_START: 'true' }), ['node', 'worker.ts']), true);
    assert.equal(migrateOnStart(testConfig(), ['node', 'worker.ts', '--migrate']), true);
  });

  it('refuses a schema that is not current unless migrating, naming `npx fip db migrate`', async () => {
    const db = await emptyDatabase();
    try {
      await assert.rejects(connectDatabase(testConfig(), db.url, log, false), /schema is not current.*pending migration.*npx fip db migrate/s);
      const migrated = await connectDatabase(testConfig(), db.url, log, true);
      await migrated.destroy();
      const checked = await connectDatabase(testConfig(), db.url, log, false);
      assert.ok((await checked.raw('select 1 as one')).rows[0].one === 1);
      await checked.destroy();
    } finally {
      await db.drop();
    }
  });

  it('npm run worker exits 1 on an unmigrated database with the command to run', async () => {
    const db = await emptyDatabase();
    try {
      const closed = await freePort();
      const env = { ...process.env, DATABASE_URL: db.url, TEMPORAL_ADDRESS: `127.0.0.1:${closed}`, SVC_LOG__LEVEL: 'silent' };
      const child = spawn(process.execPath, ['--import', 'tsx', 'workers/temporal-worker.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 1, out);
      assert.match(out, /fip-worker: start-up failed: the database schema is not current .*run `npx fip db migrate` first/);
    } finally {
      await db.drop();
    }
  });
});
