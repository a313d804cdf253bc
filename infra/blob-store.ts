// Content-addressed blob store on the filesystem under <data_dir>/blobs: a blob's key is its
// SHA-256, so writing the same bytes twice (a retried activity) stores them once. With workers on
// several machines, <data_dir>/blobs must be shared storage.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface StoredBlob {
  key: string;
  sha256: string;
  size: number;
}

export interface BlobStore {
  put(bytes: Buffer): Promise<StoredBlob>;
  open(key: string): fs.ReadStream;
  exists(key: string): Promise<boolean>;
}

const KEY_RE = /^sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/;

export function createBlobStore(dataDir: string): BlobStore {
  const root = path.join(dataDir, 'blobs');
  const fileOf = (key: string) => {
    if (!KEY_RE.test(key)) throw new Error(`not a blob key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const key = `sha256/${sha256.slice(0, 2)}/${sha256}`;
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomUUID()}.tmp`;
      await fs.promises.writeFile(tmp, bytes, { flag: 'wx' });
      await fs.promises.rename(tmp, file);
      return { key, sha256, size: bytes.length };
    },
    open(key) {
      return fs.createReadStream(fileOf(key));
    },
    async exists(key) {
      return fs.promises
        .access(fileOf(key))
        .then(() => true)
        .catch(() => false);
    },
  };
}
