// Starts the real infrastructure once for the whole mocha run: an embedded PostgreSQL (migrated)
// and a Temporal dev server (the same binary resolution as `npm start`), on free ports in a
// temporary directory. Tests find them through DATABASE_URL and TEMPORAL_ADDRESS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createKnex } from '../../db/connection';
import { migrateLatest } from '../../db/migrate';
import { startEmbeddedPostgres, type RunningPostgres } from '../../infra/embedded-postgres';
import { createLogger } from '../../infra/logger';
import { startTemporalDevServer, type RunningTemporal } from '../../infra/temporal-dev-server';
import { freePort } from '../support/free-port';

let pg: RunningPostgres | null = null;
let temporal: RunningTemporal | null = null;
let dir: string | null = null;

export async function mochaGlobalSetup(): Promise<void> {
  const started = Date.now();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-test-'));
  fs.chmodSync(dir, 0o755);
  const log = createLogger(process.env.FIP_TEST_LOG_LEVEL ?? 'warn', 'fip-test-infra');
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const [pgPort, temporalPort] = [await freePort(), await freePort()];
  [pg, temporal] = await Promise.all([
    startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: pgPort, database: 'fip_test', persistent: false, log }),
    startTemporalDevServer({
      cliPath: process.env.TEMPORAL_CLI_PATH,
      ip: '127.0.0.1',
      port: temporalPort,
      uiPort: 0,
      headless: true,
      dbFilename: path.join(dir, 'temporal.db'),
      namespace: 'default',
      log,
      progress,
    }),
  ]);
  process.env.DATABASE_URL = pg.url;
  process.env.TEMPORAL_ADDRESS = temporal.address;
  process.env.TEMPORAL_NAMESPACE = 'default';
  process.env.SVC_DATA_DIR = path.join(dir, 'data');
  const knex = createKnex(pg.url, 2);
  await migrateLatest(knex);
  await knex.destroy();
  process.stderr.write(`test infrastructure up in ${Date.now() - started} ms (postgres ${pgPort}, temporal ${temporal.address})\n`);
}

export async function mochaGlobalTeardown(): Promise<void> {
  const { closeSharedTestResources } = await import('../support/platform');
  await closeSharedTestResources();
  await temporal?.stop();
  await pg?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
