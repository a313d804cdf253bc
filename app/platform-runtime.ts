// Builds the pieces of a platform process from the config: Temporal client, the Koa API server and
// the Temporal workers (the database: app/database.ts). Used by `npm start`, `npm run api`, `npm run worker` and tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, type LogLevel, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { AppConfig } from '../config/config';
import { createApp, type AppOptions } from '../api/app';
import type { AppDeps } from '../api/app-deps';
import { decideIdentityMode } from '../domain/accounts/identity-mode';
import type { Logger } from '../infra/logger';
import { temporalConnectionOptions } from '../infra/temporal-connection';
import { createFunnelPlannerFromConfig } from '../services/investigations/funnel-planner-settings';
import { createActivities, createActivityResources, type ActivityDeps, type ActivityResources } from '../activities';
import { browserTaskQueue } from '../infra/crawler/crawler-browser';

export async function connectTemporal(config: AppConfig, address: string): Promise<Client> {
  const connection = await Connection.connect(temporalConnectionOptions(config, address));
  return new Client({ connection, namespace: config.temporal_namespace });
}

/**
 * Refuses (throws) when the API would trust an unverified identity header on a non-loopback
 * address; writes the loud warning when the operator acknowledged that mode. Call before connecting.
 */
export function checkIdentityMode(config: AppConfig, log: Logger, host = config.api.host): void {
  const decision = identityModeFor(config, host);
  if (!decision.start) throw new Error(decision.message);
  if (decision.warning) {
    const bar = '!'.repeat(78);
    process.stderr.write(`${bar}\n${decision.warning}\n${bar}\n`);
    log.warn({ host }, decision.warning);
  }
}

function identityModeFor(config: AppConfig, host: string) {
  return decideIdentityMode({
    host,
    trustProxyHeader: config.auth.trust_proxy_header,
    iapAudience: config.auth.iap_audience,
    allowUnverifiedHeader: config.auth.allow_unverified_header,
  });
}

export interface RunningApi {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(deps: AppDeps, port: number, host = deps.config.api.host, options: AppOptions = {}): Promise<RunningApi> {
  const decision = identityModeFor(deps.config, host); // the processes warn at start-up; this is the last guard
  if (!decision.start) throw new Error(decision.message);
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

/**
 * Routes the Temporal SDK's own logs into ours, at warn and above unless debugging; with
 * `metricsBind` (SVC_WORKER__METRICS_BIND) the SDK's worker metrics are served for Prometheus at
 * http://<metricsBind>/metrics. The runtime is process-wide: the first call decides.
 */
export function installTemporalRuntime(log: Logger, metricsBind?: string): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const level: LogLevel = log.isLevelEnabled('debug') ? 'DEBUG' : 'WARN';
  Runtime.install({
    ...(metricsBind ? { telemetryOptions: { metrics: { prometheus: { bindAddress: metricsBind } } } } : {}),
    logger: new DefaultLogger(level, (entry) => {
      const fields = { temporal: entry.meta, sdk: true };
      if (entry.level === 'ERROR') log.error(fields, entry.message);
      else if (entry.level === 'WARN') log.warn(fields, entry.message);
      else log.debug(fields, entry.message);
    }),
  });
}

/**
 * Worker slots, chosen against the database pool (SVC_POSTGRES__POOL_MAX), which the API shares
 * when both run in one process (`npm start`). Every activity holds at most ONE pool connection at a
 * time and only briefly (report rendering runs outside any transaction), so slots bound connection
 * demand: by default activities get half the pool and local activities (quick schedule reads) a
 * quarter, each at least 1, which leaves at least a quarter of the pool to the API even when every
 * slot is busy. Busy slots only queue further tasks in Temporal; nothing fails. Workflow tasks touch
 * no database; their limit stays the SDK's default unless set.
 */
export function workerConcurrency(config: AppConfig): {
  maxConcurrentActivityTaskExecutions: number;
  maxConcurrentLocalActivityExecutions: number;
  maxConcurrentWorkflowTaskExecutions?: number;
} {
  const pool = config.postgres.pool_max;
  return {
    maxConcurrentActivityTaskExecutions: config.worker.max_concurrent_activities ?? Math.max(1, Math.floor(pool / 2)),
    maxConcurrentLocalActivityExecutions: config.worker.max_concurrent_local_activities ?? Math.max(1, Math.floor(pool / 4)),
    ...(config.worker.max_concurrent_workflow_tasks ? { maxConcurrentWorkflowTaskExecutions: config.worker.max_concurrent_workflow_tasks } : {}),
  };
}

export type WorkerDeps = Omit<ActivityDeps, 'resources'> & Partial<Pick<ActivityDeps, 'resources'>>;

export async function startWorker(config: AppConfig, address: string, deps: WorkerDeps, taskQueue = config.temporal.task_queue): Promise<RunningWorker> {
  installTemporalRuntime(deps.log, config.worker.metrics_bind);
  const resources = deps.resources ?? createActivityResources(config);
  const connection = await NativeConnection.connect(temporalConnectionOptions(config, address));
  // Investigations keep a browser context on one worker: their browser activities run on this
  // worker's own queue (Temporal's worker-specific task queues pattern), served by a second Worker.
  const browserQueue = browserTaskQueue(taskQueue, config.worker.instance);
  // The funnel's LLM planner only when an Anthropic key is configured.
  const planner = deps.planner ?? createFunnelPlannerFromConfig(config, { knex: deps.knex, blobs: resources.blobs });
  const activities = createActivities({ ...deps, config, resources, browserQueue, planner });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal_namespace,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
    ...workerConcurrency(config),
    shutdownGraceTime: '10s',
  });
  const browserWorker = await Worker.create({
    connection,
    namespace: config.temporal_namespace,
    taskQueue: browserQueue,
    activities,
    ...workerConcurrency(config),
    shutdownGraceTime: '10s',
  });
  const done = Promise.all([worker.run(), browserWorker.run()])
    .then(() => undefined)
    .finally(async () => {
      await connection.close();
      await resources.close();
    });
  return {
    worker,
    resources,
    done,
    shutdown: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      if (browserWorker.getState() === 'RUNNING') browserWorker.shutdown();
      await done;
    },
  };
}
