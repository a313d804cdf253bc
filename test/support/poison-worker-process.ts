// An activities-only worker in its own process that dies (SIGKILL) when it starts reading an intake
// file named poison*: a worker killed by a file, as an unbounded parser once was, so that a test
// can watch what the retries do. Workflows run in the test's own process.
import { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig } from '../../config/config';
import { createKnex } from '../../db/connection';
import { createLogger } from '../../infra/logger';
import { temporalConnectionOptions } from '../../infra/temporal-connection';
import { createActivities, createActivityResources } from '../../activities';
import { connectTemporal } from '../../app/platform-runtime';

async function main(): Promise<void> {
  const config = loadConfig();
  const address = process.env.TEMPORAL_ADDRESS!;
  const knex = createKnex(process.env.DATABASE_URL!, 4);
  const temporal = await connectTemporal(config, address);
  const activities = createActivities({
    config,
    knex,
    temporal,
    log: createLogger('warn', 'poison-worker'),
    resources: createActivityResources(config),
    hooks: {
      beforeIntakeFileRead: async ({ filename }) => {
        if (!filename.startsWith('poison')) return;
        process.stdout.write(`DYING_ON ${filename}\n`);
        process.kill(process.pid, 'SIGKILL');
        await new Promise(() => undefined);
      },
    },
  });
  const connection = await NativeConnection.connect(temporalConnectionOptions(config, address));
  const worker = await Worker.create({ connection, namespace: config.temporal_namespace, taskQueue: config.temporal.task_queue, activities });
  process.stdout.write('WORKER_READY\n');
  await worker.run();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
