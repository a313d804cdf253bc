// Evidence package benchmark: a signed package (infra/signed-zip-writer.ts, the writer of the
// evidence bundle, the LEA package and dossiers) of 100 MB and 1 GB of synthetic artifacts stored
// in the local blob store (screenshot-sized and large blobs), streamed to a sink that counts bytes,
// each file hashed on the way and the manifest signed with a fresh Ed25519 key. Beside it, the
// baseline that buffers the whole ZIP in memory before handing it out. Each case runs in a fresh
// process so its peak RSS (getrusage maxrss) is its own: flat memory means the 1 GB streamed case
// peaks about where the 100 MB one does, while the baseline grows with the bundle.
// BENCH_QUICK=1 uses 20 MB and 200 MB.
import { spawn } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { publicKeyPem, signingKeyId, signMessage } from '../domain/evidence/signing-key';
import { createBlobStore } from '../infra/blob-store';
import { verifyPackage } from '../services/evidence/evidence-verification';
import { signedZipStream, type ZipEntrySource } from '../infra/signed-zip-writer';

const MiB = 1024 * 1024;

function generated(totalMb: number, seed: number): Readable {
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < MiB; i += 32) createHash('sha256').update(`${seed}:${i}`).digest().copy(block, i);
  return Readable.from(
    (function* () {
      for (let i = 0; i < totalMb; i++) {
        block.writeUInt32LE(i, 0);
        yield Buffer.from(block);
      }
    })(),
  );
}

interface CaseResult {
  mode: 'streamed' | 'buffered';
  sizeMb: number;
  zipMb: number;
  mbps: number;
  peakRssMb: number;
  baselineRssMb: number;
  verified: boolean;
}

/** Artifacts of `sizeMb` in total: 2 MB "screenshots" plus one large "HAR", as a scan's would be. */
async function seed(dataDir: string, sizeMb: number): Promise<Array<{ path: string; key: string }>> {
  const blobs = createBlobStore(dataDir);
  const out: Array<{ path: string; key: string }> = [];
  const shots = Math.min(20, Math.floor(sizeMb / 4));
  for (let i = 0; i < shots; i++) out.push({ path: `screenshots/page-${String(i).padStart(4, '0')}.png`, key: (await blobs.put(generated(2, i))).key });
  out.push({ path: 'archive/data.warc.gz', key: (await blobs.put(generated(sizeMb - shots * 2, 999))).key });
  await blobs.close();
  return out;
}

async function runCase(mode: 'streamed' | 'buffered', sizeMb: number, dataDir: string, artifacts: Array<{ path: string; key: string }>): Promise<CaseResult> {
  const blobs = createBlobStore(dataDir);
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const signer = { keyId: signingKeyId(publicKey), publicKeyPem: publicKeyPem(publicKey), sign: (m: Buffer) => signMessage(privateKey, m) };
  const entries: ZipEntrySource[] = artifacts.map((a) => ({ path: a.path, open: () => blobs.get(a.key), store: true }));
  const baselineRssMb = process.memoryUsage().rss / MiB;
  const started = Date.now();
  const zip = signedZipStream(entries, { date: new Date('2026-11-22T00:00:00Z'), signer, manifest: { created: new Date().toISOString(), software: 'fip-bench', title: 'bench' } });
  const file = path.join(dataDir, `${mode}-${sizeMb}.zip`);
  let bytes = 0;
  if (mode === 'streamed') {
    const sink = fs.createWriteStream(file);
    await pipeline(zip, new Writable({ write(chunk: Buffer, _e, cb) { bytes += chunk.length; sink.write(chunk, cb); }, final(cb) { sink.end(cb); } }));
  } else {
    const chunks: Buffer[] = [];
    for await (const chunk of zip) chunks.push(chunk as Buffer);
    const whole = Buffer.concat(chunks);
    bytes = whole.length;
    fs.writeFileSync(file, whole);
  }
  const seconds = (Date.now() - started) / 1000;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const verified = (await verifyPackage(file)).valid;
  fs.rmSync(file);
  await blobs.close();
  return { mode, sizeMb, zipMb: bytes / MiB, mbps: bytes / MiB / seconds, peakRssMb, baselineRssMb, verified };
}

function inChild(mode: string, sizeMb: number, dataDir: string, artifacts: unknown): Promise<CaseResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, '--case', mode, String(sizeMb), dataDir], {
      env: { ...process.env, FIP_BENCH_ARTIFACTS: JSON.stringify(artifacts) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`case ${mode} ${sizeMb} MB failed (exit ${code})`))));
  });
}

export async function run(): Promise<void> {
  const sizes = process.env.BENCH_QUICK === '1' ? [20, 200] : [100, 1024];
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-bench-evidence-'));
  try {
    const results: CaseResult[] = [];
    for (const size of sizes) {
      const dataDir = path.join(root, String(size));
      const artifacts = await seed(dataDir, size);
      for (const mode of ['streamed', 'buffered'] as const) results.push(await inChild(mode, size, dataDir, artifacts));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    process.stdout.write('| package | writer | ZIP MB | MB/s | peak RSS MB (at start) | verifies |\n|---|---|---|---|---|---|\n');
    for (const r of results) {
      process.stdout.write(`| ${r.sizeMb} MB | ${r.mode} | ${r.zipMb.toFixed(0)} | ${r.mbps.toFixed(1)} | ${r.peakRssMb.toFixed(0)} (${r.baselineRssMb.toFixed(0)}) | ${r.verified ? 'yes' : 'NO'} |\n`);
    }
    for (const size of sizes) {
      const s = results.find((r) => r.sizeMb === size && r.mode === 'streamed')!;
      const b = results.find((r) => r.sizeMb === size && r.mode === 'buffered')!;
      process.stdout.write(`${size} MB: buffered/streamed peak RSS ${(b.peakRssMb / s.peakRssMb).toFixed(2)}x, streamed/buffered throughput ${(s.mbps / b.mbps).toFixed(2)}x\n`);
    }
    const [small, large] = sizes.map((size) => results.find((r) => r.sizeMb === size && r.mode === 'streamed')!);
    process.stdout.write(`streamed peak RSS, ${sizes[1]} MB vs ${sizes[0]} MB: ${(large!.peakRssMb / small!.peakRssMb).toFixed(2)}x (flat is about 1)\n`);
    if (results.some((r) => !r.verified)) throw new Error('a benchmark package did not verify');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--case') {
  const [, , , mode, size, dataDir] = process.argv;
  runCase(mode as 'streamed' | 'buffered', Number(size), dataDir!, JSON.parse(process.env.FIP_BENCH_ARTIFACTS!)).then(
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
