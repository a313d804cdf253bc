// A throw-away PostgreSQL (migrated) and Temporal dev server on free ports in a temporary directory,
// for the test suite and the benchmarks. Same binaries and resolution as `npm start`.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createKnex } from '../db/connection';
import { migrateLatest } from '../db/migrate';
import { startEmbeddedPostgres } from '../infra/embedded-postgres';
import { createLogger } from '../infra/logger';
import { startTemporalDevServer } from '../infra/temporal-dev-server';

export interface EphemeralInfrastructure {
  databaseUrl: string;
  temporalAddress: string;
  dir: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startEphemeralInfrastructure(opts: { name: string; logLevel?: string; progress?: (line: string) => void }): Promise<EphemeralInfrastructure> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${opts.name}-`));
  fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user when we are root
  const log = createLogger(opts.logLevel ?? 'warn', opts.name);
  const progress = opts.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  const [pgPort, temporalPort] = [await freePort(), await freePort()];
  const started = await Promise.allSettled([
    startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: pgPort, database: 'fip', persistent: false, log }),
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
  const stop = async () => {
    for (const s of started) if (s.status === 'fulfilled') await s.value.stop().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const [pg, temporal] = started.map((s) => (s as PromiseFulfilledResult<{ url?: string; address?: string }>).value);
  const knex = createKnex(pg.url!, 2);
  try {
    await migrateLatest(knex);
  } finally {
    await knex.destroy();
  }
  return { databaseUrl: pg.url!, temporalAddress: temporal.address!, dir, stop };
}
