// The blob store's contract, run against both implementations: the local directory and S3 (a real
// MinIO server on loopback). Nothing here is mocked.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { BlobNotFoundError, createBlobStoreFromSettings, createFileBlobStore, type BlobStore } from '../../infra/blob-store';
import { createS3BlobStore, createS3Client } from '../../infra/blob-store-s3';
import { freshS3BlobEnv } from '../support/minio';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** A stream of `total` pseudo-random bytes in 1 MiB chunks (never held whole), and its SHA-256. */
function generated(total: number, seed: number): { stream: () => Readable; sha256: string } {
  const chunk = (i: number) => createHash('sha512').update(`${seed}:${i}`).digest().subarray(0, 64);
  const block = (i: number, len: number) => {
    const head = chunk(i);
    const b = Buffer.alloc(len);
    for (let o = 0; o < len; o += head.length) head.copy(b, o);
    return b;
  };
  const h = createHash('sha256');
  const MiB = 1024 * 1024;
  for (let o = 0, i = 0; o < total; o += MiB, i++) h.update(block(i, Math.min(MiB, total - o)));
  return {
    sha256: h.digest('hex'),
    stream: () =>
      Readable.from(
        (function* () {
          for (let o = 0, i = 0; o < total; o += MiB, i++) yield block(i, Math.min(MiB, total - o));
        })(),
      ),
  };
}

interface Flavour {
  name: string;
  make(): Promise<{ store: BlobStore; staged(): Promise<string[]> }>;
}

const flavours: Flavour[] = [
  {
    name: 'local directory (file://)',
    async make() {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-blobs-'));
      const store = createBlobStoreFromSettings({ url: `file://${root}` });
      return { store, staged: async () => fs.readdirSync(path.join(root, '.staging')) };
    },
  },
  {
    name: 'S3 (MinIO)',
    async make() {
      const { minio, bucket } = await freshS3BlobEnv();
      const settings = { endpoint: minio.endpoint, access_key_id: minio.accessKey, secret_access_key: minio.secretKey, force_path_style: true, region: 'us-east-1' };
      // 5 MiB parts (S3's minimum) so that the larger blobs below go up as multipart uploads.
      const store = createS3BlobStore({ ...settings, bucket, prefix: 'tenant-a/', partSize: 5 * 1024 * 1024 });
      const client = createS3Client(settings);
      return {
        store,
        staged: async () => ((await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'tenant-a/.staging/' }))).Contents ?? []).map((o) => o.Key!),
      };
    },
  },
];

