// Intelligence analytics at scale: 1,000,000 entities, 3,000,000 edges (+ 200,000 hub edges) and
// 1,000,000 sightings seeded with COPY (pg-copy-streams) into an embedded PostgreSQL of its own,
// kept under ~/.cache/fip/bench-analytics-pg and reused when already seeded. The API runs in
// process with the platform's defaults (pool of SVC_POSTGRES__POOL_MAX connections, the embedded
// cluster's shared_buffers); 50 concurrent keep-alive clients in a child process (bench/http-load.ts)
// measure p50/p95/p99 of the entity list, entity detail, neighbours and the graph at depth 3 from a
// hub (max_nodes 500; in memory with the node fields cached, then uncached, then walked by SQL), and
// of GET /healthz: the floor, what the HTTP stack alone costs at that concurrency on this machine.
// Each closed-loop run also prints the CPU one request costs in the API, in PostgreSQL and in the
// clients' process, and what that allows on this machine's cores (the highest rate, and the least
// mean wait of 50 clients that never pause: Little's law). Then the same clients pause between
// requests (a sweep of mean pauses): latency below saturation, and whether each target holds there.
// Beside them, naive baselines run against the same data: the list sorted on an unindexed
// expression, neighbours through `src = $1 OR dst = $1` without a limit, and the graph as an
// uncapped recursive CTE (cut at 10 s).
// BENCH_QUICK=1 seeds 50,000 entities / 150,000 edges in a separate directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Client } from '@temporalio/client';
import { from as copyFrom } from 'pg-copy-streams';
import type pg from 'pg';
import { loadConfig } from '../config/config';
import { createKnex } from '../db/connection';
import { migrateLatest } from '../db/migrate';
import { addUserRoles } from '../db/repositories/accounts/user-repository';
import { startEmbeddedPostgres } from '../infra/embedded-postgres';
import { createConfiguredBlobStore } from '../infra/blob-store';
import { createLogger } from '../infra/logger';
import { startApiServer } from '../app/platform-runtime';
import { graphProjectionFor } from '../services/intelligence/graph-projection';
import { loadFromChild } from './http-load';
import { percentile as pct } from './percentile';
import { postmasterPid, processTreeCpuMs } from './process-cpu';

const QUICK = process.env.BENCH_QUICK === '1';
const ENTITIES = QUICK ? 50_000 : 1_000_000;
const EDGES_PER_ENTITY = 3;
const HUBS = 10;
const HUB_DEGREE = QUICK ? 2_000 : 20_000;
const CLIENTS = 50;
const REQUESTS = QUICK ? 200 : 1_000;
/** Mean pauses of the paced runs: analysts who read each answer, then more and more hurried ones. */
const THINK_SWEEP_MS = [1_000, 250, 100, 50];
const TYPES = ['domain', 'url', 'ip', 'email', 'wallet', 'phone', 'person', 'organization'];

export const id = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const progress = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

function rows(count: number, line: (i: number) => string | null): Readable {
  let i = 0;
  return new Readable({
    read() {
      let chunk = '';
      while (i < count && chunk.length < 1 << 16) {
        const l = line(i++);
        if (l !== null) chunk += l;
        if (i % 500_000 === 0) progress(`  ${i.toLocaleString()} / ${count.toLocaleString()}`);
      }
      this.push(chunk.length ? chunk : null);
    },
  });
}

async function copy(client: pg.PoolClient, sql: string, source: Readable): Promise<void> {
  await pipeline(source, client.query(copyFrom(sql)));
}

/** The benchmark graph's data directory for `entities` (the default count shares the analytics bench's). */
export function seededGraphDir(entities: number): string {
  const base = path.join(os.homedir(), '.cache', 'fip');
  return entities === 1_000_000 ? path.join(base, 'bench-analytics-pg') : entities === 50_000 ? path.join(base, 'bench-analytics-pg-quick') : path.join(base, `bench-analytics-pg-${entities}`);
}

async function seed(knex: ReturnType<typeof createKnex>): Promise<void> {
  await seedGraph(knex, ENTITIES);
}

/**
 * Seeds `ENTITIES` entities (types in turn, values bench-<i>.example, risk i % 101, sightings
 * 1 + i % 7), 3 edges each plus hub edges, and one sighting each; reused when already there.
 * Also bench/console.bench.ts's data.
 */
