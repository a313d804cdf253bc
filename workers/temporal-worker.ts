// `npm run worker`: Temporal workers alone. Run any number of them against one cluster.
import { loadConfig } from '../config/config';
import { describeChromium } from '../infra/chromium';
import { describeChromiumSandbox } from '../infra/chromium-sandbox';
import { startUpFonts } from '../infra/fonts';
import { createLogger } from '../infra/logger';
import { platformAddresses } from '../app/infrastructure';
import { startBackgroundServices } from '../app/background-services';
import { connectDatabase, migrateOnStart } from '../app/database';
import { connectTemporal, startWorker } from '../app/platform-runtime';
import { onShutdown } from '../app/process-lifecycle';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.log.level, 'fip-worker');
  const { databaseUrl, temporalAddress } = platformAddresses(config);
  const knex = await connectDatabase(config, databaseUrl, log, migrateOnStart(config));
  const temporal = await connectTemporal(config, temporalAddress);
  const deps = { config, knex, temporal, log };
  const worker = await startWorker(config, temporalAddress, deps);
  const background = await startBackgroundServices({ ...deps, blobs: worker.resources.blobs });
  onShutdown(log, [
    ['workers', worker.shutdown],
    ['background', background.stop],
    ['temporal client', () => temporal.connection.close()],
    ['database pool', () => knex.destroy()],
  ]);
  log.info({ temporalAddress, taskQueue: config.temporal.task_queue, chromium: describeChromium(worker.resources.chromium), crawlerSandbox: describeChromiumSandbox(worker.resources.crawlerSandbox, config.crawler.allow_unsandboxed), fonts: await startUpFonts() }, 'worker running');
}

main().catch((err) => {
  process.stderr.write(`fip-worker: start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