for (const flavour of flavours) {
  describe(`blob store: ${flavour.name}`, function () {
    this.timeout(120_000);
    let store: BlobStore;
    let staged: () => Promise<string[]>;

    before(async () => {
      ({ store, staged } = await flavour.make());
    });
    after(async () => store?.close());

    it('put(Buffer) answers the content-addressed key, head and get give the same size, hash and bytes', async () => {
      const bytes = randomBytes(1000);
      const put = await store.put(bytes);
      assert.deepEqual(put, { key: `sha256/${sha(bytes).slice(0, 2)}/${sha(bytes)}`, sha256: sha(bytes), size: 1000 });
      assert.deepEqual(await store.head(put.key), put);
      assert.equal(await store.exists(put.key), true);
      assert.deepEqual(await readAll(await store.get(put.key)), bytes);
      assert.deepEqual(await readAll(store.open(put.key)), bytes);
    });

    it('put(stream) of 23 MiB (multipart on S3) hashes on the way; get streams back the same bytes; nothing is left staged', async () => {
      const big = generated(23 * 1024 * 1024 + 17, 1);
      const put = await store.put(big.stream());
      assert.equal(put.sha256, big.sha256);
      assert.equal(put.size, 23 * 1024 * 1024 + 17);
      const back = createHash('sha256');
      let n = 0;
      for await (const c of await store.get(put.key)) {
        back.update(c as Buffer);
        n += (c as Buffer).length;
      }
      assert.equal(back.digest('hex'), big.sha256);
      assert.equal(n, put.size);
      assert.deepEqual(await staged(), []);
    });

    it('get with a byte range answers exactly those bytes', async () => {
      const bytes = randomBytes(4096);
      const { key } = await store.put(bytes);
      assert.deepEqual(await readAll(await store.get(key, { start: 100, end: 199 })), bytes.subarray(100, 200));
      assert.deepEqual(await readAll(await store.get(key, { start: 4000 })), bytes.subarray(4000));
    });

    it('the same bytes put twice are stored once under one key', async () => {
      const bytes = randomBytes(300);
      const a = await store.put(bytes);
      const b = await store.put(Readable.from([bytes.subarray(0, 100), bytes.subarray(100)]));
      assert.equal(a.key, b.key);
      const listed = [];
      for await (const blob of store.list(a.key.slice(0, 'sha256/xx/'.length))) if (blob.key === a.key) listed.push(blob);
      assert.equal(listed.length, 1);
    });

    it('a missing blob: get throws BlobNotFoundError, open errors, head is null, delete is harmless', async () => {
      const key = `sha256/00/${'0'.repeat(64)}`;
      await assert.rejects(store.get(key), (err: unknown) => err instanceof BlobNotFoundError && err.key === key);
      await assert.rejects(readAll(store.open(key)), BlobNotFoundError);
      assert.equal(await store.head(key), null);
      assert.equal(await store.exists(key), false);
      await store.delete(key);
    });

    it('delete removes a blob', async () => {
      const { key } = await store.put(randomBytes(50));
      await store.delete(key);
      assert.equal(await store.exists(key), false);
      await assert.rejects(store.get(key), BlobNotFoundError);
    });

    it('list(prefix) answers exactly the blobs under the prefix, with sizes; staging objects are never listed', async () => {
      const puts = await Promise.all([randomBytes(10), randomBytes(20), randomBytes(30)].map((b) => store.put(b)));
      const all = new Map<string, number>();
      for await (const blob of store.list('')) all.set(blob.key, blob.size);
      for (const p of puts) assert.equal(all.get(p.key), p.size);
      assert.ok([...all.keys()].every((k) => /^sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(k)));
      const shard = puts[0].key.slice(0, 'sha256/xx/'.length);
      const inShard = [];
      for await (const blob of store.list(shard)) inShard.push(blob.key);
      assert.ok(inShard.includes(puts[0].key));
      assert.ok(inShard.every((k) => k.startsWith(shard)));
      assert.deepEqual([...all.keys()].filter((k) => k.startsWith(shard)).sort(), inShard.sort());
    });

    it('a source stream that fails fails the put, stores nothing and leaves nothing staged', async () => {
      const before = new Set<string>();
      for await (const blob of store.list('')) before.add(blob.key);
      const failing = Readable.from(
        (async function* () {
          yield randomBytes(6 * 1024 * 1024);
          throw new Error('the source broke');
        })(),
      );
      await assert.rejects(store.put(failing), /the source broke/);
      const after: string[] = [];
      for await (const blob of store.list('')) if (!before.has(blob.key)) after.push(blob.key);
      assert.deepEqual(after, []);
      assert.deepEqual(await staged(), []);
    });

    it('refuses keys that are not content-addressed keys (no path escapes)', async () => {
      await assert.rejects(store.get('../../etc/passwd'), /not a blob key/);
      await assert.rejects(store.head('sha256/ab/../../x'), /not a blob key/);
      await assert.rejects(async () => {
        for await (const blob of store.list('../')) assert.fail(`listed ${blob.key}`);
      }, /not a blob key prefix/);
    });
  });
}

describe('blob store selection', () => {
  it('file:// URLs open the local directory store at that path', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-blobs-'));
    const store = createBlobStoreFromSettings({ url: `file://${root}` });
    const { key } = await store.put(Buffer.from('hello'));
    assert.equal(store.location, `file://${root}`);
    assert.equal(fs.readFileSync(path.join(root, key), 'utf8'), 'hello');
    const direct = createFileBlobStore(root);
    assert.equal(await direct.exists(key), true);
  });

  it('S3: a put into a bucket that does not exist fails with the store error, and the source is released', async () => {
    const { minio } = await freshS3BlobEnv();
    const store = createBlobStoreFromSettings({
      url: 's3://no-such-bucket-here/x', endpoint: minio.endpoint, region: 'us-east-1',
      access_key_id: minio.accessKey, secret_access_key: minio.secretKey, force_path_style: true,
    });
    try {
      // 100 MiB, produced only as it is read: the put fails long before the end of it.
      const chunk = randomBytes(64 * 1024);
      const source = Readable.from((function* () {
        for (let i = 0; i < 1600; i++) yield chunk;
      })());
      await assert.rejects(store.put(source), /bucket does not exist|NoSuchBucket/i);
      assert.equal(source.destroyed, true);
    } finally {
      await store.close();
    }
  });

  it('s3:// URLs name the bucket and the prefix', async () => {
    const store = createBlobStoreFromSettings({ url: 's3://reports-bucket/fip/prod', endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
    assert.equal(store.location, 's3://reports-bucket/fip/prod/');
    await store.close();
  });
});
