// GET /reports/generated/{id}/download streams from the blob store the API got through its deps
// (here S3 on a real MinIO), whole or one byte range.
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { insertGeneratedReport } from '../../db/repositories/reports/generated-report-repository';
import { asUser } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { freshS3BlobEnv } from '../support/minio';
import { startTestApi, testKnex } from '../support/platform';

describe('report download from the blob store (S3)', function () {
  this.timeout(60_000);
  let url: string;
  let analyst: Record<string, string>;
  const bytes = randomBytes(100_000);
  let reportId: string;
  let missingId: string;

  before(async () => {
    const { env } = await freshS3BlobEnv('downloads');
    const api = await startTestApi({ ...env, SVC_AUTH__TRUST_PROXY_HEADER: 'true' });
    url = api.url;
    analyst = asUser((await usersForEveryRole()).analyst);
    const blob = await api.deps.blobs.put(bytes);
    const row = (over: Record<string, unknown>) => ({
      schedule_id: null, due_at: new Date(), template: 'wallet-activity', format: 'json' as const, title: 't',
      size_bytes: blob.size, sha256: blob.sha256, blob_key: blob.key, requested_by: 'test', task_id: `report-${randomUUID()}`, ...over,
    });
    reportId = (await insertGeneratedReport(testKnex(), row({}))).id;
    const absent = randomBytes(10);
    const absentSha = createHash('sha256').update(absent).digest('hex');
    missingId = (await insertGeneratedReport(testKnex(), row({ size_bytes: 10, sha256: absentSha, blob_key: `sha256/${absentSha.slice(0, 2)}/${absentSha}` }))).id;
  });

  it('streams the whole report with its length and hash', async () => {
    const res = await fetch(`${url}/reports/generated/${reportId}/download`, { headers: analyst });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(bytes.length));
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
    assert.equal(res.headers.get('x-content-sha256'), createHash('sha256').update(bytes).digest('hex'));
  });

  it('answers one byte range with 206 and Content-Range (start-end, start-, suffix)', async () => {
    for (const [range, start, end] of [['bytes=10-19', 10, 19], ['bytes=99990-', 99990, 99999], ['bytes=-5', 99995, 99999], ['bytes=99000-200000', 99000, 99999]] as const) {
      const res = await fetch(`${url}/reports/generated/${reportId}/download`, { headers: { ...analyst, Range: range } });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/${bytes.length}`, range);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes.subarray(start, end + 1), range);
    }
  });

  it('ignores a Range it cannot serve as one satisfiable range and sends the whole file', async () => {
    for (const range of ['bytes=20-10', 'bytes=100000-', 'bytes=0-1,5-6', 'items=0-1']) {
      const res = await fetch(`${url}/reports/generated/${reportId}/download`, { headers: { ...analyst, Range: range } });
      assert.equal(res.status, 200, range);
      assert.equal((await res.arrayBuffer()).byteLength, bytes.length, range);
    }
  });

  it('a report whose blob is missing from the store is 404 JSON, without internals', async () => {
    const res = await fetch(`${url}/reports/generated/${missingId}/download`, { headers: analyst });
    assert.equal(res.status, 404);
    const body = await res.json();
    assert.equal(body.error.code, 'not_found');
    assert.doesNotMatch(JSON.stringify(body), /sha256\/|s3:|NoSuchKey|127\.0\.0\.1/);
  });
});
