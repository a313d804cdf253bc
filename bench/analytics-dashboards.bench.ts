// Dashboards at scale: seeds (PostgreSQL COPY through pg-copy-streams) 100,000 intakes, 100,000
// cases each linked to its intake, 200,000 entities (phones, domains, IBANs, wallets) and 300,000
// sightings, 20,000 reviews and 5,000 referrals; refreshes the materialized views once, then runs
// each dashboard and the heaviest widgets at 50 concurrent clients, reading the views (what the API
// does) beside the same aggregations computed live from the base tables in the same process (the
// views' own definitions, so both run one query text). Prints p50/p95/p99 and the ratios.
// BENCH_QUICK=1 seeds a fifth.
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { from as copyFrom } from 'pg-copy-streams';
import { createKnex } from '../db/connection';
import { TAXONOMY_ENTRIES } from '../domain/analytics/scam-taxonomy';
import { startEphemeralInfrastructure } from '../app/ephemeral-infrastructure';
import type { AggregationSource } from '../db/repositories/analytics/analytics-view-repository';
import { analyticsOverview, dashboardOverview, impactDashboard, intelligenceDashboard } from '../services/analytics/analytics-dashboards';
import { refreshAnalytics } from '../services/analytics/analytics-refresh';
import { countrySummary, heatmap, lossByTaxonomy, pipelineFunnel, sankeyFlow, trend } from '../services/analytics/analytics-widgets';
import { percentile as pct } from './percentile';

const QUICK = process.env.BENCH_QUICK === '1';
const N = QUICK ? 20_000 : 100_000;
const CLIENTS = 50;
const VIEW_REQUESTS = QUICK ? 200 : 500;
const LIVE_REQUESTS = QUICK ? 50 : 100;

const esc = (v: unknown) => (v === null || v === undefined ? '\\N' : String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n'));

async function copy(knex: Knex, table: string, columns: string[], rows: () => Generator<unknown[]>): Promise<void> {
  const conn = await knex.client.acquireConnection();
  try {
    const sink = conn.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
    const source = Readable.from((function* () {
      let buf = '';
      for (const r of rows()) {
        buf += `${r.map(esc).join('\t')}\n`;
        if (buf.length > 1 << 16) {
          yield buf;
          buf = '';
        }
      }
      if (buf) yield buf;
    })());
    await pipeline(source, sink);
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

function mod97(digits: string): number {
  let r = 0;
  for (const ch of digits) r = (r * 10 + Number(ch)) % 97;
  return r;
}
const iban = (i: number) => {
  const bban = String(370400440000000000n + BigInt(i)).padStart(18, '0');
  return `DE${String(98 - mod97(`${bban}131400`)).padStart(2, '0')}${bban}`;
};

async function seed(knex: Knex): Promise<void> {
  const start = Date.parse('2024-11-22T00:00:00Z');
  const span = 730 * 86_400_000;
  const at = (i: number) => new Date(start + ((i * 7919) % span)).toISOString();
  const leaves = TAXONOMY_ENTRIES.map((e) => e.path);
  const intakeIds = Array.from({ length: N }, () => randomUUID());
  const caseIds = Array.from({ length: N }, () => randomUUID());
  const currencies = ['EUR', 'USD', 'GBP'];
  await copy(knex, 'intakes', ['id', 'source', 'summary', 'submitted_by', 'loss_amount', 'loss_currency', 'created_at', 'status'], function* () {
    for (let i = 0; i < N; i++) yield [intakeIds[i], 'web', `bench intake ${i}`, 'bench', i % 3 ? `${(i % 5000) + 1}.${String(i % 100).padStart(2, '0')}` : null, i % 3 ? currencies[i % 3] : null, at(i), 'processed'];
  });
  await copy(knex, 'cases', ['id', 'title', 'created_by', 'created_at', 'taxonomy', 'loss_amount', 'loss_currency', 'status'], function* () {
    for (let i = 0; i < N; i++) yield [caseIds[i], `bench case ${i}`, 'bench', at(i + 3), i % 7 ? leaves[i % leaves.length] : null, i % 4 ? null : `${i % 900}.50`, i % 4 ? null : 'EUR', i % 5 ? 'open' : 'closed'];
  });
  await copy(knex, 'case_links', ['case_id', 'target_type', 'target_id', 'linked_by'], function* () {
    for (let i = 0; i < N; i++) yield [caseIds[i], 'intake', intakeIds[i], 'bench'];
  });
  const E = 2 * N;
  const entityIds = Array.from({ length: E }, () => randomUUID());
  const countries = ['de', 'fr', 'nl', 'co.uk', 'com', 'it', 'es'];
  await copy(knex, 'entities', ['id', 'type', 'value', 'display_value', 'attributes', 'first_seen_at', 'last_seen_at', 'sighting_count', 'risk_score'], function* () {
    for (let i = 0; i < E; i++) {
      const kind = i % 4;
      const [type, value, attrs] =
        kind === 0 ? ['phone', `+4420${String(i).padStart(8, '0')}`, { country: 'GB' }]
        : kind === 1 ? ['domain', `shop-${i}.${countries[i % countries.length]}`, {}]
        : kind === 2 ? ['bank_account', iban(i), { kind: 'iban', country: 'DE' }]
        : ['wallet', `0x${i.toString(16).padStart(40, '0')}`, { network: 'ethereum' }];
      yield [entityIds[i], type, value, value, JSON.stringify(attrs), at(i), at(i + 11), 1 + (i % 3), i % 10 === 0 ? 50 + (i % 50) : null];
    }
  });
  await copy(knex, 'sightings', ['id', 'entity_id', 'source_kind', 'source_id', 'observed_at'], function* () {
    for (let i = 0; i < 3 * N; i++) yield [randomUUID(), entityIds[(i * 7 + Math.floor(i / N)) % E], 'intake', intakeIds[i % N], at(i)];
  });
  await knex.raw(`INSERT INTO reviews (case_id, priority, priority_rank, requested_by, created_at)
                  SELECT id, 'medium', 2, 'bench', created_at + interval '1 day' FROM cases WHERE created_by = 'bench' ORDER BY id LIMIT ?`, [N / 5]);
  await knex.raw(`INSERT INTO lea_referrals (case_id, created_by, created_at)
                  SELECT id, 'bench', created_at + interval '2 days' FROM cases WHERE created_by = 'bench' ORDER BY id LIMIT ?`, [N / 20]);
  await knex.raw(`INSERT INTO indicators (entity_id, confidence, valid_from) SELECT id, 55, first_seen_at FROM entities WHERE type IN ('domain', 'wallet') ON CONFLICT DO NOTHING`);
  await knex.raw('ANALYZE');
}

async function measure(requests: number, call: () => Promise<unknown>): Promise<{ p50: number; p95: number; p99: number }> {
  let next = 0;
  const lat: number[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next++ < requests) {
        const t = performance.now();
        await call();
        lat.push(performance.now() - t);
      }
    }),
  );
  lat.sort((a, b) => a - b);
  return { p50: pct(lat, 50), p95: pct(lat, 95), p99: pct(lat, 99) };
}

