// The blob store on S3-compatible object storage (AWS S3, MinIO, Ceph RGW, R2, ...), through the
// official AWS SDK for JavaScript v3. Objects are `<prefix>sha256/xx/<hex>` in one bucket.
//
// put(): the key is the SHA-256 of the bytes, known only once they have all gone by. The bytes are
// streamed (multipart, @aws-sdk/lib-storage: 8 MB parts, 4 in flight, so memory stays flat) to a
// staging object `<prefix>.staging/<uuid>` while being hashed, then copied server-side to their
// content-addressed key (CopyObject; UploadPartCopy above 5 GB) and the staging object deleted.
// No local disk is needed (workers on other machines may have none to spare) and the bytes cross
// the network once; the copy happens inside the store. When the key already holds an object of the
// same size (the same bytes put before: a retried activity), the copy is skipped. A process killed
// between upload and delete leaves a staging object: give the bucket a lifecycle rule expiring
// `<prefix>.staging/` after a day (README). The SHA-256 is also kept as object metadata (`sha256`).
import { randomUUID } from 'node:crypto';
import { Readable, pipeline } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCopyCommand,
  AbortMultipartUploadCommand,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobNotFoundError,
  HashingStream,
  blobKeyFor,
  checkBlobKey,
  checkListPrefix,
  deferredStream,
  sha256OfKey,
  toReadable,
  type BlobStore,
  type BlobStoreSettings,
  type StoredBlob,
} from './blob-store';

export interface S3BlobStoreOptions extends Omit<BlobStoreSettings, 'url'> {
  bucket: string;
  /** '' or ending in '/'. */
  prefix: string;
  /** Multipart part size (bytes, at least 5 MiB); default 8 MiB. */
  partSize?: number;
}

const SINGLE_COPY_LIMIT = 5 * 1024 ** 3; // CopyObject's limit; above it, multipart copy
const COPY_PART = 512 * 1024 ** 2;
const KEY_RE = /^sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/;

function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException) return err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound';
  return false;
}

export function createS3Client(options: Omit<BlobStoreSettings, 'url'>): S3Client {
  return new S3Client({
    region: options.region ?? 'us-east-1',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.force_path_style ?? false,
    ...(options.access_key_id && options.secret_access_key
      ? { credentials: { accessKeyId: options.access_key_id, secretAccessKey: options.secret_access_key } }
      : {}), // else the SDK's default chain: AWS_* variables, shared config, instance/pod roles
    // Only the checksums S3 requires: other S3-compatible stores do not all accept the newer
    // default (CRC32 trailers on every upload). Content integrity is our own SHA-256.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = createS3Client(options);
  const Bucket = options.bucket;
  const prefix = options.prefix;
  const objectKey = (key: string) => `${prefix}${checkBlobKey(key)}`;
  const copySource = (key: string) => `${Bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;

  async function copyInto(from: string, to: string, size: number, sha256: string): Promise<void> {
    const Metadata = { sha256 };
    if (size <= SINGLE_COPY_LIMIT) {
      await client.send(new CopyObjectCommand({ Bucket, Key: to, CopySource: copySource(from), MetadataDirective: 'REPLACE', Metadata, ContentType: 'application/octet-stream' }));
      return;
    }
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: to, Metadata, ContentType: 'application/octet-stream' }));
    try {
      const Parts: Array<{ ETag: string; PartNumber: number }> = [];
      for (let start = 0, PartNumber = 1; start < size; start += COPY_PART, PartNumber++) {
        const end = Math.min(size, start + COPY_PART) - 1;
        const res = await client.send(new UploadPartCopyCommand({ Bucket, Key: to, UploadId, PartNumber, CopySource: copySource(from), CopySourceRange: `bytes=${start}-${end}` }));
        Parts.push({ ETag: res.CopyPartResult!.ETag!, PartNumber });
      }
      await client.send(new CompleteMultipartUploadCommand({ Bucket, Key: to, UploadId, MultipartUpload: { Parts } }));
    } catch (err) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key: to, UploadId })).catch(() => undefined);
      throw err;
    }
  }

  const store: BlobStore = {
    location: `s3://${Bucket}/${prefix}`,
    async put(body) {
      const staging = `${prefix}.staging/${randomUUID()}`;
      const hashing = new HashingStream();
      // pipeline() forwards an error of the source to `hashing`, which fails the upload.
      const hashed = pipeline(toReadable(body), hashing, () => undefined);
      const upload = new Upload({
        client,
        params: { Bucket, Key: staging, Body: hashed, ContentType: 'application/octet-stream' },
        partSize: options.partSize ?? 8 * 1024 ** 2,
        queueSize: 4,
      });
      try {
        await upload.done();
        const sha256 = hashing.sha256;
        const key = blobKeyFor(sha256);
        const existing = await store.head(key);
        if (!existing || existing.size !== hashing.bytes) await copyInto(staging, objectKey(key), hashing.bytes, sha256);
        return { key, sha256, size: hashing.bytes };
      } catch (err) {
        hashed.destroy(); // stop reading the source (a file stays open otherwise)
        throw err;
      } finally {
        await client.send(new DeleteObjectCommand({ Bucket, Key: staging })).catch(() => undefined);
      }
    },
    async get(key, range) {
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket, Key: objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}) }),
        );
        return res.Body as Readable;
      } catch (err) {
        if (isNotFound(err)) throw new BlobNotFoundError(key);
        throw err;
      }
    },
    async head(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { key, sha256: res.Metadata?.sha256 ?? sha256OfKey(key), size: Number(res.ContentLength ?? 0) };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async exists(key) {
      return (await store.head(key)) !== null;
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async *list(listPrefix = '') {
      checkListPrefix(listPrefix);
      for await (const page of paginateListObjectsV2({ client }, { Bucket, Prefix: `${prefix}${listPrefix}` })) {
        for (const obj of page.Contents ?? []) {
          const key = obj.Key!.slice(prefix.length);
          if (!KEY_RE.test(key)) continue; // staging objects and anything not ours
          yield { key, sha256: sha256OfKey(key), size: Number(obj.Size ?? 0) } satisfies StoredBlob;
        }
      }
    },
    open(key) {
      return deferredStream(() => store.get(key));
    },
    async close() {
      client.destroy();
    },
  };
  return store;
}
