// `npx fip blobs migrate --from file:///… --to s3://…` against a real MinIO: copies, verifies each
// hash, skips what is already there (resumable), reports a damaged source blob without copying it.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBlobStoreFromSettings, createFileBlobStore } from '../../infra/blob-store';
import { freshS3BlobEnv } from '../support/minio';
import { runCli } from '../support/run-cli';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

describe('fip blobs migrate', function () {
  this.timeout(120_000);

  it('copies every blob from a directory to S3 with its hash checked, then skips them all on a second run', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-migrate-'));
    const source = createFileBlobStore(root);
    const contents = [randomBytes(100), randomBytes(7 * 1024 * 1024), Buffer.from('report')];
    const keys = [];
    for (const c of contents) keys.push((await source.put(c)).key);
    const { env } = await freshS3BlobEnv('migrated');
    const s3Url = env.SVC_BLOBS__URL;
    const s3Env = { ...env, SVC_BLOBS__URL: '' };

    const first = await runCli(['blobs', 'migrate', '--from', `file://${root}`, '--to', s3Url], { env: s3Env });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /3 blobs in file:\/\//);
    assert.match(first.stdout, /\[3\/3\] sha256\/[0-9a-f]{2}\/[0-9a-f]{64} copied/);
    assert.match(first.stdout, /done: 3 copied, 0 already there, 0 failed, of 3/);

    const target = createBlobStoreFromSettings({
      url: s3Url, endpoint: env.SVC_BLOBS__ENDPOINT, access_key_id: env.SVC_BLOBS__ACCESS_KEY_ID,
      secret_access_key: env.SVC_BLOBS__SECRET_ACCESS_KEY, force_path_style: true, region: 'us-east-1',
    });
    try {
      for (const [i, key] of keys.entries()) assert.deepEqual(await readAll(await target.get(key)), contents[i]);

      const second = await runCli(['blobs', 'migrate', '--from', `file://${root}`, '--to', s3Url, '--json'], { env: s3Env });
      assert.equal(second.code, 0, second.stderr);
      const result = JSON.parse(second.stdout);
      assert.deepEqual({ ...result, failed: result.failed.length }, { total: 3, copied: 0, skipped: 3, failed: 0, bytesCopied: 0 });
      assert.match(second.stderr, /already there, skipped/);
    } finally {
      await target.close();
    }
  });

  it('an interrupted migration resumes: what is there is skipped, the rest copied', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-migrate-'));
    const source = createFileBlobStore(root);
    for (let i = 0; i < 4; i++) await source.put(randomBytes(1000 + i));
    const { env } = await freshS3BlobEnv('resume');
    const target = createBlobStoreFromSettings({
      url: env.SVC_BLOBS__URL, endpoint: env.SVC_BLOBS__ENDPOINT, access_key_id: env.SVC_BLOBS__ACCESS_KEY_ID,
      secret_access_key: env.SVC_BLOBS__SECRET_ACCESS_KEY, force_path_style: true, region: 'us-east-1',
    });
    try {
      // As if a first run stopped after two blobs.
      let n = 0;
      for await (const blob of source.list('')) if (n++ < 2) await target.put(await source.get(blob.key));
      const res = await runCli(['blobs', 'migrate', '--from', `file://${root}`, '--to', env.SVC_BLOBS__URL, '--json'], { env: { ...env, SVC_BLOBS__URL: '' } });
      assert.equal(res.code, 0, res.stderr);
      const result = JSON.parse(res.stdout);
      assert.equal(result.copied, 2);
      assert.equal(result.skipped, 2);
      let there = 0;
      for await (const blob of target.list('')) if (await source.exists(blob.key)) there++;
      assert.equal(there, 4);
    } finally {
      await target.close();
    }
  });

  it('a source blob whose bytes do not match its key is reported and not copied; the exit code is 1', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-migrate-'));
    const source = createFileBlobStore(root);
    const good = await source.put(Buffer.from('good bytes'));
    const bad = await source.put(Buffer.from('original bytes'));
    fs.writeFileSync(path.join(root, bad.key), 'tampered bytes');
    const tamperedSha = createHash('sha256').update('tampered bytes').digest('hex');
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-migrate-to-'));
    const res = await runCli(['blobs', 'migrate', '--from', `file://${root}`, '--to', `file://${other}`]);
    assert.equal(res.code, 1);
    assert.match(res.stdout, new RegExp(`${bad.key} FAILED: content hashes to ${tamperedSha}, not to its key`));
    const target = createFileBlobStore(other);
    assert.equal(await target.exists(good.key), true);
    assert.equal(await target.exists(bad.key), false);
    const listed = [];
    for await (const blob of target.list('')) listed.push(blob.key);
    assert.deepEqual(listed, [good.key], 'nothing stored under the tampered content hash either');
  });

  it('bad arguments are usage errors (exit 2) naming the option', async () => {
    const res = await runCli(['blobs', 'migrate', '--from', 'ftp://x/y', '--to', 's3://bucket-1/x']);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /--from: unsupported scheme ftp:/);
  });
});