export async function run(): Promise<void> {
  const infra = await startEphemeralInfrastructure({ name: 'fip-bench-analytics' });
  const knex = createKnex(infra.databaseUrl, 20);
  try {
    let t = Date.now();
    await seed(knex);
    process.stdout.write(`seeded ${N} intakes, ${N} cases, ${2 * N} entities, ${3 * N} sightings in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
    t = Date.now();
    const refreshed = await refreshAnalytics(knex);
    process.stdout.write(`first refresh (classifying ${refreshed.classified_entities} entities by country): ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
    t = Date.now();
    await refreshAnalytics(knex);
    process.stdout.write(`steady refresh (all views, CONCURRENTLY): ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
    const viewer = { roles: ['analyst' as const], minVictims: 0 };
    const window = { since: '2025-01-01', until: '2025-12-31' };
    const cases: Array<[string, (s: AggregationSource) => Promise<unknown>]> = [
      ['GET /intelligence/dashboard', (s) => intelligenceDashboard(knex, viewer, s)],
      ['GET /impact/dashboard', (s) => impactDashboard(knex, s)],
      ['GET /dashboard/overview', (s) => dashboardOverview(knex, s)],
      ['GET /analytics/overview', (s) => analyticsOverview(knex, s)],
      ['widget loss-by-taxonomy', (s) => lossByTaxonomy(knex, s)],
      ['widget pipeline-funnel (1 year)', (s) => pipelineFunnel(knex, s, window)],
      ['widget taxonomy-sankey', (s) => sankeyFlow(knex, s)],
      ['widget heatmap (sightings)', (s) => heatmap(knex, s, 'sightings')],
      ['widget trend (all metrics, weekly, 1 year)', (s) => trend(knex, s, ['intakes', 'cases', 'reviews', 'referrals', 'sightings'], 'week', window)],
      ['widget countries', (s) => countrySummary(knex, s)],
    ];
    process.stdout.write(`\n${CLIENTS} concurrent clients; views: ${VIEW_REQUESTS} requests, live baseline: ${LIVE_REQUESTS} requests (ms)\n`);
    process.stdout.write(`${'answer'.padEnd(44)} ${'views p50/p95/p99'.padStart(22)} ${'live p50/p95/p99'.padStart(26)}   ratio p50 / p99\n`);
    const f = (n: number) => n.toFixed(1);
    for (const [label, call] of cases) {
      await call('view'); // warm-up
      const v = await measure(VIEW_REQUESTS, () => call('view'));
      const l = await measure(LIVE_REQUESTS, () => call('live'));
      process.stdout.write(`${label.padEnd(44)} ${`${f(v.p50)}/${f(v.p95)}/${f(v.p99)}`.padStart(22)} ${`${f(l.p50)}/${f(l.p95)}/${f(l.p99)}`.padStart(26)}   ${(l.p50 / v.p50).toFixed(0)}x / ${(l.p99 / v.p99).toFixed(0)}x\n`);
    }
  } finally {
    await knex.destroy();
    await infra.stop();
  }
}
