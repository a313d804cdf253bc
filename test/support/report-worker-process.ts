// A worker in its own process, so a test can SIGKILL it in the middle of report generation.
// It announces "STORE_PENDING" when a report is rendered and about to be stored, then stalls.
import { loadConfig } from '../../config/config';
import { createKnex } from '../../db/connection';
import { createLogger } from '../../infra/logger';
import { connectTemporal, startWorker } from '../../app/platform-runtime';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('warn', 'killable-worker');
  const knex = createKnex(process.env.DATABASE_URL!, 4);
  const temporal = await connectTemporal(config, process.env.TEMPORAL_ADDRESS!);
  await startWorker(config, process.env.TEMPORAL_ADDRESS!, {
    config,
    knex,
    temporal,
    log,
    hooks: {
      beforeReportStore: async () => {
        process.stdout.write('STORE_PENDING\n');
        await new Promise((r) => setTimeout(r, 120_000));
      },
    },
  });
  process.stdout.write('WORKER_READY\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
