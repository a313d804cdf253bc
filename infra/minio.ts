// MinIO, the S3-compatible server the tests, CI and the benchmark run the S3 blob store against.
// Like the Temporal CLI it is a Go program: found in this order: MINIO_PATH; `minio` on PATH; the
// cache directory (~/.cache/fip/minio-<version>/minio); else, when Go is installed, built once into
// that cache with `go install` (several minutes and 1.5 GB of memory; progress is printed).
// startMinio() runs one on loopback with its own data directory and credentials.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { stopChildProcess } from './child-process';
import { goToolCacheDir, resolveGoTool, type GoTool, type Progress } from './go-tool';

/** MinIO tags are not semver; this is the module proxy's pseudo-version of its last release commit (Feb 2026, Go ≥ 1.24). */
export const MINIO_VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';

const MINIO: GoTool = {
  label: 'MinIO',
  binary: 'minio',
  goPackage: `github.com/minio/minio@${MINIO_VERSION}`,
  cacheName: `minio-${MINIO_VERSION.slice(-12)}`,
  envVar: 'MINIO_PATH',
  buildCost: 'several minutes and 1.5 GB of memory',
};

export function minioCacheDir(): string {
  return goToolCacheDir(MINIO.cacheName);
}

/** The MinIO binary, building it when needed; null when there is none and no Go to build it. */
export function resolveMinio(progress: Progress, explicitPath = process.env.MINIO_PATH): Promise<string | null> {
  return resolveGoTool(MINIO, explicitPath, progress);
}

export interface RunningMinio {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  dataDir: string;
  /** SVC_BLOBS__* for a store in `bucket` (created by createBucket) under `prefix`. */
  blobEnv(bucket: string, prefix?: string): Record<string, string>;
  createBucket(bucket: string): Promise<void>;
  stop(): Promise<void>;
}

async function freeLoopbackPort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts MinIO on loopback (free ports) with its own data directory and fresh credentials. */
export async function startMinio(opts: { dataDir: string; progress?: Progress; binary?: string }): Promise<RunningMinio> {
  const progress = opts.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  const binary = opts.binary ?? (await resolveMinio(progress));
  if (!binary) throw new Error('MinIO is not installed and there is no Go toolchain to build it (`npx fip setup minio` says more)');
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const [port, consolePort] = [await freeLoopbackPort(), await freeLoopbackPort()];
  const accessKey = `fip${randomBytes(6).toString('hex')}`;
  const secretKey = randomBytes(24).toString('hex');
  const child = spawn(binary, ['server', opts.dataDir, '--quiet', '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? os.tmpdir(),
      MINIO_ROOT_USER: accessKey,
      MINIO_ROOT_PASSWORD: secretKey,
      MINIO_BROWSER: 'off',
      MINIO_UPDATE: 'off',
      MINIO_CI_CD: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = stopChildProcess(child, exited);
  try {
    const deadline = Date.now() + 60_000;
    let ready = false;
    const early = exited.then((code) => {
      throw new Error(`minio exited (code ${code}) before it was ready:\n${output}`);
    });
    early.catch(() => undefined);
    while (!ready) {
      if (child.exitCode !== null) await early;
      if (Date.now() > deadline) throw new Error(`minio at ${endpoint} not ready after 60 s:\n${output}`);
      ready = await fetch(`${endpoint}/minio/health/ready`).then((r) => r.ok, () => false);
      if (!ready) await new Promise((r) => setTimeout(r, 150));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const blobEnv = (bucket: string, prefix = '') => ({
    SVC_BLOBS__URL: `s3://${bucket}/${prefix}`,
    SVC_BLOBS__ENDPOINT: endpoint,
    SVC_BLOBS__REGION: 'us-east-1',
    SVC_BLOBS__ACCESS_KEY_ID: accessKey,
    SVC_BLOBS__SECRET_ACCESS_KEY: secretKey,
    SVC_BLOBS__FORCE_PATH_STYLE: 'true',
  });
  const createBucket = async (bucket: string) => {
    const { CreateBucketCommand } = await import('@aws-sdk/client-s3');
    const { createS3Client } = await import('./blob-store-s3');
    const client = createS3Client({ endpoint, region: 'us-east-1', access_key_id: accessKey, secret_access_key: secretKey, force_path_style: true });
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } finally {
      client.destroy();
    }
  };
  return { endpoint, accessKey, secretKey, dataDir: opts.dataDir, blobEnv, createBucket, stop };
}
