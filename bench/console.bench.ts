// The console at scale, in real Chromium: the analytics bench's graph (bench/analytics.bench.ts:
// 1,000,000 entities by default, reused from ~/.cache/fip when already seeded; `--entities N` or
// BENCH_CONSOLE_ENTITIES for a smaller one), the API in process, and the console's pages timed from
// navigation to interactive (the page's data shown, no loading state left): the entity page and a
// search with about a thousand hits (risk 100 and 7 sightings: one entity in 707), each beside the
// API time of the same request; and the graph page (/console/graph) for a depth-3 walk capped at 500
// nodes and one at the API's limit of 2,000 nodes, interactive when the Cytoscape canvas holds every
// node the API answered and has drawn them (the page's performance mark graph:first-render, set on
// Cytoscape's first render event after the elements are added). Medians of RUNS.
// BENCH_CONSOLE_ONLY=graph times only the graph page (the seed is reused, so a rerun after a console
// change takes the projection's warm-up and the graph rows only).
import type { Client } from '@temporalio/client';
import { loadConfig } from '../config/config';
import { createKnex } from '../db/connection';
import { migrateLatest } from '../db/migrate';
import { addUserRoles } from '../db/repositories/accounts/user-repository';
import { startEmbeddedPostgres } from '../infra/embedded-postgres';
import { createConfiguredBlobStore } from '../infra/blob-store';
import { createLogger } from '../infra/logger';
import { launchChromium, resolveChromium } from '../infra/chromium';
import { ensureConsoleBuilt } from '../infra/console-build';
import { startApiServer } from '../app/platform-runtime';
import { graphProjectionFor } from '../services/intelligence/graph-projection';
import { id, seedGraph, seededGraphDir } from './analytics.bench';
import { percentile } from './percentile';

const RUNS = 7;
const GOAL_MS = 1000;

function entityCount(): number {
  const at = process.argv.indexOf('--entities');
  const raw = at >= 0 ? process.argv[at + 1] : process.env.BENCH_CONSOLE_ENTITIES;
  const n = raw ? Number(raw.replace(/_/g, '')) : 1_000_000;
  if (!Number.isInteger(n) || n < 10_000) throw new Error(`--entities must be a whole number of at least 10,000 (got ${raw})`);
  return n;
}

const progress = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

async function median(n: number, once: (k: number) => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let k = 0; k < n; k++) times.push(await once(k));
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

/**
 * BENCH_CONSOLE_PROFILE=<max nodes>: one load of the graph page under the CDP sampling profiler;
 * prints the page's own performance measures (graph:*) and the functions with the most self time.
 */
