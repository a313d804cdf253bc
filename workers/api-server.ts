// `npm run api`: the Koa API alone, for production, joining PostgreSQL and Temporal from
// DATABASE_URL and TEMPORAL_ADDRESS (default: those of a running `npm start`).
import { loadConfig } from '../config/config';
import { createConfiguredBlobStore } from '../infra/blob-store';
import { ensureConsoleBuilt } from '../infra/console-build';
import { createLogger } from '../infra/logger';
import { platformAddresses } from '../app/infrastructure';
import { connectDatabase, migrateOnStart } from '../app/database';
import { checkIdentityMode, connectTemporal, startApiServer } from '../app/platform-runtime';
import { onShutdown } from '../app/process-lifecycle';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.log.level, 'fip-api');
  checkIdentityMode(config, log);
  if (await ensureConsoleBuilt()) log.info('console built (console/dist)');
  const { databaseUrl, temporalAddress } = platformAddresses(config);
  const knex = await connectDatabase(config, databaseUrl, log, migrateOnStart(config));
  const temporal = await connectTemporal(config, temporalAddress);
  const blobs = createConfiguredBlobStore(config);
  const api = await startApiServer({ config, knex, temporal, log, blobs }, config.port);
  onShutdown(log, [
    ['api', api.close],
    ['blob store', () => blobs.close()],
    ['temporal client', () => temporal.connection.close()],
    ['database pool', () => knex.destroy()],
  ]);
  log.info({ host: config.api.host, blobs: blobs.location, url: `http://localhost:${config.port}`, docs: `http://localhost:${config.port}/docs` }, 'API listening');
}

main().catch((err) => {
  process.stderr.write(`fip-api: start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
