// A platform worker in its own process, so that a test can SIGKILL it in the middle of an
// investigation and start another with the same instance name (the same browser task queue).
import { loadConfig } from '../../config/config';
import { createKnex } from '../../db/connection';
import { createLogger } from '../../infra/logger';
import { connectTemporal, startWorker } from '../../app/platform-runtime';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('warn', 'investigation-worker');
  const knex = createKnex(process.env.DATABASE_URL!, 4);
  const temporal = await connectTemporal(config, process.env.TEMPORAL_ADDRESS!);
  await startWorker(config, process.env.TEMPORAL_ADDRESS!, { config, knex, temporal, log });
  process.stdout.write('WORKER_READY\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