async function profileGraphPage(page: import('playwright-core').Page, url: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const s = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('[data-testid="graph-canvas"][data-nodes]:not([data-nodes="0"])').waitFor();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  const total = performance.now() - s;
  const { profile } = await cdp.send('Profiler.stop');
  const measures = await page.evaluate(() => performance.getEntriesByType('measure').map((m) => `${m.name} ${m.startTime.toFixed(0)}+${m.duration.toFixed(0)} ms`));
  const nav = await page.evaluate(() => { const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming; return `response end ${n.responseEnd.toFixed(0)} ms, DOMContentLoaded ${n.domContentLoadedEventEnd.toFixed(0)} ms`; });
  const self = new Map<number, number>();
  profile.samples?.forEach((nodeId, i) => self.set(nodeId, (self.get(nodeId) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000));
  const byFn = new Map<string, number>();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}:${f.columnNumber}`;
    byFn.set(key, (byFn.get(key) ?? 0) + (self.get(n.id) ?? 0));
  }
  process.stdout.write(`profile of ${url}: ${total.toFixed(0)} ms to the drawn canvas; ${nav}\n  ${measures.join('\n  ')}\n`);
  for (const [k, ms] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 30)) process.stdout.write(`  ${ms.toFixed(1).padStart(8)} ms  ${k}\n`);
}

export async function run(): Promise<void> {
  const entities = entityCount();
  const log = createLogger('warn', 'bench-console');
  const pgServer = await startEmbeddedPostgres({ dataDir: seededGraphDir(entities), port: 20_000 + Math.floor(Math.random() * 20_000), database: 'fip', persistent: true, log });
  const config = loadConfig({ ...process.env, DATABASE_URL: pgServer.url, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true', SVC_LOG__LEVEL: 'warn', SVC_ANALYTICS__DASHBOARD_REFRESH_AFTER_WRITE_SECONDS: '0' });
  const knex = createKnex(pgServer.url, config.postgres.pool_max);
  // The pages measured only read: the API runs without Temporal.
  const api = await startApiServer({ config, knex, temporal: {} as Client, log, blobs: createConfiguredBlobStore(config) }, 0, '127.0.0.1');
  const browser = await launchChromium(await resolveChromium());
  try {
    await migrateLatest(knex);
    let t = Date.now();
    await seedGraph(knex, entities);
    const seeded = (Date.now() - t) / 1000;
    await ensureConsoleBuilt();
    t = Date.now();
    await graphProjectionFor(knex, log).warm();
    progress(`graph projection built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const email = 'bench-console@example.org';
    await addUserRoles(knex, email, ['analyst']);
    const headers = { 'X-Goog-Authenticated-User-Email': `accounts.google.com:${email}`, 'Content-Type': 'application/json' };
    const apiMs = async (path: string, init: RequestInit = {}) => {
      const s = performance.now();
      const res = await fetch(`${api.url}${path}`, { ...init, headers });
      const body = await res.text();
      if (!res.ok) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
      return { ms: performance.now() - s, body };
    };

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${api.url}/console`);
    await page.getByLabel('User').selectOption(email);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const settled = () => page.waitForFunction(() => !Array.from(document.querySelectorAll('[role="status"]')).some((e) => /^Loading /.test(e.textContent ?? '')));
    const pageMs = async (path: string, ready: () => Promise<unknown>) => {
      const s = performance.now();
      await page.goto(`${api.url}${path}`, { waitUntil: 'commit' });
      await ready();
      await settled();
      return performance.now() - s;
    };

    const graphOnly = process.env.BENCH_CONSOLE_ONLY === 'graph';
    const pick = (k: number) => 10 + ((k * 104_729) % (entities - 10));
    const entityApi = graphOnly ? NaN : await median(RUNS, async (k) => (await apiMs(`/intelligence/entities/${id(pick(k))}`)).ms);
    const entityPage = graphOnly ? NaN : await median(RUNS, (k) => pageMs(`/console/entities/${id(pick(k + RUNS))}`, () => page.getByRole('heading', { level: 1 }).filter({ hasText: `bench-${pick(k + RUNS)}.example` }).waitFor()));

    const query = 'risk>=100 sightings>=7';
    const searchBody = JSON.stringify({ query, limit: 100 });
    const hits = graphOnly ? NaN : (JSON.parse((await apiMs('/reviews/search/query', { method: 'POST', body: searchBody })).body) as { total_estimate?: number }).total_estimate ?? NaN;
    const searchApi = graphOnly ? NaN : await median(RUNS, async () => (await apiMs('/reviews/search/query', { method: 'POST', body: searchBody })).ms);
    const searchPage = graphOnly ? NaN : await median(RUNS, () => pageMs(`/console/search?q=${encodeURIComponent(query)}`, () => page.getByText(/matching records/).waitFor()));

    const graphPath = (k: number, depth: number, max: number) => `/intelligence/graph?seed=${id(k % 10)}&depth=${depth}&max_nodes=${max}`;
    const graphNodes = async (k: number, depth: number, max: number) => (JSON.parse((await apiMs(graphPath(k, depth, max))).body) as { nodes: unknown[] }).nodes.length;
    const graphRow = async (depth: number, max: number) => {
      const nodes = await graphNodes(0, depth, max);
      const apiTime = await median(RUNS, async (k) => (await apiMs(graphPath(k, depth, max))).ms);
      const counts = await Promise.all(Array.from({ length: RUNS }, (_, k) => graphNodes(k + RUNS, depth, max)));
      const pageTime = await median(RUNS, (k) =>
        pageMs(`/console/graph?seed=${id((k + RUNS) % 10)}&depth=${depth}&max=${max}`, () =>
          page.locator(`[data-testid="graph-canvas"][data-nodes="${counts[k]}"]`).waitFor().then(() => page.waitForFunction(() => performance.getEntriesByName('graph:first-render').length > 0)),
        ),
      );
      return { nodes, apiTime, pageTime };
    };
    const graph500 = await graphRow(3, 500);
    const graph2000 = await graphRow(3, 2000);
    if (process.env.BENCH_CONSOLE_PROFILE) await profileGraphPage(page, `${api.url}/console/graph?seed=${id(3)}&depth=3&max=${process.env.BENCH_CONSOLE_PROFILE}`);
    await context.close();

    const f = (ms: number) => `${ms.toFixed(0)} ms`.padStart(10);
    const goal = (ms: number) => (ms < GOAL_MS ? 'met' : 'not met');
    process.stdout.write(`console in Chromium, ${entities.toLocaleString()} entities (seeded or reused in ${seeded.toFixed(1)} s), median of ${RUNS}\n`);
    process.stdout.write(`${'view'.padEnd(44)}${'page (TTI)'.padStart(10)}${'API'.padStart(10)}   goal < 1 s\n`);
    if (!graphOnly) process.stdout.write(`${'entity page'.padEnd(44)}${f(entityPage)}${f(entityApi)}   ${goal(entityPage)}\n`);
    if (!graphOnly) process.stdout.write(`${`search "${query}" (${hits} hits, 100 shown)`.padEnd(44)}${f(searchPage)}${f(searchApi)}   ${goal(searchPage)}\n`);
    process.stdout.write(`${`graph depth 3, max 500 (${graph500.nodes} nodes)`.padEnd(44)}${f(graph500.pageTime)}${f(graph500.apiTime)}   ${goal(graph500.pageTime)}\n`);
    process.stdout.write(`${`graph depth 3, max 2,000 (${graph2000.nodes} nodes)`.padEnd(44)}${f(graph2000.pageTime)}${f(graph2000.apiTime)}   ${goal(graph2000.pageTime)}\n`);
  } finally {
    await browser.close();
    await api.close();
    await knex.destroy();
    await pgServer.stop();
  }
}
