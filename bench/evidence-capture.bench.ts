// Evidence capture overhead (`npm run bench -- evidence` runs it beside evidence.bench.ts): scans of
// a fixture exchange with 8 coin tabs whose addresses arrive by XHR after each click (/xhr-deposit,
// which also loads a 3 MB and a 6 MB body), captured as today (response bodies whole up to
// SVC_SSI__MAX_RESPONSE_BODY_MB, default 25 MB; a screenshot, a DOM snapshot and the click's
// exchanges after every reveal) against the capture before those as baseline (bodies cut at 1 MB,
// no after-reveal captures: an internal worker option, not a setting). Each scan runs end to end
// (NAVIGATE ... COMPLETE) on its own worker and its evidence bundle (the signed WACZ) is then
// built; the kinds take turns so a busy machine slows them alike. A third kind (full bodies, no
// after-reveal captures) splits the difference between its two causes. Prints per kind the median
// investigation time, the WACZ size, the wallets found and the ratios; the goal for the capture
// is under 25% more time. Real PostgreSQL, Temporal, worker and Chromium; the site is on 127.0.0.1.
// BENCH_RUNS (default 5) scans of each kind after one warm-up of each.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { startEphemeralInfrastructure } from '../app/ephemeral-infrastructure';
import { connectTemporal, startWorker } from '../app/platform-runtime';
import { loadConfig, type AppConfig } from '../config/config';
import { createKnex } from '../db/connection';
import { insertInvestigation, listRevealRecords } from '../db/repositories/investigations/investigation-repository';
import { investigationTaskId } from '../domain/investigations/investigation-request';
import { createConfiguredBlobStore } from '../infra/blob-store';
import { createLogger } from '../infra/logger';
import { evidenceBundleStream } from '../services/evidence/evidence-bundle';
import { startPlatformWorkflow } from '../services/tasks/platform-workflows';
import { startScamSiteFixture } from '../test/support/scam-site-fixture';
import { ssiInvestigationWorkflow } from '../workflows/investigations/ssi-investigation-workflow';

const TABS = 8;
const MiB = 1024 * 1024;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Kind {
  name: string;
  queue: string;
  config: AppConfig;
}

interface Scan {
  ms: number;
  waczBytes: number;
  wallets: number;
  revealRecords: number;
}

async function investigate(knex: Knex, temporal: Client, kind: Kind, url: string): Promise<Scan> {
  const scanId = randomUUID();
  const options = { max_pages: 1, coin_tabs: true, page_timeout_s: 30 };
  await insertInvestigation(knex, { scanId, url, domain: new URL(url).hostname, requestedBy: 'bench', playbookId: null, caseId: null, label: `bench ${kind.name}`, options });
  const started = Date.now();
  const handle = await startPlatformWorkflow(temporal, {
    workflow: ssiInvestigationWorkflow, workflowId: investigationTaskId(scanId), taskQueue: kind.queue, recordId: scanId, title: 'bench',
    args: [{ scanId, url, playbookId: null, autoPlaybook: false, options }],
  });
  const result = (await handle.result()) as { state: string };
  const ms = Date.now() - started;
  if (result.state !== 'COMPLETE') throw new Error(`bench investigation (${kind.name}) ended in ${result.state}`);
  const blobs = createConfiguredBlobStore(kind.config);
  let waczBytes = 0;
  try {
    const bundle = await evidenceBundleStream({ knex, blobs, config: kind.config }, scanId, { actor: 'bench', action: 'download', artifact: 'evidence-bundle', purpose: 'bench' });
    for await (const chunk of bundle.stream) waczBytes += (chunk as Buffer).length;
  } finally {
    await blobs.close();
  }
  const [wallets] = await knex('wallets').where({ scan_id: scanId }).count<{ n: string }[]>({ n: '*' });
  return { ms, waczBytes, wallets: Number(wallets!.n), revealRecords: (await listRevealRecords(knex, scanId)).length };
}

