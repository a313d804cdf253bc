// The pinned HTTP client (infra/crawler/pinned-http.ts) against a loopback https server with a
// self-signed certificate: the crawler's default takes the answer and records that the certificate
// did not verify; services that talk to parties they trust (RDAP registries, alert webhooks) pass
// verifyTls and get an error instead of the answer.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pinnedRequest } from '../../infra/crawler/pinned-http';

describe('pinned HTTP client: TLS verification', function () {
  this.timeout(30_000);
  let server: https.Server;
  let url: string;

  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=registry.test', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end('{"objectClassName":"domain"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/domain/example.test`;
  });
  after(() => server.close());

  const request = (verifyTls?: boolean) => pinnedRequest({ url, method: 'GET', headers: {}, address: '127.0.0.1', timeoutMs: 10_000, maxBodyBytes: 4096, ...(verifyTls === undefined ? {} : { verifyTls }) });

  it('by default (the crawler) takes the answer and records the certificate as not verified', async () => {
    const res = await request();
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), '{"objectClassName":"domain"}');
    assert.equal(res.tls?.authorized, false);
    assert.match(res.tls?.subject ?? '', /CN=registry\.test/);
  });

  it('with verifyTls refuses a certificate that does not verify', async () => {
    await assert.rejects(request(true), (err: Error & { code?: string }) => {
      assert.match(`${err.code} ${err.message}`, /self.signed|DEPTH_ZERO_SELF_SIGNED_CERT|unable to verify/i);
      return true;
    });
  });
});
