// What CLI commands need: the database (DATABASE_URL, else a running `npm start`'s embedded server,
// else the embedded server started just for this command) and, for some, the Temporal client.
import type { Knex } from 'knex';
import pg from 'pg';
import type { Client } from '@temporalio/client';
import { connectDatabase, openDatabase } from '../app/database';
import { createLogger } from '../infra/logger';
import { temporalConnectionOptions } from '../infra/temporal-connection';
import { platformAddresses, startPlatformPostgres } from '../app/infrastructure';
import { cliConfig } from './cli-config';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs `fn` with a small pool on the platform's database. The schema is migrated first, so commands
 * never run on an old one; `fip db migrate` opts out (`migrate: false`) to apply and report the
 * migrations itself.
 */
export async function withDatabase<T>(fn: (knex: Knex) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const config = cliConfig();
  const log = createLogger(process.env.FIP_CLI_LOG_LEVEL ?? 'warn', 'fip-cli');
  const { databaseUrl } = platformAddresses(config);
  let url = databaseUrl;
  let stopEmbedded: (() => Promise<void>) | null = null;
  if (!(await reachable(databaseUrl))) {
    if (config.database_url) throw new Error('the database at DATABASE_URL is not reachable');
    process.stderr.write('starting the embedded PostgreSQL for this command...\n');
    const pg = await startPlatformPostgres(config, log);
    stopEmbedded = pg.stop;
    url = pg.url;
  }
  const knex = options.migrate === false ? openDatabase(url, 2) : await connectDatabase(config, url, log, true, 2);
  try {
    return await fn(knex);
  } finally {
    await knex.destroy();
    if (stopEmbedded) await stopEmbedded();
  }
}

export async function withTemporal<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const config = cliConfig();
  const { temporalAddress } = platformAddresses(config);
  const { Client, Connection } = await import('@temporalio/client');
  const options = temporalConnectionOptions(config, temporalAddress); // a bad TLS file is a config error, not "unreachable"
  let connection;
  try {
    connection = await Connection.connect({ ...options, connectTimeout: 5000 });
  } catch {
    throw new Error(`Temporal is not reachable at ${temporalAddress}: start the platform (npm start) or set TEMPORAL_ADDRESS`);
  }
  try {
    return await fn(new Client({ connection, namespace: config.temporal_namespace }));
  } finally {
    await connection.close();
  }
}