export async function run(): Promise<void> {
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
  const site = await startScamSiteFixture({ coinTabs: TABS });
  const infra = await startEphemeralInfrastructure({ name: 'fip-bench-evidence-capture' });
  const base = {
    ...process.env, DATABASE_URL: infra.databaseUrl, TEMPORAL_ADDRESS: infra.temporalAddress, SVC_DATA_DIR: path.join(infra.dir, 'data'),
    SVC_POSTGRES__POOL_MAX: '24', SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_LOG__LEVEL: 'warn',
  };
  const log = createLogger('warn', 'bench');
  const knex = createKnex(infra.databaseUrl, 10);
  const temporal = await connectTemporal(loadConfig(base), infra.temporalAddress);
  const url = `${site.origin}/xhr-deposit`;
  const workers = [];
  try {
    const full: Kind = { name: 'full', queue: 'bench-capture-full', config: loadConfig({ ...base, SVC_TEMPORAL__TASK_QUEUE: 'bench-capture-full', SVC_WORKER__INSTANCE: 'bench-full' }) };
    const before: Kind = {
      name: 'baseline', queue: 'bench-capture-baseline',
      config: loadConfig({ ...base, SVC_TEMPORAL__TASK_QUEUE: 'bench-capture-baseline', SVC_WORKER__INSTANCE: 'bench-baseline', SVC_SSI__MAX_RESPONSE_BODY_MB: '1' }),
    };
    // Where the difference goes: full bodies alone, without the after-reveal captures.
    const bodies: Kind = { name: 'bodies', queue: 'bench-capture-bodies', config: loadConfig({ ...base, SVC_TEMPORAL__TASK_QUEUE: 'bench-capture-bodies', SVC_WORKER__INSTANCE: 'bench-bodies' }) };
    workers.push(await startWorker(full.config, infra.temporalAddress, { config: full.config, knex, temporal, log }));
    workers.push(await startWorker(before.config, infra.temporalAddress, { config: before.config, knex, temporal, log, hooks: { revealCaptures: false } }));
    workers.push(await startWorker(bodies.config, infra.temporalAddress, { config: bodies.config, knex, temporal, log, hooks: { revealCaptures: false } }));
    // Warm-up: the first scan launches Chromium.
    for (const kind of [full, before, bodies]) await investigate(knex, temporal, kind, url);
    const scans: Record<string, Scan[]> = { full: [], baseline: [], bodies: [] };
    const orders = [[full, before, bodies], [before, bodies, full], [bodies, full, before]];
    for (let i = 0; i < runs; i++) {
      // Rotate which kind goes first, so none always follows another.
      for (const kind of orders[i % orders.length]!) scans[kind.name]!.push(await investigate(knex, temporal, kind, url));
    }
    const summary = (list: Scan[]) => ({
      ms: median(list.map((s) => s.ms)),
      min: Math.min(...list.map((s) => s.ms)),
      max: Math.max(...list.map((s) => s.ms)),
      mb: median(list.map((s) => s.waczBytes)) / MiB,
      wallets: median(list.map((s) => s.wallets)),
      reveals: median(list.map((s) => s.revealRecords)),
    });
    const f = summary(scans.full!);
    const b = summary(scans.baseline!);
    const o = summary(scans.bodies!);
    const row = (name: string, s: ReturnType<typeof summary>) =>
      `| ${name} | ${(s.ms / 1000).toFixed(2)} s (${(s.min / 1000).toFixed(2)} .. ${(s.max / 1000).toFixed(2)}) | ${s.mb.toFixed(2)} | ${s.reveals} | ${s.wallets} |\n`;
    process.stdout.write(`site with ${TABS} coin tabs revealed by XHR (/xhr-deposit, 3 MB and 6 MB bodies on load), ${runs} scans of each kind after a warm-up:\n`);
    process.stdout.write('| capture | investigation time, median (min .. max) | WACZ MB (median) | after-reveal records | wallets |\n|---|---|---|---|---|\n');
    process.stdout.write(row('full bodies + after-reveal captures (today)', f));
    process.stdout.write(row('bodies cut at 1 MB, no after-reveal captures (baseline)', b));
    process.stdout.write(row('full bodies, no after-reveal captures (where the time goes)', o));
    const overhead = f.ms / b.ms - 1;
    process.stdout.write(`time ratio full/baseline ${(f.ms / b.ms).toFixed(2)}x (${overhead >= 0 ? '+' : ''}${(overhead * 100).toFixed(1)}%; goal < +25%: ${overhead < 0.25 ? 'met' : 'missed'}), WACZ size ratio ${(f.mb / b.mb).toFixed(2)}x\n`);
    const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${(ms / 1000).toFixed(2)} s`;
    // Medians of separate runs: on a busy machine the parts need not add up, or even be positive.
    process.stdout.write(`full bodies alone ${signed(o.ms - b.ms)} over the baseline; after-reveal captures ${signed(f.ms - o.ms)} over full bodies alone (${signed((f.ms - o.ms) / TABS)} per reveal)\n`);
  } finally {
    for (const w of workers) await w.shutdown();
    await temporal.connection.close();
    await knex.destroy();
    await infra.stop();
    await site.close();
  }
}