export async function seedGraph(knex: ReturnType<typeof createKnex>, ENTITIES: number): Promise<void> {
  const HUB_DEGREE = ENTITIES >= 1_000_000 ? 20_000 : Math.floor(ENTITIES / 25);
  const [{ n }] = (await knex('entities').count({ n: '*' })) as Array<{ n: string }>;
  if (Number(n) >= ENTITIES) {
    progress(`reusing the seeded graph (${Number(n).toLocaleString()} entities)`);
    return;
  }
  const client = (await knex.client.acquireConnection()) as pg.PoolClient;
  try {
    const day = 86_400_000;
    const now = Date.now();
    progress(`COPY ${ENTITIES.toLocaleString()} entities`);
    await copy(
      client,
      'COPY entities (id, type, value, display_value, first_seen_at, last_seen_at, sighting_count, risk_score, loss_max, loss_by_currency, victim_count) FROM STDIN',
      rows(ENTITIES, (i) => {
        const type = TYPES[i % TYPES.length];
        const value = `bench-${i}.example`;
        const seen = new Date(now - (i % 365) * day).toISOString();
        const loss = (i * 7919) % 100_000;
        return `${id(i)}\t${type}\t${value}\t${value}\t${seen}\t${seen}\t${1 + (i % 7)}\t${i % 101}\t${loss}.00\t{"EUR": "${loss}.00"}\t${i % 5}\n`;
      }),
    );
    progress(`COPY ${(ENTITIES * EDGES_PER_ENTITY).toLocaleString()} edges + ${(HUBS * HUB_DEGREE).toLocaleString()} hub edges`);
    const seenAt = new Date(now).toISOString();
    await copy(
      client,
      'COPY relationships (src_entity_id, dst_entity_id, kind, weight, first_seen_at, last_seen_at) FROM STDIN',
      rows(ENTITIES * EDGES_PER_ENTITY, (k) => {
        const i = Math.floor(k / EDGES_PER_ENTITY);
        const j = (i + ((k % EDGES_PER_ENTITY) + 1) * 7919 + 1) % ENTITIES;
        return `${id(i)}\t${id(j)}\tlinks_to\t${1 + (k % 9)}\t${seenAt}\t${seenAt}\n`;
      }),
    );
    await copy(
      client,
      'COPY relationships (src_entity_id, dst_entity_id, kind, weight, first_seen_at, last_seen_at) FROM STDIN',
      rows(HUBS * HUB_DEGREE, (k) => {
        const h = k % HUBS;
        const j = HUBS + Math.floor(k / HUBS) * Math.floor((ENTITIES - HUBS) / HUB_DEGREE) + h;
        return j < ENTITIES ? `${id(h)}\t${id(j)}\tco_occurs\t${1 + (k % 5)}\t${seenAt}\t${seenAt}\n` : null;
      }),
    );
    progress(`COPY ${ENTITIES.toLocaleString()} sightings`);
    await copy(
      client,
      'COPY sightings (entity_id, source_kind, source_id, observed_at) FROM STDIN',
      rows(ENTITIES, (i) => `${id(i)}\t${['intake', 'investigation', 'manual'][i % 3]}\tbench-${i % 10_000}\t${new Date(now - (i % 365) * day).toISOString()}\n`),
    );
    progress('ANALYZE');
    await client.query('ANALYZE entities; ANALYZE relationships; ANALYZE sightings');
  } finally {
    await knex.client.releaseConnection(client);
  }
}

