// Export throughput and memory: rows/s and peak RSS of the CSV, XLSX and STIX exports of 1,000,000
// entities (each a domain with its indicator), streamed from PostgreSQL through the export service
// into a sink, beside a baseline that reads every row at once and builds the whole export in memory
// (what a naive export does). Targets: >= 50,000 rows/s for CSV and STIX, peak RSS < 300 MB.
//
// The seeded database is kept (FIP_BENCH_DIR, default ~/.cache/fip/bench/exports-pg) and reused by
// later runs; seeding uses COPY (pg-copy-streams). BENCH_QUICK=1 uses 100,000 entities.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from 'pg';
import { stringify } from 'csv-stringify/sync';
import { createKnex } from '../db/connection';
import { migrateLatest } from '../db/migrate';
import { ENTITY_EXPORT_COLUMNS, csvCells } from '../domain/exports/export-rows';
import { bundleHeadObjects, observable, stixIndicator } from '../domain/exports/stix-objects';
import { startEmbeddedPostgres } from '../infra/embedded-postgres';
import { freePort } from '../app/ephemeral-infrastructure';
import { createLogger } from '../infra/logger';
import { entityExportRecord } from '../services/exports/export-records';
import { writeEntityExport, writeIndicatorStix } from '../services/exports/export-service';

const QUICK = process.env.BENCH_QUICK === '1';
const ROWS = QUICK ? 100_000 : 1_000_000;
const TARGET_ROWS_PER_S = 50_000;
const TARGET_RSS_MB = 300;

/** A sink that counts bytes and throws them away. */
function sink(): Writable & { bytes: number } {
  const w = new Writable({
    write(chunk: Buffer, _enc, cb) {
      w.bytes += chunk.length;
      cb();
    },
  }) as Writable & { bytes: number };
  w.bytes = 0;
  return w;
}

