// Intelligence search latency on a million entities and 100,000 cases with realistic text: p50/p95
// of a representative query mix through the search service (parse, count, rank, highlight, mask,
// history), beside the same queries written as ILIKE scans. Target: p95 <= 100 ms.
//
// Seeding (COPY through pg-copy-streams into a throw-away embedded PostgreSQL) takes minutes, so
// the data directory is kept and reused: BENCH_SEARCH_DATA_DIR (default
// $TMPDIR/fip-bench-search-pg). A directory whose seed marker says it is complete is used as it
// is; delete the directory (or set BENCH_SEARCH_RESEED=1) to seed again. BENCH_QUICK=1 runs fewer
// rounds (the data size stays the same).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Knex } from 'knex';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createKnex } from '../db/connection';
import { migrateLatest } from '../db/migrate';
import { freePort } from '../app/ephemeral-infrastructure';
import { startEmbeddedPostgres } from '../infra/embedded-postgres';
import { createLogger } from '../infra/logger';
import { runSearch } from '../services/search/search-service';
import type { SearchRecordType } from '../domain/search/search-fields';
import { percentile as pct } from './percentile';

const QUICK = process.env.BENCH_QUICK === '1';
const ENTITIES = 1_000_000;
const CASES = 100_000;
const ROUNDS = QUICK ? 5 : 20;
const BASELINE_ROUNDS = QUICK ? 2 : 5;
const TARGET_P95_MS = 100;
const SEED_VERSION = 1;

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
let rngState = 0x2545f491;
/** Deterministic (xorshift32), so a re-seed makes the same data. */
function rand(): number {
  rngState ^= rngState << 13;
  rngState ^= rngState >>> 17;
  rngState ^= rngState << 5;
  return (rngState >>> 0) / 0x100000000;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const chars = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
const uuid = () => {
  const b = randomBytes(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const SCAMS = ['pig butchering', 'romance scam', 'fake investment platform', 'crypto recovery scam', 'impersonation of a bank', 'fake exchange', 'advance-fee fraud', 'tech support scam', 'job offer scam', 'NFT giveaway', 'phishing of wallet seed', 'sextortion', 'rug pull', 'ponzi scheme'];
const CHANNELS = ['WhatsApp', 'Telegram', 'Instagram', 'a dating app', 'LinkedIn', 'a cold call', 'Facebook ads', 'an SMS', 'an e-mail', 'Discord', 'TikTok'];
const VICTIMS = ['retired teacher', 'nurse', 'student', 'small business owner', 'engineer', 'pensioner', 'widow', 'IT consultant', 'farmer', 'accountant'];
const VERBS = ['transferred', 'sent', 'deposited', 'wired', 'paid', 'moved'];
const ASSETS = ['USDT', 'bitcoin', 'ether', 'TRX', 'USDC', 'savings', 'a loan', 'pension money'];
const EXTRAS = ['The platform showed fake profits and blocked withdrawals.', 'A "tax" was demanded before any withdrawal.', 'The contact disappeared after the last payment.', 'The victim was coached to install remote-access software.', 'Screenshots of the trading dashboard are attached.', 'A second group offered recovery for a fee.', 'Bank flagged the transfer but it went through.', 'Several other victims reported the same domain.', 'The website used a cloned brand of a real broker.', 'Payments were split into small amounts to avoid limits.'];
const TLDS = ['com', 'net', 'io', 'co', 'app', 'xyz', 'top', 'online', 'vip', 'pro'];
const WORDS = ['invest', 'trade', 'coin', 'secure', 'global', 'profit', 'wealth', 'capital', 'smart', 'prime', 'crypto', 'asset', 'fund', 'yield', 'vault', 'gold', 'alpha', 'bit', 'chain', 'royal'];
const STATUSES = ['open', 'open', 'open', 'in_review', 'closed', 'closed'];
const PRIORITIES = ['low', 'medium', 'medium', 'high', 'critical'];

function walletValue(i: number): { type: string; value: string } {
  const r = i % 10;
  if (r < 5) return { type: 'wallet', value: `T${chars(B58, 33)}` };
  if (r < 8) return { type: 'wallet', value: `0x${chars(HEX, 40)}` };
  return { type: 'wallet', value: `bc1q${chars('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)}` };
}

function entityValue(i: number): { type: string; value: string } {
  const r = i % 20;
  if (r < 8) return walletValue(i);
  if (r < 14) return { type: 'domain', value: `${pick(WORDS)}-${pick(WORDS)}${i}.${pick(TLDS)}` };
  if (r < 18) return { type: 'url', value: `https://${pick(WORDS)}${pick(WORDS)}${i}.${pick(TLDS)}/${pick(['login', 'deposit', 'withdraw', 'wallet', 'kyc', 'support'])}` };
  if (r < 19) return { type: 'email', value: `${pick(WORDS)}.${pick(WORDS)}${i}@${pick(['mail', 'proton', 'gmx', 'outlook'])}.${pick(TLDS)}` };
  return { type: 'phone', value: `+44${String(7000000000 + i).slice(0, 10)}` };
}

const tsv = (v: string | number | null) => (v === null ? '\\N' : String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n'));
const line = (cols: Array<string | number | null>) => `${cols.map(tsv).join('\t')}\n`;

async function copyRows(knex: Knex, sql: string, rows: AsyncIterable<string> | Iterable<string>): Promise<void> {
  const conn = (await knex.client.acquireConnection()) as pg.PoolClient;
  try {
    await pipeline(Readable.from(rows), conn.query(copyFrom(sql)));
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

function progress(label: string, done: number, total: number, started: number) {
  process.stdout.write(`  seeding ${label}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
}

async function seed(knex: Knex): Promise<void> {
  const started = Date.now();
  await knex.raw('TRUNCATE cases, entities, sightings CASCADE');
  await knex.raw('DROP TABLE IF EXISTS bench_search_seed');
  // Full-text and trigram indexes are built once after loading (much faster than per row).
  await knex.raw('DROP INDEX IF EXISTS entities_search_tsv_idx, entities_value_trgm_idx, cases_search_tsv_idx');
  const walletIds: string[] = [];
  const domainIds: string[] = [];
  function* entities() {
    const now = Date.parse('2026-06-01T00:00:00Z');
    for (let i = 0; i < ENTITIES; i++) {
      const { type, value } = entityValue(i);
      const id = uuid();
      if (type === 'wallet' && walletIds.length < 300_000) walletIds.push(id);
      if (type === 'domain' && domainIds.length < 100_000) domainIds.push(id);
      const seen = new Date(now - Math.floor(rand() * 540) * 86_400_000).toISOString();
      yield line([id, type, value, value, '{}', seen, seen, 1 + Math.floor(rand() * 5), Math.floor(rand() * 100)]);
      if ((i + 1) % 200_000 === 0) progress('entities', i + 1, ENTITIES, started);
    }
  }
  await copyRows(knex, 'COPY entities (id, type, value, display_value, attributes, first_seen_at, last_seen_at, sighting_count, risk_score) FROM STDIN', entities());
  const caseIds: string[] = [];
  function* cases() {
    const now = Date.parse('2026-06-01T00:00:00Z');
    for (let i = 0; i < CASES; i++) {
      const id = uuid();
      caseIds.push(id);
      const scam = pick(SCAMS);
      const title = `${scam[0].toUpperCase()}${scam.slice(1)} via ${pick(CHANNELS)}: ${pick(VICTIMS)} lost ${pick(ASSETS)}`;
      const description = `A ${pick(VICTIMS)} was contacted on ${pick(CHANNELS)} and ${pick(VERBS)} ${pick(ASSETS)} to ${pick(WORDS)}-${pick(WORDS)}.${pick(TLDS)} after a ${scam}. ${pick(EXTRAS)} ${pick(EXTRAS)}`;
      const loss = rand() < 0.9 ? (Math.floor(rand() * 5_000_000) / 100).toFixed(2) : null;
      const created = new Date(now - Math.floor(rand() * 540 * 86_400) * 1000).toISOString();
      yield line([id, title, description, pick(STATUSES), pick(PRIORITIES), loss, loss === null ? null : pick(['EUR', 'EUR', 'USD', 'GBP']), 'bench@example.org', created, created]);
      if ((i + 1) % 50_000 === 0) progress('cases', i + 1, CASES, started);
    }
  }
  await copyRows(knex, 'COPY cases (id, title, description, status, priority, loss_amount, loss_currency, created_by, created_at, updated_at) FROM STDIN', cases());
  function* sightings() {
    const at = '2026-01-01T00:00:00Z';
    for (let i = 0; i < caseIds.length; i++) {
      const seen = new Set<string>();
      for (let k = 0; k < 2; k++) seen.add(pick(walletIds));
      seen.add(pick(domainIds));
      for (const e of seen) yield line([uuid(), e, 'case', caseIds[i], at, '{}']);
    }
  }
  await copyRows(knex, 'COPY sightings (id, entity_id, source_kind, source_id, observed_at, context) FROM STDIN', sightings());
  progress('sightings', caseIds.length * 3, CASES * 3, started);
  process.stdout.write('  building full-text and trigram indexes...\n');
  await knex.raw('CREATE INDEX entities_search_tsv_idx ON entities USING gin (search_tsv)');
  await knex.raw('CREATE INDEX entities_value_trgm_idx ON entities USING gin (value gin_trgm_ops)');
  await knex.raw('CREATE INDEX cases_search_tsv_idx ON cases USING gin (search_tsv)');
  await knex.raw('ANALYZE');
  await knex.raw('CREATE TABLE bench_search_seed (version int, entities int, cases int, seeded_at timestamptz DEFAULT now())');
  await knex('bench_search_seed').insert({ version: SEED_VERSION, entities: ENTITIES, cases: CASES });
  process.stdout.write(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

async function seeded(knex: Knex): Promise<boolean> {
  const exists = await knex.schema.hasTable('bench_search_seed');
  if (!exists || process.env.BENCH_SEARCH_RESEED === '1') return false;
  const row = (await knex('bench_search_seed').first()) as { version: number; entities: number; cases: number } | undefined;
  return row?.version === SEED_VERSION && row.entities === ENTITIES && row.cases === CASES;
}

interface MixQuery {
  label: string;
  query: string;
  types?: SearchRecordType[];
  /** The same question as ILIKE scans (first page of 50 + count, as the engine answers). */
  baseline: { sql: string; bindings: unknown[] };
}

/** The mix: the example query (wallet:TQ* AND loss>5000 NOT status:closed), phrases, free text with filters, wallet prefix and substring, domain substring. */
function queryMix(walletPrefix: string, walletInfix: string): MixQuery[] {
  const page = (inner: string) => `WITH m AS (${inner}) SELECT (SELECT count(*) FROM m) AS total, (SELECT json_agg(x) FROM (SELECT * FROM m ORDER BY created DESC LIMIT 50) x) AS page`;
  return [
    {
      label: `wallet:${walletPrefix}* AND loss>5000 NOT status:closed`,
      query: `wallet:${walletPrefix}* AND loss>5000 NOT status:closed`,
      types: ['case'],
      baseline: {
        sql: page(`SELECT c.id, c.created_at AS created FROM cases c WHERE c.loss_amount > 5000 AND c.status <> 'closed' AND EXISTS (SELECT 1 FROM sightings s JOIN entities e ON e.id = s.entity_id WHERE s.source_kind = 'case' AND s.source_id = c.id::text AND e.type = 'wallet' AND e.value ILIKE ?)`),
        bindings: [`${walletPrefix}%`],
      },
    },
    {
      label: '"pig butchering" telegram (all types)',
      query: '"pig butchering" telegram',
      baseline: {
        sql: page(`SELECT id, created_at AS created FROM cases WHERE (title || ' ' || description) ILIKE ? AND (title || ' ' || description) ILIKE ? UNION ALL SELECT id, first_seen_at FROM entities WHERE display_value ILIKE ? AND display_value ILIKE ?`),
        bindings: ['%pig butchering%', '%telegram%', '%pig butchering%', '%telegram%'],
      },
    },
    {
      label: 'pension* recovery loss:[1000 TO 5000] created>=2026-01-01',
      query: 'pension* recovery loss:[1000 TO 5000] created>=2026-01-01',
      types: ['case'],
      baseline: {
        sql: page(`SELECT id, created_at AS created FROM cases WHERE (title || ' ' || description) ILIKE ? AND (title || ' ' || description) ILIKE ? AND loss_amount BETWEEN 1000 AND 5000 AND created_at >= '2026-01-01'`),
        bindings: ['%pension%', '%recovery%'],
      },
    },
    {
      label: `wallet:*${walletInfix}* (entities)`,
      query: `wallet:*${walletInfix}*`,
      types: ['entity'],
      baseline: { sql: page(`SELECT id, first_seen_at AS created FROM entities WHERE type = 'wallet' AND value ILIKE ?`), bindings: [`%${walletInfix}%`] },
    },
    {
      label: 'domain:*royal-gold* OR url:*royalgold*',
      query: 'domain:*royal-gold* OR url:*royalgold*',
      types: ['entity'],
      baseline: { sql: page(`SELECT id, first_seen_at AS created FROM entities WHERE (type = 'domain' AND value ILIKE ?) OR (type = 'url' AND value ILIKE ?)`), bindings: ['%royal-gold%', '%royalgold%'] },
    },
    {
      label: 'romance OR sextortion NOT status:closed (all types)',
      query: 'romance OR sextortion NOT status:closed',
      baseline: {
        sql: page(`SELECT id, created_at AS created FROM cases WHERE ((title || ' ' || description) ILIKE ? OR (title || ' ' || description) ILIKE ?) AND status <> 'closed' UNION ALL SELECT id, first_seen_at FROM entities WHERE display_value ILIKE ? OR display_value ILIKE ?`),
        bindings: ['%romance%', '%sextortion%', '%romance%', '%sextortion%'],
      },
    },
  ];
}


async function time(rounds: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

export async function run(): Promise<void> {
  const dataDir = process.env.BENCH_SEARCH_DATA_DIR ?? path.join(os.tmpdir(), 'fip-bench-search-pg');
  const log = createLogger('warn', 'bench-search');
  process.stdout.write(`search benchmark: PostgreSQL data in ${dataDir} (kept and reused; BENCH_SEARCH_RESEED=1 seeds again)\n`);
  const pgServer = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'fip_bench_search', persistent: true, log });
  const knex = createKnex(pgServer.url, 4);
  try {
    await migrateLatest(knex);
    if (await seeded(knex)) process.stdout.write('  reusing the seeded data\n');
    else await seed(knex);
    const [{ entities }] = (await knex('entities').count({ entities: '*' })) as Array<{ entities: string }>;
    const [{ cases }] = (await knex('cases').count({ cases: '*' })) as Array<{ cases: string }>;
    process.stdout.write(`  ${Number(entities).toLocaleString('en')} entities, ${Number(cases).toLocaleString('en')} cases\n`);
    // A prefix and an infix taken from the data (so that both find something).
    const sample = (await knex('entities').select('value').where('type', 'wallet').whereRaw("value LIKE 'T%'").orderBy('id').first()) as { value: string };
    const mix = queryMix(sample.value.slice(0, 3), sample.value.slice(10, 14));
    const caller = { name: 'bench@example.org', roles: ['analyst' as const] };

    const rows: Array<{ label: string; p50: number; p95: number; b50: number; b95: number; total: number }> = [];
    const all: number[] = [];
    const allBase: number[] = [];
    for (const q of mix) {
      const req = { query: q.query, types: q.types, limit: 50 };
      const first = await runSearch(knex, caller, req); // warm-up, not counted
      const lat = await time(ROUNDS, () => runSearch(knex, caller, req));
      await knex.raw(q.baseline.sql, q.baseline.bindings as Knex.RawBinding[]); // warm-up
      const base = await time(BASELINE_ROUNDS, () => knex.raw(q.baseline.sql, q.baseline.bindings as Knex.RawBinding[]));
      all.push(...lat);
      allBase.push(...base);
      rows.push({ label: q.label, p50: pct(lat, 50), p95: pct(lat, 95), b50: pct(base, 50), b95: pct(base, 95), total: first.total_estimate });
      process.stdout.write(`  measured: ${q.label}\n`);
    }
    all.sort((a, b) => a - b);
    allBase.sort((a, b) => a - b);
    process.stdout.write(`\nsearch latency, ${ROUNDS} rounds per query (engine) and ${BASELINE_ROUNDS} (ILIKE scans), first page of 50 with counts\n`);
    process.stdout.write(`  ${'query'.padEnd(62)} ${'matches'.padStart(8)}  ${'engine p50/p95 ms'.padStart(18)}  ${'ILIKE p50/p95 ms'.padStart(18)}  ratio p95\n`);
    for (const r of rows) {
      process.stdout.write(`  ${r.label.slice(0, 62).padEnd(62)} ${String(r.total).padStart(8)}  ${`${r.p50.toFixed(1)} / ${r.p95.toFixed(1)}`.padStart(18)}  ${`${r.b50.toFixed(0)} / ${r.b95.toFixed(0)}`.padStart(18)}  ${(r.b95 / r.p95).toFixed(1)}x\n`);
    }
    const p95 = pct(all, 95);
    process.stdout.write(`  whole mix: engine p50 ${pct(all, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms; ILIKE p50 ${pct(allBase, 50).toFixed(0)} ms, p95 ${pct(allBase, 95).toFixed(0)} ms; ratio (ILIKE/engine, p95) ${(pct(allBase, 95) / p95).toFixed(1)}x\n`);
    process.stdout.write(`  target p95 <= ${TARGET_P95_MS} ms: ${p95 <= TARGET_P95_MS ? 'met' : 'NOT met'}\n`);
  } finally {
    await knex.destroy();
    await pgServer.stop();
  }
}
