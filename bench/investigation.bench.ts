// Investigations: end-to-end time of one scan of a fixture site whose deposit page has 8 coin tabs
// (target: under 15 s on a 2-core machine), beside the same scan with wallet extraction only in the
// final sweep (SVC_SSI__EXTRACT_ON_TRANSITIONS=false), and the throughput of 10 concurrent scans.
// Real PostgreSQL, Temporal, worker and Chromium; the site is served on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { loadConfig } from '../config/config';
import { createKnex } from '../db/connection';
import { insertInvestigation } from '../db/repositories/investigations/investigation-repository';
import { investigationTaskId } from '../domain/investigations/investigation-request';
import { startEphemeralInfrastructure } from '../app/ephemeral-infrastructure';
import { createLogger } from '../infra/logger';
import { startPlatformWorkflow } from '../services/tasks/platform-workflows';
import { startScamSiteFixture } from '../test/support/scam-site-fixture';
import { connectTemporal, startWorker } from '../app/platform-runtime';
import { ssiInvestigationWorkflow } from '../workflows/investigations/ssi-investigation-workflow';

const TABS = 8;
const CONCURRENT = 10;
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function investigate(knex: Knex, temporal: Client, taskQueue: string, url: string): Promise<{ ms: number; wallets: number }> {
  const scanId = randomUUID();
  const options = { max_pages: 1, coin_tabs: true, page_timeout_s: 30 };
  await insertInvestigation(knex, { scanId, url, domain: new URL(url).hostname, requestedBy: 'bench', playbookId: null, caseId: null, label: 'bench', options });
  const started = Date.now();
  const handle = await startPlatformWorkflow(temporal, {
    workflow: ssiInvestigationWorkflow, workflowId: investigationTaskId(scanId), taskQueue, recordId: scanId, title: 'bench',
    args: [{ scanId, url, playbookId: null, autoPlaybook: false, options }],
  });
  const result = (await handle.result()) as { wallets: number; state: string };
  if (result.state !== 'COMPLETE') throw new Error(`bench investigation ended in ${result.state}`);
  const n = await knex('wallets').where({ scan_id: scanId }).count<{ n: string }[]>({ n: '*' });
  return { ms: Date.now() - started, wallets: Number(n[0]!.n) };
}

export async function run(): Promise<void> {
  const site = await startScamSiteFixture({ coinTabs: TABS });
  const infra = await startEphemeralInfrastructure({ name: 'fip-bench-investigation' });
  const base = {
    ...process.env, DATABASE_URL: infra.databaseUrl, TEMPORAL_ADDRESS: infra.temporalAddress, SVC_DATA_DIR: path.join(infra.dir, 'data'),
    SVC_POSTGRES__POOL_MAX: '24', SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_LOG__LEVEL: 'warn',
  };
  const log = createLogger('warn', 'bench');
  const knex = createKnex(infra.databaseUrl, 10);
  const temporal = await connectTemporal(loadConfig(base), infra.temporalAddress);
  const url = `${site.origin}/tabs-only`;
  const workers = [];
  try {
    const onTransitions = loadConfig({ ...base, SVC_TEMPORAL__TASK_QUEUE: 'bench-transitions', SVC_WORKER__INSTANCE: 'bench-a' });
    const atEnd = loadConfig({ ...base, SVC_TEMPORAL__TASK_QUEUE: 'bench-end', SVC_WORKER__INSTANCE: 'bench-b', SVC_SSI__EXTRACT_ON_TRANSITIONS: 'false' });
    workers.push(await startWorker(onTransitions, infra.temporalAddress, { config: onTransitions, knex, temporal, log }));
    workers.push(await startWorker(atEnd, infra.temporalAddress, { config: atEnd, knex, temporal, log }));
    // Warm-up: the first scan launches Chromium.
    await investigate(knex, temporal, 'bench-transitions', url);
    await investigate(knex, temporal, 'bench-end', url);
    const a = await investigate(knex, temporal, 'bench-transitions', url);
    const b = await investigate(knex, temporal, 'bench-end', url);
    const started = Date.now();
    const many = await Promise.all(Array.from({ length: CONCURRENT }, () => investigate(knex, temporal, 'bench-transitions', url)));
    const total = Date.now() - started;
    process.stdout.write(
      [
        `site with ${TABS} coin tabs, end to end (NAVIGATE ... COMPLETE):`,
        `  extraction on every transition + final sweep: ${fmt(a.ms)} (${a.wallets} wallets)   target < 15 s: ${a.ms < 15_000 ? 'met' : 'missed'}`,
        `  extraction only in the final sweep:           ${fmt(b.ms)} (${b.wallets} wallets)   ratio ${(a.ms / b.ms).toFixed(2)}x`,
        `${CONCURRENT} concurrent investigations: ${fmt(total)} in all, ${(CONCURRENT / (total / 60_000)).toFixed(1)} per minute; each ${fmt(Math.min(...many.map((m) => m.ms)))} .. ${fmt(Math.max(...many.map((m) => m.ms)))}`,
      ].join('\n') + '\n',
    );
  } finally {
    for (const w of workers) await w.shutdown();
    await temporal.connection.close();
    await knex.destroy();
    await infra.stop();
    await site.close();
  }
}