/** Runs `fn` while sampling RSS every 20 ms; answers seconds and the peak RSS in MB. */
async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number; peakMb: number }> {
  global.gc?.();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = process.hrtime.bigint();
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9, peakMb: peak / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

async function seed(knex: ReturnType<typeof createKnex>): Promise<void> {
  const have = Number((await knex('entities').count<{ count: string }[]>('* as count'))[0]!.count);
  if (have >= ROWS) {
    process.stdout.write(`reusing ${have} seeded entities\n`);
    return;
  }
  process.stdout.write(`seeding ${ROWS - have} entities with COPY ...\n`);
  const client = (await knex.client.acquireConnection()) as PoolClient;
  try {
    const now = new Date().toISOString();
    let i = have;
    const source = new Readable({
      read() {
        const lines: string[] = [];
        for (let n = 0; n < 5000 && i < ROWS; n++, i++) {
          const v = `bench-${i}-${i % 7 === 0 ? '=cmd' : 'shop'}.example`.replace('=', 'x');
          lines.push(`${randomUUID()},domain,${v},${v},{},${now},${now},1,${i % 100}\n`);
        }
        this.push(lines.length ? lines.join('') : null);
      },
    });
    const copy = client.query(copyFrom('COPY entities (id, type, value, display_value, attributes, first_seen_at, last_seen_at, sighting_count, risk_score) FROM STDIN (FORMAT csv)'));
    await pipeline(source, copy);
  } finally {
    await knex.client.releaseConnection(client);
  }
  await knex.raw(`INSERT INTO indicators (entity_id, confidence, valid_from) SELECT e.id, 40, e.first_seen_at FROM entities e WHERE NOT EXISTS (SELECT 1 FROM indicators i WHERE i.entity_id = e.id)`);
  await knex.raw('ANALYZE');
}

export async function run(): Promise<void> {
  const log = createLogger('warn', 'bench-exports');
  const dir = process.env.FIP_BENCH_DIR ?? path.join(os.homedir(), '.cache', 'fip', 'bench', `exports-pg-${ROWS}`);
  fs.mkdirSync(dir, { recursive: true });
  const pg = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), database: 'fip', persistent: true, log });
  const knex = createKnex(pg.url, 4);
  try {
    await migrateLatest(knex);
    await seed(knex);
    const figures: Array<[string, { seconds: number; peakMb: number; result: number }]> = [];
    const csv = await measure(async () => writeEntityExport(knex, 'csv', {}, false, sink()));
    figures.push(['CSV (streamed)', csv]);
    const stix = await measure(async () => (await writeIndicatorStix(knex, {}, sink())).indicators);
    figures.push(['STIX (streamed)', stix]);
    const xlsx = await measure(async () => writeEntityExport(knex, 'xlsx', {}, false, sink()));
    figures.push(['XLSX (streamed)', xlsx]);
    // Baselines last: they leave the heap grown, which would inflate the streamed peaks.
    const csvBase = await measure(async () => {
      const rows = (await knex('entities').select('*')) as Parameters<typeof entityExportRecord>[0][];
      const text = stringify(rows.map((r) => csvCells(entityExportRecord(r, false))), { header: true, columns: [...ENTITY_EXPORT_COLUMNS] });
      return text.length > 0 ? rows.length : 0;
    });
    figures.push(['CSV baseline (in memory)', csvBase]);
    // At a million indicators the whole bundle no longer fits in one JavaScript string (V8's limit
    // is about 512 MB): the in-memory way fails outright, which is the point of streaming.
    let stixBaseFailure = '';
    const stixBase = await measure(async () => {
      const rows = (await knex('indicators as i').join('entities as e', 'e.id', 'i.entity_id').select('i.*', 'e.type', 'e.value')) as Parameters<typeof stixIndicator>[0][];
      try {
        const bundle = JSON.stringify({ type: 'bundle', id: `bundle--${randomUUID()}`, objects: [...bundleHeadObjects(), ...rows.flatMap((r) => [observable(r.type, r.value), stixIndicator(r)])] });
        return bundle.length > 0 ? rows.length : 0;
      } catch (err) {
        stixBaseFailure = err instanceof Error ? err.message : String(err);
        return 0;
      }
    });
    figures.push([stixBaseFailure ? `STIX baseline FAILED (${stixBaseFailure})` : 'STIX baseline (in memory)', stixBase]);

    process.stdout.write(`\n${ROWS.toLocaleString('en')} entities\n`);
    process.stdout.write(`${'export'.padEnd(28)}${'rows'.padStart(10)}${'rows/s'.padStart(10)}${'peak RSS MB'.padStart(13)}\n`);
    for (const [name, f] of figures) {
      process.stdout.write(`${name.padEnd(28)}${String(f.result).padStart(10)}${Math.round(f.result / f.seconds).toString().padStart(10)}${f.peakMb.toFixed(0).padStart(13)}\n`);
    }
    const rate = (f: { seconds: number; result: number }) => f.result / f.seconds;
    process.stdout.write(`\nCSV: ${(rate(csv) / rate(csvBase)).toFixed(2)}x the baseline's rows/s at ${(csv.peakMb / csvBase.peakMb).toFixed(2)}x its peak RSS\n`);
    process.stdout.write(stixBaseFailure
      ? `STIX: the in-memory baseline failed (${stixBaseFailure}) after reaching ${stixBase.peakMb.toFixed(0)} MB peak RSS; streamed: ${stix.peakMb.toFixed(0)} MB\n`
      : `STIX: ${(rate(stix) / rate(stixBase)).toFixed(2)}x the baseline's rows/s at ${(stix.peakMb / stixBase.peakMb).toFixed(2)}x its peak RSS\n`);
    const ok = (f: { seconds: number; result: number; peakMb: number }, needRate: boolean) => (!needRate || rate(f) >= TARGET_ROWS_PER_S) && f.peakMb < TARGET_RSS_MB;
    process.stdout.write(`targets (>= ${TARGET_ROWS_PER_S} rows/s CSV and STIX, peak RSS < ${TARGET_RSS_MB} MB): CSV ${ok(csv, true) ? 'met' : 'MISSED'}, STIX ${ok(stix, true) ? 'met' : 'MISSED'}, XLSX RSS ${ok(xlsx, false) ? 'met' : 'MISSED'}\n`);
  } finally {
    await knex.destroy();
    await pg.stop();
  }
}
