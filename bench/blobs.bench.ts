// Blob store benchmark: a 100 MB and a 1 GB blob put (streamed from a generator, hashed on the
// way) and read back (get, hashed) through each implementation: the local directory and S3 (a
// MinIO on loopback). Each case runs in a fresh process, so its peak RSS (getrusage maxrss) is its
// own; flat memory means the 1 GB case peaks about where the 100 MB case does. Prints MB/s.
// BENCH_QUICK=1 uses 20 MB and 200 MB.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createBlobStoreFromSettings } from '../infra/blob-store';
import { startMinio } from '../infra/minio';

const MiB = 1024 * 1024;

function generated(totalMb: number): Readable {
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < MiB; i += 32) createHash('sha256').update(String(i)).digest().copy(block, i);
  return Readable.from(
    (function* () {
      for (let i = 0; i < totalMb; i++) {
        block.writeUInt32LE(i, 0); // every MiB differs
        yield Buffer.from(block);
      }
    })(),
  );
}

interface CaseResult {
  putMbps: number;
  getMbps: number;
  peakRssMb: number;
  baselineRssMb: number;
}

/** One case, in this (child) process: put then get `sizeMb` through the store SVC_BLOBS__* names. */
async function runCase(sizeMb: number): Promise<CaseResult> {
  const config = JSON.parse(process.env.FIP_BENCH_BLOBS!);
  const store = createBlobStoreFromSettings(config);
  const baselineRssMb = process.memoryUsage().rss / MiB;
  let t = Date.now();
  const put = await store.put(generated(sizeMb));
  const putMbps = sizeMb / ((Date.now() - t) / 1000);
  t = Date.now();
  const hash = createHash('sha256');
  for await (const chunk of await store.get(put.key)) hash.update(chunk as Buffer);
  const getMbps = sizeMb / ((Date.now() - t) / 1000);
  if (hash.digest('hex') !== put.sha256) throw new Error('read back different bytes');
  await store.delete(put.key);
  await store.close();
  return { putMbps, getMbps, peakRssMb: process.resourceUsage().maxRSS / 1024, baselineRssMb };
}

function inChild(sizeMb: number, settings: object): Promise<CaseResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, '--case', String(sizeMb)], {
      env: { ...process.env, FIP_BENCH_BLOBS: JSON.stringify(settings), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`case ${sizeMb} MB failed (exit ${code})`))));
  });
}

export async function run(): Promise<void> {
  const quick = process.env.BENCH_QUICK === '1';
  const sizes = quick ? [20, 200] : [100, 1024];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-bench-blobs-'));
  const minio = await startMinio({ dataDir: path.join(dir, 'minio') });
  try {
    await minio.createBucket('bench');
    const flavours: Array<[string, object]> = [
      ['local directory', { url: `file://${path.join(dir, 'files')}` }],
      ['S3 (MinIO, loopback)', { url: 's3://bench/blobs', endpoint: minio.endpoint, region: 'us-east-1', access_key_id: minio.accessKey, secret_access_key: minio.secretKey, force_path_style: true }],
    ];
    process.stdout.write('| store | size | put MB/s | get MB/s | peak RSS (process at start) |\n|---|---|---|---|---|\n');
    for (const [name, settings] of flavours) {
      for (const size of sizes) {
        const r = await inChild(size, settings);
        process.stdout.write(
          `| ${name} | ${size} MB | ${r.putMbps.toFixed(0)} | ${r.getMbps.toFixed(0)} | ${r.peakRssMb.toFixed(0)} MB (${r.baselineRssMb.toFixed(0)} MB) |\n`,
        );
      }
    }
  } finally {
    await minio.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--case') {
  runCase(Number(process.argv[3])).then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    },
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
