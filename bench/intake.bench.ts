// Intake submission throughput: intakes per second at 20 concurrent clients, each request with a
// distinct 1 MB file (hashed, sniffed and stored content-addressed, contact data sealed in the
// vault, rows committed, the intake-<id> workflow started), beside the same requests without
// files. Real API, PostgreSQL and Temporal; no worker polls the queue, so processing does not
// compete with submission for the two cores (processing is measured by the tests, not here).
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from '../config/config';
import { createKnex } from '../db/connection';
import { insertApiKey } from '../db/repositories/accounts/api-key-repository';
import { generateApiKey } from '../domain/accounts/api-key-format';
import { startEphemeralInfrastructure } from '../app/ephemeral-infrastructure';
import { createConfiguredBlobStore } from '../infra/blob-store';
import { createLogger } from '../infra/logger';
import { connectTemporal, startApiServer } from '../app/platform-runtime';
import { percentile as pct } from './percentile';

const QUICK = process.env.BENCH_QUICK === '1';
const REQUESTS = QUICK ? 100 : 400;
const CLIENTS = 20;
const FILE_BYTES = 1024 * 1024;
const TARGET_PER_S = 50;


async function load(url: string, key: string, withFile: boolean): Promise<{ perSecond: number; p50: number; p95: number; failures: number }> {
  const base = randomBytes(FILE_BYTES);
  let next = 0;
  let failures = 0;
  const latencies: number[] = [];
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (;;) {
        const i = next++;
        if (i >= REQUESTS) return;
        const form = new FormData();
        form.append('payload', JSON.stringify({ summary: `bench ${i}`, details: 'Send USDT to TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', contact_email: `reporter${i}@example.org` }));
        if (withFile) {
          const bytes = Buffer.from(base);
          bytes.write(randomUUID(), 0); // every file distinct: each is hashed and stored
          form.append('files', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), `evidence-${i}.bin`);
        }
        const t = Date.now();
        const res = await fetch(`${url}/intakes`, { method: 'POST', headers: { 'X-API-KEY': key }, body: form });
        await res.arrayBuffer();
        latencies.push(Date.now() - t);
        if (res.status !== 201) failures++;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: REQUESTS / seconds, p50: pct(latencies, 50), p95: pct(latencies, 95), failures };
}

export async function run(): Promise<void> {
  const infra = await startEphemeralInfrastructure({ name: 'fip-bench-intake' });
  const config = loadConfig({ ...process.env, DATABASE_URL: infra.databaseUrl, TEMPORAL_ADDRESS: infra.temporalAddress, SVC_DATA_DIR: path.join(infra.dir, 'data'), SVC_POSTGRES__POOL_MAX: '20', SVC_LOG__LEVEL: 'warn' });
  const log = createLogger('warn', 'bench');
  const knex = createKnex(infra.databaseUrl, 20);
  const temporal = await connectTemporal(config, infra.temporalAddress);
  const api = await startApiServer({ config, knex, temporal, log, blobs: createConfiguredBlobStore(config) }, 0, '127.0.0.1');
  try {
    const fresh = generateApiKey();
    await insertApiKey(knex, { name: 'bench', prefix: fresh.prefix, hash: fresh.hash, scopes: ['intake:write'] });
    await load(api.url, fresh.key, true); // warm-up (JIT, pools, keyring), not counted
    const files = await load(api.url, fresh.key, true);
    const bare = await load(api.url, fresh.key, false);
    const [{ n }] = await knex('intake_files').count({ n: '*' });
    const line = (label: string, r: typeof files) =>
      `  ${label.padEnd(26)} ${r.perSecond.toFixed(1).padStart(7)} intakes/s   p50 ${r.p50} ms   p95 ${r.p95} ms   failures ${r.failures}\n`;
    process.stdout.write(`intake submission, ${REQUESTS} requests at ${CLIENTS} concurrent clients\n`);
    process.stdout.write(line('with a 1 MB file each', files));
    process.stdout.write(line('without files', bare));
    process.stdout.write(`  files stored: ${n}; target with files >= ${TARGET_PER_S}/s: ${files.perSecond >= TARGET_PER_S ? 'met' : 'NOT met'}; ratio with/without files ${(files.perSecond / bare.perSecond).toFixed(2)}\n`);
  } finally {
    await api.close();
    await temporal.connection.close();
    await knex.destroy();
    await infra.stop();
  }
}
