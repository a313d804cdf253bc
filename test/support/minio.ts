// One MinIO server for the suites that need S3 (started on first use, stopped when the run ends),
// on loopback with its own data directory and credentials. Suites get a fresh bucket each.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMinio, type RunningMinio } from '../../infra/minio';
import { closeAfterTestRun } from './platform';

let shared: Promise<RunningMinio> | null = null;

export function testMinio(): Promise<RunningMinio> {
  shared ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-test-minio-'));
    const minio = await startMinio({ dataDir: path.join(dir, 'data') });
    closeAfterTestRun(async () => {
      await minio.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    return minio;
  })();
  return shared;
}

/** A new bucket on the shared MinIO, and the SVC_BLOBS__* settings of a store in it. */
export async function freshS3BlobEnv(prefix = 'blobs'): Promise<{ minio: RunningMinio; bucket: string; env: Record<string, string> }> {
  const minio = await testMinio();
  const bucket = `fip-${randomUUID().slice(0, 13)}`;
  await minio.createBucket(bucket);
  return { minio, bucket, env: minio.blobEnv(bucket, prefix) };
}
