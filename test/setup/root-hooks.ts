// Starts the real infrastructure once for the whole mocha run: an embedded PostgreSQL (migrated)
// and a Temporal dev server (the same binary resolution as `npm start`), on free ports in a
// temporary directory. Tests find them through DATABASE_URL and TEMPORAL_ADDRESS.
import path from 'node:path';
import { ensureConsoleBuilt } from '../../infra/console-build';
import { startEphemeralInfrastructure, type EphemeralInfrastructure } from '../../app/ephemeral-infrastructure';

let infra: EphemeralInfrastructure | null = null;

export async function mochaGlobalSetup(): Promise<void> {
  // `npm test` (test/setup/run-suite.ts) starts the infrastructure once for both of its phases.
  if (process.env.FIP_TEST_INFRA === 'external') return;
  const started = Date.now();
  // The console bundle (served at /console) is built here when missing or stale, beside the infrastructure.
  [infra] = await Promise.all([startEphemeralInfrastructure({ name: 'fip-test', logLevel: process.env.FIP_TEST_LOG_LEVEL }), ensureConsoleBuilt()]);
  process.env.DATABASE_URL = infra.databaseUrl;
  process.env.TEMPORAL_ADDRESS = infra.temporalAddress;
  process.env.TEMPORAL_NAMESPACE = 'default';
  process.env.SVC_DATA_DIR = path.join(infra.dir, 'data');
  process.stderr.write(`test infrastructure up in ${Date.now() - started} ms (${infra.temporalAddress})\n`);
}

export async function mochaGlobalTeardown(): Promise<void> {
  const { closeSharedTestResources } = await import('../support/platform');
  await closeSharedTestResources();
  await infra?.stop();
}
