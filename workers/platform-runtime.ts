// Builds the pieces of a platform process from the config: database, Temporal client, the Koa API
// server and the Temporal workers. Used by `npm start`, `npm run api`, `npm run worker` and tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, type LogLevel, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { AppConfig } from '../config/config';
import { createApp, type AppOptions } from '../api/app';
import type { AppDeps } from '../api/app-deps';
import { createKnex } from '../db/connection';
import { migrateLatest } from '../db/migrate';
import type { Logger } from '../infra/logger';
import { createActivities, createActivityResources, type ActivityDeps, type ActivityResources } from '../activities';

export async function connectDatabase(config: AppConfig, databaseUrl: string, log: Logger, migrate: boolean): Promise<Knex> {
  const knex = createKnex(databaseUrl, config.postgres.pool_max);
  if (migrate) {
    const applied = await migrateLatest(knex);
    if (applied.length) log.info({ applied }, 'database migrations applied');
  }
  return knex;
}

export async function connectTemporal(config: AppConfig, address: string): Promise<Client> {
  const connection = await Connection.connect({ address });
  return new Client({ connection, namespace: config.temporal_namespace });
}

export interface RunningApi {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(deps: AppDeps, port: number, host = '0.0.0.0', options: AppOptions = {}): Promise<RunningApi> {
  const app = createApp(deps, options);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}

let bundlePromise: Promise<WorkflowBundleWithSourceMap> | null = null;

/** Bundles workflows/ once per process (webpack takes seconds; tests share the bundle). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundlePromise ??= bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: quietBundlerLogger });
  return bundlePromise;
}

const quietBundlerLogger = {
  log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined,
  warn: (message: string) => process.stderr.write(`workflow bundler: ${message}\n`),
  error: (message: string) => process.stderr.write(`workflow bundler: ${message}\n`),
};

export interface RunningWorker {
  worker: Worker;
  resources: ActivityResources;
  /** Resolves when the worker has drained and stopped. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

let runtimeInstalled = false;

/** Routes the Temporal SDK's own logs into ours, at warn and above unless debugging. */
export function installTemporalRuntime(log: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const level: LogLevel = log.isLevelEnabled('debug') ? 'DEBUG' : 'WARN';
  Runtime.install({
    logger: new DefaultLogger(level, (entry) => {
      const fields = { temporal: entry.meta, sdk: true };
      if (entry.level === 'ERROR') log.error(fields, entry.message);
      else if (entry.level === 'WARN') log.warn(fields, entry.message);
      else log.debug(fields, entry.message);
    }),
  });
}

export type WorkerDeps = Omit<ActivityDeps, 'resources'> & Partial<Pick<ActivityDeps, 'resources'>>;

export async function startWorker(config: AppConfig, address: string, deps: WorkerDeps, taskQueue = config.temporal.task_queue): Promise<RunningWorker> {
  installTemporalRuntime(deps.log);
  const resources = deps.resources ?? createActivityResources(config);
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal_namespace,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createActivities({ ...deps, config, resources }),
    shutdownGraceTime: '10s',
  });
  const done = worker.run().finally(async () => {
    await connection.close();
    await resources.close();
  });
  return {
    worker,
    resources,
    done,
    shutdown: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
