// Copies every blob of one store into another (`npx fip blobs migrate`), e.g. from the local
// directory to S3 when a platform moves to several machines. Each blob is streamed (flat memory)
// and re-hashed on the way: the key the destination computes must be the source's key, so a source
// file whose bytes no longer match their name is reported and not copied (and whatever the
// destination stored from it is removed again). Resumable: a blob the destination already holds
// with the right size and SHA-256 is skipped, so running it again after an interruption continues.
import { sha256OfKey, type BlobStore, type StoredBlob } from './blob-store';

export interface MigrationResult {
  total: number;
  copied: number;
  skipped: number;
  failed: Array<{ key: string; reason: string }>;
  bytesCopied: number;
}

export async function migrateBlobs(from: BlobStore, to: BlobStore, progress: (line: string) => void = () => undefined): Promise<MigrationResult> {
  const blobs: StoredBlob[] = [];
  for await (const blob of from.list('')) blobs.push(blob);
  progress(`${blobs.length} blobs in ${from.location}; copying into ${to.location}`);
  const result: MigrationResult = { total: blobs.length, copied: 0, skipped: 0, failed: [], bytesCopied: 0 };
  const started = Date.now();
  let i = 0;
  for (const blob of blobs) {
    i++;
    const tag = `[${i}/${blobs.length}]`;
    try {
      const there = await to.head(blob.key);
      if (there && there.size === blob.size && there.sha256 === sha256OfKey(blob.key)) {
        result.skipped++;
        progress(`${tag} ${blob.key} already there, skipped`);
        continue;
      }
      const stored = await to.put(await from.get(blob.key));
      if (stored.key !== blob.key) {
        // The source's bytes do not hash to their key: never copy a blob under a wrong name.
        if (!(await from.exists(stored.key))) await to.delete(stored.key);
        throw new Error(`content hashes to ${stored.sha256}, not to its key (a damaged source blob)`);
      }
      result.copied++;
      result.bytesCopied += stored.size;
      const seconds = (Date.now() - started) / 1000;
      progress(`${tag} ${blob.key} copied (${stored.size} bytes; ${(result.bytesCopied / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s)`);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      result.failed.push({ key: blob.key, reason });
      progress(`${tag} ${blob.key} FAILED: ${reason}`);
    }
  }
  progress(`done: ${result.copied} copied, ${result.skipped} already there, ${result.failed.length} failed, of ${result.total}`);
  return result;
}
