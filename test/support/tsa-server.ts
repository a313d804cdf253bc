// A loopback RFC 3161 time-stamping authority for tests: a throwaway CA and a TSA certificate
// (extendedKeyUsage critical timeStamping) made with the openssl binary at test time, and a small
// HTTP server that answers each application/timestamp-query with `openssl ts -reply`. The real
// authorities are outside the machine; this one speaks the same protocol over 127.0.0.1.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface LoopbackTsa {
  url: string;
  /** The CA that issued the TSA's certificate (PEM file), what a recipient gets from the authority. */
  caFile: string;
  /** Queries answered so far. */
  requests: number;
  /** `fail`: every query answers HTTP 500. */
  mode: 'ok' | 'fail';
  close(): Promise<void>;
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

function makeCertificates(dir: string): void {
  fs.writeFileSync(path.join(dir, 'tsa-ext.cnf'), ['[tsa_ext]', 'basicConstraints = critical,CA:FALSE', 'keyUsage = critical,digitalSignature', 'extendedKeyUsage = critical,timeStamping', 'subjectKeyIdentifier = hash', 'authorityKeyIdentifier = keyid', ''].join('\n'));
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Test TSA Root', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'tsa.key', '-out', 'tsa.csr', '-subj', '/CN=Test Time-Stamping Authority'], dir);
  openssl(['x509', '-req', '-in', 'tsa.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'tsa.pem', '-days', '2', '-extfile', 'tsa-ext.cnf', '-extensions', 'tsa_ext'], dir);
  fs.writeFileSync(path.join(dir, 'tsaserial'), '01\n');
  fs.writeFileSync(
    path.join(dir, 'tsa.cnf'),
    [
      '[ tsa ]', 'default_tsa = tsa_config', '[ tsa_config ]', `dir = ${dir}`, 'serial = $dir/tsaserial', 'crypto_device = builtin',
      'signer_cert = $dir/tsa.pem', 'certs = $dir/ca.pem', 'signer_key = $dir/tsa.key', 'signer_digest = sha256', 'default_policy = 1.3.6.1.4.1.99999.1',
      'digests = sha256', 'accuracy = secs:1', 'ordering = yes', 'tsa_name = yes', 'ess_cert_id_chain = no', 'ess_cert_id_alg = sha256', '',
    ].join('\n'),
  );
}

function reply(dir: string, query: Buffer, n: number): Promise<Buffer> {
  const q = path.join(dir, `q${n}.tsq`);
  const r = path.join(dir, `r${n}.tsr`);
  fs.writeFileSync(q, query);
  return new Promise((resolve, reject) => {
    execFile('openssl', ['ts', '-reply', '-config', path.join(dir, 'tsa.cnf'), '-queryfile', q, '-out', r], { cwd: dir }, (err, _out, stderr) => {
      if (err) reject(new Error(`openssl ts -reply: ${stderr}`));
      else resolve(fs.readFileSync(r));
    });
  });
}

export async function startLoopbackTsa(): Promise<LoopbackTsa> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-test-tsa-'));
  makeCertificates(dir);
  // openssl ts -reply updates one serial file: queries are answered one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      tsa.requests += 1;
      const n = tsa.requests;
      if (tsa.mode === 'fail' || req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(tsa.mode === 'fail' ? 500 : 400).end();
        return;
      }
      const answer = queue.then(() => reply(dir, Buffer.concat(chunks), n));
      queue = answer.catch(() => undefined);
      answer.then(
        (body) => res.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': body.length }).end(body),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const tsa: LoopbackTsa = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`,
    caFile: path.join(dir, 'ca.pem'),
    requests: 0,
    mode: 'ok',
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).finally(() => fs.rmSync(dir, { recursive: true, force: true })),
  };
  return tsa;
}
