import assert from 'node:assert/strict';
import net from 'node:net';
import { createActivityResources } from '../../activities';
import { ConfigError, loadConfig } from '../../config/config';
import { createLogger } from '../../infra/logger';
import { temporalConnectionOptions } from '../../infra/temporal-connection';
import { connectTemporal, startWorker } from '../../app/platform-runtime';
import { testDeps } from '../support/platform';
import { waitFor } from '../support/wait-for';

/** A TCP listener on 127.0.0.1 that records the first byte of every connection, then hangs up. */
async function firstByteRecorder(): Promise<{ address: string; bytes: number[]; close(): void }> {
  const bytes: number[] = [];
  const server = net.createServer((socket) => {
    socket.once('data', (d) => {
      bytes.push(d[0]);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`, bytes, close: () => server.close() };
}
const TLS_HANDSHAKE = 0x16; // a TLS record of type handshake (ClientHello)
const HTTP2_PREFACE = 'P'.charCodeAt(0); // "PRI * HTTP/2.0": plain gRPC

const files: Record<string, string> = { '/tls/client.pem': 'CERT', '/tls/client.key': 'KEY', '/tls/ca.pem': 'CA' };
const readFile = (file: string): Buffer => {
  if (!(file in files)) throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
  return Buffer.from(files[file]);
};
const build = (env: Record<string, string>) => temporalConnectionOptions(loadConfig(env), 'temporal.internal:7233', readFile);

describe('Temporal connection options', () => {
  it('is plain gRPC with only the address when nothing is set', () => {
    assert.deepEqual(build({}), { address: 'temporal.internal:7233' });
  });

  it('reads the mTLS client certificate pair, CA and server name from TEMPORAL_TLS_*', () => {
    const o = build({ TEMPORAL_TLS_CERT: '/tls/client.pem', TEMPORAL_TLS_KEY: '/tls/client.key', TEMPORAL_TLS_CA: '/tls/ca.pem', TEMPORAL_TLS_SERVER_NAME: 'temporal.example.org' });
    assert.equal(o.address, 'temporal.internal:7233');
    assert.equal(o.tls?.clientCertPair?.crt.toString(), 'CERT');
    assert.equal(o.tls?.clientCertPair?.key.toString(), 'KEY');
    assert.equal(o.tls?.serverRootCACertificate?.toString(), 'CA');
    assert.equal(o.tls?.serverNameOverride, 'temporal.example.org');
    assert.equal(o.apiKey, undefined);
  });

  it('sends TEMPORAL_API_KEY over TLS (as Temporal Cloud requires)', () => {
    assert.deepEqual(build({ TEMPORAL_API_KEY: 'tc-secret' }), { address: 'temporal.internal:7233', tls: {}, apiKey: 'tc-secret' });
  });

  it('makes a certificate without its key (or a key without its certificate) a config error naming both', () => {
    for (const env of [{ TEMPORAL_TLS_CERT: '/tls/client.pem' }, { TEMPORAL_TLS_KEY: '/tls/client.key' }]) {
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && /TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY/.test(e.message));
    }
  });

  it('names the variable and the path of a file it cannot read', () => {
    assert.throws(
      () => build({ TEMPORAL_TLS_CERT: '/tls/client.pem', TEMPORAL_TLS_KEY: '/tls/missing.key' }),
      (e: unknown) => e instanceof ConfigError && /TEMPORAL_TLS_KEY: cannot read \/tls\/missing\.key \(ENOENT\)/.test(e.message),
    );
  });

  it('redacts TEMPORAL_API_KEY from logs, in the config and in connection options', () => {
    const out: string[] = [];
    const log = createLogger('info', 'test', { write: (s: string) => void out.push(s) });
    const config = loadConfig({ TEMPORAL_API_KEY: 'tc-secret-123' });
    log.info({ config }, 'config');
    log.info({ options: build({ TEMPORAL_API_KEY: 'tc-secret-123' }) }, 'options');
    assert.equal(out.length, 2);
    for (const line of out) {
      assert.doesNotMatch(line, /tc-secret-123/);
      assert.match(line, /\[redacted\]/);
    }
  });

  describe('used by the connections', function () {
    this.timeout(30_000);

    it('the client connection speaks plain gRPC by default and TLS with TEMPORAL_API_KEY', async () => {
      for (const [env, expected] of [[{}, HTTP2_PREFACE], [{ TEMPORAL_API_KEY: 'tc-secret' }, TLS_HANDSHAKE]] as const) {
        const rec = await firstByteRecorder();
        try {
          void connectTemporal(loadConfig(env), rec.address).catch(() => undefined); // never completes: nobody answers
          const first = await waitFor('a first byte', async () => rec.bytes[0], 10_000, 20);
          assert.equal(first, expected);
        } finally {
          rec.close();
        }
      }
    });

    it('the worker connection speaks TLS with TEMPORAL_API_KEY', async () => {
      const rec = await firstByteRecorder();
      const deps = await testDeps();
      const config = loadConfig({ ...process.env, SVC_LOG__LEVEL: 'silent', TEMPORAL_API_KEY: 'tc-secret' });
      const resources = createActivityResources(config);
      try {
        await assert.rejects(startWorker(config, rec.address, { ...deps, config, resources }, 'tls-probe'));
        assert.equal(rec.bytes[0], TLS_HANDSHAKE);
      } finally {
        rec.close();
        await resources.close();
      }
    });
  });
});
