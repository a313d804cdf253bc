import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../config/config';
import { createLogger } from '../../infra/logger';

describe('configuration', () => {
  it('applies defaults and nests SVC_ settings with __', () => {
    const c = loadConfig({ SVC_ANALYTICS__SCHEDULED_REPORT_CHECK_INTERVAL_MINUTES: '5', SVC_AUTH__TRUST_PROXY_HEADER: 'true' });
    assert.equal(c.port, 8080);
    assert.equal(c.temporal.port, 7233);
    assert.equal(c.temporal.ui_port, 8233);
    assert.equal(c.temporal_namespace, 'default');
    assert.equal(c.analytics.scheduled_report_check_interval_minutes, 5);
    assert.equal(c.auth.trust_proxy_header, true);
    assert.equal(c.auth.identity_header, 'x-goog-authenticated-user-email');
    assert.ok(c.data_dir.endsWith('.data'));
  });

  it('reads the named variables', () => {
    const c = loadConfig({ PORT: '9001', DATABASE_URL: 'postgres://u:p@db:5432/x', TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_NAMESPACE: 'fraud', SVC_TEMPORAL__UI_PORT: '9233' });
    assert.equal(c.port, 9001);
    assert.equal(c.database_url, 'postgres://u:p@db:5432/x');
    assert.equal(c.temporal_address, 'temporal:7233');
    assert.equal(c.temporal_namespace, 'fraud');
    assert.equal(c.temporal.ui_port, 9233);
  });

  it('names the variable and the expected form when a value is bad', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }), (e: unknown) => e instanceof ConfigError && /PORT: .*number/.test(e.message));
    assert.throws(() => loadConfig({ SVC_TEMPORAL__PORT: '70000' }), /SVC_TEMPORAL__PORT/);
    assert.throws(() => loadConfig({ SVC_AUTH__BOOTSTRAP_ADMINS: 'not-an-email' }), /SVC_AUTH__BOOTSTRAP_ADMINS/);
    assert.throws(() => loadConfig({ TEMPORAL_ADDRESS: 'no port here' }), /TEMPORAL_ADDRESS: .*host:port/);
  });

  it('rejects unknown SVC_ settings so that typos do not pass silently', () => {
    assert.throws(() => loadConfig({ SVC_AUTH__TRUST_PROXY_HEADERS: 'true' }), /SVC_AUTH__TRUST_PROXY_HEADERS: unknown setting/);
  });

  it('defaults to a loopback API, no forwarded headers, no unverified header off loopback, no migration by api/worker', () => {
    const c = loadConfig({});
    assert.equal(c.api.host, '127.0.0.1');
    assert.equal(c.api.trust_forwarded_headers, false);
    assert.equal(c.auth.allow_unverified_header, false);
    assert.equal(c.db.migrate_on_start, false);
    const set = loadConfig({ SVC_API__HOST: '0.0.0.0', SVC_API__TRUST_FORWARDED_HEADERS: 'true', SVC_AUTH__ALLOW_UNVERIFIED_HEADER: 'true', SVC_DB__MIGRATE_ON_START: 'true' });
    assert.deepEqual([set.api.host, set.api.trust_forwarded_headers, set.auth.allow_unverified_header, set.db.migrate_on_start], ['0.0.0.0', true, true, true]);
  });

  it('reads the Temporal TLS and API-key variables', () => {
    const c = loadConfig({ TEMPORAL_TLS_CERT: '/c.pem', TEMPORAL_TLS_KEY: '/c.key', TEMPORAL_TLS_CA: '/ca.pem', TEMPORAL_TLS_SERVER_NAME: 't.example.org', TEMPORAL_API_KEY: 'k' });
    assert.deepEqual(
      [c.temporal_tls_cert, c.temporal_tls_key, c.temporal_tls_ca, c.temporal_tls_server_name, c.temporal_api_key],
      ['/c.pem', '/c.key', '/ca.pem', 't.example.org', 'k'],
    );
  });
  it('blobs default to the local directory <data dir>/blobs; SVC_BLOBS__* select and configure S3', () => {
    const c = loadConfig({ SVC_DATA_DIR: '/srv/fip data' });
    assert.equal(c.blobs.url, 'file:///srv/fip%20data/blobs');
    const s3 = loadConfig({
      SVC_BLOBS__URL: 's3://fip-blobs/prod', SVC_BLOBS__ENDPOINT: 'http://127.0.0.1:9000', SVC_BLOBS__REGION: 'eu-west-1',
      SVC_BLOBS__ACCESS_KEY_ID: 'AKID', SVC_BLOBS__SECRET_ACCESS_KEY: 's3cr3t', SVC_BLOBS__FORCE_PATH_STYLE: 'true',
    });
    assert.deepEqual(s3.blobs, { url: 's3://fip-blobs/prod', endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1', access_key_id: 'AKID', secret_access_key: 's3cr3t', force_path_style: true });
  });

  it('a bad SVC_BLOBS__URL, or a key without its secret, stops start-up naming the variable', () => {
    for (const url of ['/just/a/path', 'http://bucket/x', 's3://B_ad/x', 'file://otherhost/x', 's3://bucket:9000/x']) {
      assert.throws(() => loadConfig({ SVC_BLOBS__URL: url }), (e: unknown) => e instanceof ConfigError && /SVC_BLOBS__URL: file:\/\/\/absolute\/path or s3:\/\/bucket\/prefix/.test(e.message), url);
    }
    assert.throws(() => loadConfig({ SVC_BLOBS__ACCESS_KEY_ID: 'AKID' }), /SVC_BLOBS__ACCESS_KEY_ID and SVC_BLOBS__SECRET_ACCESS_KEY: set both or neither/);
  });

  it('the S3 secret is redacted when the config is logged', () => {
    const lines: string[] = [];
    const log = createLogger('info', 'test', { write: (l: string) => lines.push(l) });
    log.info({ config: loadConfig({ SVC_BLOBS__URL: 's3://b-1/x', SVC_BLOBS__ACCESS_KEY_ID: 'AKID', SVC_BLOBS__SECRET_ACCESS_KEY: 'very-secret-value' }) }, 'config');
    assert.equal(lines.length, 1);
    assert.doesNotMatch(lines[0], /very-secret-value/);
    assert.match(lines[0], /"secret_access_key":"\[redacted\]"/);
  });
});
