import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { createKnex } from '../../db/connection';
import { startApiServer } from '../../app/platform-runtime';
import { freePort } from '../support/free-port';
import { http } from '../support/http';
import { testConfig, testKnex, testTemporal } from '../support/platform';
import { createConfiguredBlobStore } from '../../infra/blob-store';

interface LogLine { msg: string; request_id?: string; dependency?: string; detail?: string }

function capturingLogger() {
  const lines: LogLine[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as LogLine) });
  return { log, lines };
}

describe('GET /readyz', () => {
  it('names an unreachable dependency without its error text, and logs the detail with the request id', async () => {
    const closed = await freePort();
    const knex = createKnex(`postgres://nobody:secret@127.0.0.1:${closed}/none`, 1);
    const connection = await Connection.lazy({ address: `127.0.0.1:${closed}`, connectTimeout: 1_000 });
    const temporal = new Client({ connection, namespace: 'default' });
    const { log, lines } = capturingLogger();
    const api = await startApiServer({ config: testConfig(), knex, temporal, log, blobs: createConfiguredBlobStore(testConfig()) }, 0, '127.0.0.1');
    try {
      const res = await http(`${api.url}/readyz`, { headers: { 'X-Request-Id': 'readyz-probe-1' } });
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, { status: 'not_ready', checks: { database: 'unavailable', temporal: 'unavailable' } });
      assert.doesNotMatch(res.text, /ECONNREFUSED|127\.0\.0\.1|error/i);
      const failures = lines.filter((l) => l.msg === 'readiness check failed');
      assert.deepEqual(failures.map((l) => [l.dependency, l.request_id]).sort(), [['database', 'readyz-probe-1'], ['temporal', 'readyz-probe-1']]);
      assert.match(failures.find((l) => l.dependency === 'database')!.detail!, new RegExp(`ECONNREFUSED|${closed}|no answer`));
      assert.ok(failures.every((l) => (l.detail ?? '').length > 0));
    } finally {
      await api.close();
      await knex.destroy();
      // the lazy connection is left to end its own retries (closing it mid-retry makes grpc throw)
    }
  });

  it('answers ok for both when they are reachable', async () => {
    const { log } = capturingLogger();
    const api = await startApiServer({ config: testConfig(), knex: testKnex(), temporal: await testTemporal(), log, blobs: createConfiguredBlobStore(testConfig()) }, 0, '127.0.0.1');
    try {
      const res = await http(`${api.url}/readyz`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
    } finally {
      await api.close();
    }
  });
});
