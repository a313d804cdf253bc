import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../config/config';
import { createLogger } from '../../infra/logger';
import { temporalConnectionOptions } from '../../infra/temporal-connection';

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
});