async function measure(label: string, next: (i: number) => Promise<void>): Promise<{ label: string; p50: number; p95: number; p99: number; failures: number }> {
  const latencies: number[] = [];
  let i = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (;;) {
        const k = i++;
        if (k >= REQUESTS) return;
        const t = performance.now();
        try {
          await next(k);
        } catch {
          failures++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { label, p50: pct(latencies, 50), p95: pct(latencies, 95), p99: pct(latencies, 99), failures };
}

export async function run(): Promise<void> {
  const dir = seededGraphDir(ENTITIES);
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const log = createLogger('warn', 'bench-analytics');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  progress(`embedded PostgreSQL in ${dir}`);
  const pgServer = await startEmbeddedPostgres({ dataDir: dir, port, database: 'fip', persistent: true, log });
  const config = loadConfig({ ...process.env, DATABASE_URL: pgServer.url, SVC_DATA_DIR: path.join(dir, 'data'), SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_LOG__LEVEL: 'warn' });
  const knex = createKnex(pgServer.url, config.postgres.pool_max);
  // The baselines get a connection per client: they measure the query, not a queue for the pool.
  const baselineKnex = createKnex(pgServer.url, CLIENTS);
  // The intelligence routes never touch Temporal: the API runs without it.
  const api = await startApiServer({ config, knex, temporal: {} as Client, log, blobs: createConfiguredBlobStore(config) }, 0, '127.0.0.1');
  // The same API with the graph walked by SQL (one query per level): what the in-memory graph replaces.
  const sqlGraphConfig = { ...config, analytics: { ...config.analytics, graph_in_memory: false } };
  const apiSqlGraph = await startApiServer({ config: sqlGraphConfig, knex, temporal: {} as Client, log, blobs: createConfiguredBlobStore(config) }, 0, '127.0.0.1');
  // And with the graph in memory but no node-field cache (a knex of its own, so a projection of its
  // own): what a neighbourhood nobody asked for lately costs, its nodes' fields read from entities.
  const uncachedKnex = createKnex(pgServer.url, config.postgres.pool_max);
  const uncachedConfig = { ...config, analytics: { ...config.analytics, graph_node_cache: 0 } };
  const apiUncached = await startApiServer({ config: uncachedConfig, knex: uncachedKnex, temporal: {} as Client, log, blobs: createConfiguredBlobStore(config) }, 0, '127.0.0.1');
  try {
    await migrateLatest(knex);
    await seed(knex);
    // A running API builds its in-memory graph on the first graph request, in the background (the SQL
    // traversal answers meanwhile); the bench measures the built state, and prints what building cost.
    const rss0 = process.memoryUsage().rss;
    const buildStarted = Date.now();
    const projection = graphProjectionFor(knex, log);
    await projection.warm();
    if (!projection.ready) throw new Error('the graph projection did not build');
    const graphBuild = { seconds: (Date.now() - buildStarted) / 1000, rssMb: (process.memoryUsage().rss - rss0) / 1e6 };
    await graphProjectionFor(uncachedKnex, log, 0).warm();
    const email = 'bench-analyst@example.org';
    await addUserRoles(knex, email, ['analyst']);
    const headers = { 'X-Goog-Authenticated-User-Email': `accounts.google.com:${email}` };
    const postmaster = postmasterPid(pgServer.clusterDir);
    // Each run also measures the CPU its requests cost in the API (this process), in PostgreSQL (the
    // postmaster and its backends) and in the clients' process.
    const http = async (label: string, path: (k: number) => string, thinkMs = 0, baseUrl = api.url) => {
      const api0 = process.cpuUsage();
      const pg0 = processTreeCpuMs(postmaster);
      const load = await loadFromChild({ baseUrl, headers, paths: Array.from({ length: REQUESTS }, (_, k) => path(k)), clients: CLIENTS, requests: REQUESTS, thinkMs });
      const apiCpu = process.cpuUsage(api0);
      const cpu = { api: (apiCpu.user + apiCpu.system) / 1000 / REQUESTS, pg: (processTreeCpuMs(postmaster) - pg0) / REQUESTS, clients: load.cpuMs / REQUESTS };
      return { label, ...load, cpu };
    };
    const pick = (k: number) => HUBS + ((k * 104_729) % (ENTITIES - HUBS));
    // Warm-up: one pass over every path kind, so that the first figures do not pay for cold caches alone.
    await http('warm-up', (k) => [`/intelligence/entities?order_by=risk&entity_type=${TYPES[k % TYPES.length]}&limit=50`, `/intelligence/entities/${id(pick(k + 7))}`, `/intelligence/graph?seed=${id(k % HUBS)}&depth=3&max_nodes=500`][k % 3]!);
    const floor = await http('GET /healthz (the HTTP stack alone)', () => '/healthz');
    const ours = [
      await http('entity list (order_by=risk, type filter, limit 50)', (k) => `/intelligence/entities?order_by=risk&entity_type=${TYPES[k % TYPES.length]}&limit=50`),
      await http('entity detail', (k) => `/intelligence/entities/${id(pick(k))}`),
      // Domains are the entities whose index is a multiple of 8 (TYPES[0]).
      await http('neighbors (limit 100)', (k) => `/intelligence/entities/domain/bench-${pick(k) - (pick(k) % 8)}.example/neighbors`),
      await http('graph depth 3 from a hub, max 500', (k) => `/intelligence/graph?seed=${id(k % HUBS)}&depth=3&max_nodes=500`),
    ];
    const uncachedGraph = await http('graph, node fields not cached', (k) => `/intelligence/graph?seed=${id(k % HUBS)}&depth=3&max_nodes=500`, 0, apiUncached.url);
    const sqlGraph = await http('graph, the same walked by SQL', (k) => `/intelligence/graph?seed=${id(k % HUBS)}&depth=3&max_nodes=500`, 0, apiSqlGraph.url);
    // The same requests from 50 clients that pause between requests (exponential, each mean of the
    // sweep): latency when the server is busy but not saturated, up to the rate at which it is.
    const targets = [
      { label: 'entity list', path: (k: number) => `/intelligence/entities?order_by=risk&entity_type=${TYPES[k % TYPES.length]}&limit=50`, at: 'p99' as const, ms: 50 },
      { label: 'entity detail', path: (k: number) => `/intelligence/entities/${id(pick(k + 1))}`, at: 'p99' as const, ms: 50 },
      { label: 'neighbors', path: (k: number) => `/intelligence/entities/domain/bench-${pick(k + 1) - (pick(k + 1) % 8)}.example/neighbors`, at: null, ms: 0 },
      { label: 'graph depth 3 from a hub', path: (k: number) => `/intelligence/graph?seed=${id(k % HUBS)}&depth=3&max_nodes=500`, at: 'p95' as const, ms: 200 },
    ];
    const paced: Array<{ thinkMs: number; runs: Array<Awaited<ReturnType<typeof http>> & { target: string }> }> = [];
    for (const thinkMs of THINK_SWEEP_MS) {
      const runs = [];
      for (const t of targets) {
        const o = await http(t.label, t.path, thinkMs);
        runs.push({ ...o, target: t.at ? `${t.at} <= ${t.ms} ms: ${o[t.at] <= t.ms ? 'met' : 'not met'}` : '' });
      }
      paced.push({ thinkMs, runs });
    }
    const naive = [
      await measure('list, unindexed sort', (k) => baselineKnex.raw('SELECT * FROM entities WHERE type = ? ORDER BY risk_score + 0 DESC, id DESC LIMIT 50', [TYPES[k % TYPES.length]]).then(() => undefined)),
      await measure('detail, live sightings rollup', (k) => baselineKnex.raw("SELECT e.*, (SELECT json_agg(x) FROM (SELECT source_kind, count(*) FROM sightings WHERE entity_id::text = ? GROUP BY 1) x) FROM entities e WHERE e.id = ?", [id(pick(k)), id(pick(k))]).then(() => undefined)),
      await measure('neighbors, OR without limit', (k) => baselineKnex.raw('SELECT * FROM relationships WHERE src_entity_id = ? OR dst_entity_id = ? ORDER BY weight DESC', [id(pick(k)), id(pick(k))]).then(() => undefined)),
      await measure('graph, uncapped recursive CTE (10 s cut)', (k) =>
        baselineKnex.transaction(async (trx) => {
          await trx.raw("SET LOCAL statement_timeout = '10s'");
          await trx.raw(
            `WITH RECURSIVE g(id, depth) AS (
               SELECT ?::uuid, 0
               UNION
               SELECT CASE WHEN r.src_entity_id = g.id THEN r.dst_entity_id ELSE r.src_entity_id END, g.depth + 1
                 FROM g JOIN relationships r ON r.src_entity_id = g.id OR r.dst_entity_id = g.id WHERE g.depth < 3)
             SELECT DISTINCT id FROM g LIMIT 500`,
            [id(k % HUBS)],
          );
        }),
      ),
    ];
    process.stdout.write(
      `intelligence analytics, ${ENTITIES.toLocaleString()} entities, ${(ENTITIES * EDGES_PER_ENTITY + HUBS * HUB_DEGREE).toLocaleString()} edges, ${CLIENTS} concurrent clients (closed loop, another process), ${REQUESTS} requests each, pool ${config.postgres.pool_max}, shared_buffers ${(await knex.raw('SHOW shared_buffers')).rows[0].shared_buffers}\n`,
    );
    process.stdout.write(`  ${floor.label.padEnd(48)} p50 ${floor.p50.toFixed(1)} p95 ${floor.p95.toFixed(1)} p99 ${floor.p99.toFixed(1)} ms, ${floor.rate.toFixed(0)} req/s (failures ${floor.failures})\n`);
    for (const [k, o] of ours.entries()) {
      const b = naive[k]!;
      process.stdout.write(
        `  ${o.label.padEnd(48)} p50 ${o.p50.toFixed(1)} p95 ${o.p95.toFixed(1)} p99 ${o.p99.toFixed(1)} ms, ${o.rate.toFixed(0)} req/s (failures ${o.failures})` +
          ` | baseline ${b.label}: p50 ${b.p50.toFixed(1)} p95 ${b.p95.toFixed(1)} p99 ${b.p99.toFixed(1)} ms (failures/timeouts ${b.failures}) | p95 ratio ${(b.p95 / o.p95).toFixed(1)}x\n`,
      );
    }
    // What the machine allows: with c ms of CPU per request on n cores, at most n * 1000 / c requests
    // per second; N clients that never pause then wait at least N / rate on average (Little's law),
    // whatever the code does with the rest of its time.
    for (const other of [uncachedGraph, sqlGraph]) {
      process.stdout.write(
        `  ${other.label.padEnd(48)} p50 ${other.p50.toFixed(1)} p95 ${other.p95.toFixed(1)} p99 ${other.p99.toFixed(1)} ms, ${other.rate.toFixed(0)} req/s (failures ${other.failures}) | in memory, cached: p95 ratio ${(other.p95 / ours[3]!.p95).toFixed(1)}x\n`,
      );
    }
    const held = projection.stats()!;
    process.stdout.write(
      `  graph in memory: ${held.edges.toLocaleString()} edges between ${held.nodes.toLocaleString()} entities, built in ${graphBuild.seconds.toFixed(1)} s, RSS +${graphBuild.rssMb.toFixed(0)} MB; node fields cached for ${held.cachedNodeFields.toLocaleString()} entities\n`,
    );
    const cores = os.cpus().length;
    process.stdout.write(`  CPU per request in the closed-loop runs (API process, PostgreSQL, clients' process) and what ${cores} cores allow:\n`);
    for (const o of [floor, ...ours, uncachedGraph, sqlGraph]) {
      const total = o.cpu.api + o.cpu.pg + o.cpu.clients;
      const server = o.cpu.api + o.cpu.pg;
      process.stdout.write(
        `    ${o.label.padEnd(46)} API ${o.cpu.api.toFixed(2)} + PostgreSQL ${o.cpu.pg.toFixed(2)} + clients ${o.cpu.clients.toFixed(2)} = ${total.toFixed(2)} ms:` +
          ` at most ${((cores * 1000) / total).toFixed(0)} req/s, so ${CLIENTS} clients wait >= ${((CLIENTS * total) / cores).toFixed(1)} ms on average` +
          ` (>= ${((CLIENTS * server) / cores).toFixed(1)} ms with the clients on another machine)\n`,
      );
    }
    for (const { thinkMs, runs } of paced) {
      process.stdout.write(`  paced: ${CLIENTS} clients, each pausing ${thinkMs} ms on average (exponential) between requests\n`);
      for (const o of runs) {
        process.stdout.write(
          `  ${('  ' + o.label).padEnd(48)} p50 ${o.p50.toFixed(1)} p95 ${o.p95.toFixed(1)} p99 ${o.p99.toFixed(1)} ms, ${o.rate.toFixed(0)} req/s, CPU API ${o.cpu.api.toFixed(2)} + PostgreSQL ${o.cpu.pg.toFixed(2)} ms (failures ${o.failures})${o.target ? ` | target ${o.target}` : ''}\n`,
        );
      }
    }
  } finally {
    await api.close();
    await apiSqlGraph.close();
    await apiUncached.close();
    await knex.destroy();
    await uncachedKnex.destroy();
    await baselineKnex.destroy();
    await pgServer.stop();
  }
}
