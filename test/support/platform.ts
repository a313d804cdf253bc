// Shared pieces for tests: config from the test environment, one database pool and one Temporal
// client per run, and helpers to start the real API server and real workers.
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import { loadConfig, type AppConfig } from '../../config/config';
import type { AppDeps } from '../../api/app-deps';
import type { AppOptions } from '../../api/app';
import { createKnex } from '../../db/connection';
import { createConfiguredBlobStore } from '../../infra/blob-store';
import { createLogger } from '../../infra/logger';
import { connectTemporal, startApiServer, startWorker, type RunningApi, type RunningWorker } from '../../app/platform-runtime';
import { startPersonaMailReceiver } from '../../app/persona-mail-receiver';
import type { SmtpReceiver } from '../../infra/smtp-receiver';

let knex: Knex | null = null;
let temporal: Client | null = null;
const closers: Array<() => Promise<void>> = [];

export function testConfig(env: Record<string, string> = {}): AppConfig {
  // No test process takes the persona mail receiver's development port unless a test asks (startTestMailReceiver),
  // and no test's writes start the dashboards' refresher workflow unless it asks (test/analytics/refresh-after-write.test.ts):
  // a refresh nobody waits for would only load the shared database and outlive the test's worker.
  return loadConfig({ SVC_SSI__MAIL_BIND: '', SVC_ANALYTICS__DASHBOARD_REFRESH_AFTER_WRITE_SECONDS: '0', ...process.env, SVC_LOG__LEVEL: process.env.FIP_TEST_LOG_LEVEL ?? 'silent', ...env });
}

export function testKnex(): Knex {
  knex ??= createKnex(process.env.DATABASE_URL!, 10);
  return knex;
}

export async function testTemporal(): Promise<Client> {
  temporal ??= await connectTemporal(testConfig(), process.env.TEMPORAL_ADDRESS!);
  return temporal;
}

export async function testDeps(env: Record<string, string> = {}): Promise<AppDeps> {
  const config = testConfig(env);
  const blobs = createConfiguredBlobStore(config);
  closers.push(() => blobs.close());
  return { config, knex: testKnex(), temporal: await testTemporal(), log: createLogger(config.log.level, 'fip-test'), blobs };
}

/** A real API server on a free port; closed after the run (or call close()). */
export async function startTestApi(env: Record<string, string> = {}, options: AppOptions = {}): Promise<RunningApi & { deps: AppDeps }> {
  const deps = await testDeps(env);
  const api = await startApiServer(deps, 0, '127.0.0.1', options);
  closers.push(api.close);
  return { ...api, deps };
}

/** A real Temporal worker on its own task queue (so suites do not steal each other's tasks). */
export async function startTestWorker(taskQueue: string, env: Record<string, string> = {}): Promise<RunningWorker & { deps: AppDeps }> {
  const deps = await testDeps({ SVC_TEMPORAL__TASK_QUEUE: taskQueue, ...env });
  const worker = await startWorker(deps.config, process.env.TEMPORAL_ADDRESS!, deps, taskQueue);
  closers.push(worker.shutdown);
  return { ...worker, deps };
}

/** The platform's persona mail receiver on a free loopback port; closed after the run. */
export async function startTestMailReceiver(env: Record<string, string> = {}): Promise<SmtpReceiver & { deps: AppDeps }> {
  const deps = await testDeps(env);
  const receiver = await startPersonaMailReceiver(deps, '127.0.0.1:0');
  if (!receiver) throw new Error('the persona mail receiver did not start');
  closers.push(receiver.close);
  return { ...receiver, deps };
}

/** Runs `close` when the test run ends (before the shared database pool and Temporal client close). */
export function closeAfterTestRun(close: () => Promise<void>): void {
  closers.push(close);
}

export async function closeSharedTestResources(): Promise<void> {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await temporal?.connection.close();
  await knex?.destroy();
}
