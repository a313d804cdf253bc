// One HTTP(S) exchange for the crawler, connected to an address that was checked beforehand: the
// socket goes to exactly that IP (a `lookup` that answers only it), so a DNS answer that changes
// between the check and the connection (DNS rebinding) cannot redirect the crawler. Redirects are
// not followed here: the browser follows them and each hop is checked again. The TLS details and the
// server's address are read from the socket itself.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls, { type TLSSocket } from 'node:tls';
import { pinnedLookup } from './dns-resolver';
import { openTunnel, type CrawlerProxy } from './proxy-tunnel';

export interface PinnedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer | null;
  /** The checked address the connection must use. */
  address: string;
  timeoutMs: number;
  /** A longer body is cut here: the answer carries its first maxBodyBytes and `truncated`. */
  maxBodyBytes: number;
  /** Through this proxy (a tunnel to `address`), when the investigation has one. */
  proxy?: CrawlerProxy;
  /**
   * Refuse a certificate that does not verify (default false: scam sites often have broken ones,
   * and the capture records whether it was valid). Services talking to parties they trust (RDAP
   * registries, alert webhooks) set it, so nobody in the path can answer in their place.
   */
  verifyTls?: boolean;
}

export interface TlsDetails {
  protocol: string | null;
  cipher: string | null;
  subject: string | null;
  issuer: string | null;
  valid_from: string | null;
  valid_to: string | null;
  fingerprint256: string | null;
  subject_alt_names: string | null;
  authorized: boolean;
  authorization_error: string | null;
}

export interface PinnedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  serverIp: string;
  /** The crawler's own address on this connection (its egress address, for evidence provenance). */
  localIp: string | null;
  tls: TlsDetails | null;
  /** The body was longer than maxBodyBytes: `body` is its beginning, the rest was not read. */
  truncated: boolean;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'content-length', 'content-encoding']);

function tlsOf(socket: TLSSocket): TlsDetails {
  const cert = socket.getPeerCertificate();
  const name = (o: Record<string, unknown> | undefined) => (o ? Object.entries(o).map(([k, v]) => `${k}=${String(v)}`).join(', ') : null);
  return {
    protocol: socket.getProtocol() ?? null,
    cipher: socket.getCipher()?.name ?? null,
    subject: cert && Object.keys(cert).length ? name(cert.subject as unknown as Record<string, unknown>) : null,
    issuer: cert && Object.keys(cert).length ? name(cert.issuer as unknown as Record<string, unknown>) : null,
    valid_from: cert?.valid_from ?? null,
    valid_to: cert?.valid_to ?? null,
    fingerprint256: cert?.fingerprint256 ?? null,
    subject_alt_names: cert?.subjectaltname ?? null,
    authorized: socket.authorized,
    authorization_error: socket.authorizationError ? String(socket.authorizationError) : null,
  };
}

function serverName(url: URL): string | undefined {
  return net.isIP(url.hostname) ? undefined : url.hostname;
}

export async function pinnedRequest(req: PinnedRequest): Promise<PinnedResponse> {
  const url = new URL(req.url);
  const secure = url.protocol === 'https:';
  const tunnel = req.proxy ? await openTunnel(req.proxy, req.address, url.port ? Number(url.port) : secure ? 443 : 80, req.timeoutMs) : null;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k.toLowerCase())) headers[k] = v;
  headers['accept-encoding'] = 'identity';
  return new Promise((resolve, reject) => {
    let answered = false;
    const options: https.RequestOptions = {
      method: req.method,
      headers,
      // Scam sites often have broken certificates; the capture records whether it was valid.
      rejectUnauthorized: req.verifyTls ?? false,
      servername: secure && !net.isIP(url.hostname) ? url.hostname : undefined,
      lookup: pinnedLookup([req.address]),
      agent: false,
      // Through the proxy: the tunnel to the checked address (TLS on top for https).
      ...(tunnel ? { createConnection: () => (secure ? tls.connect({ socket: tunnel, servername: serverName(url), rejectUnauthorized: req.verifyTls ?? false }) : tunnel) } : {}),
    };
    const client = secure ? https : http;
    const request = client.request(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        answered = true;
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined || HOP_BY_HOP.has(k)) continue;
          out[k] = Array.isArray(v) ? v.join(k === 'set-cookie' ? '\n' : ', ') : v;
        }
        const socket = res.socket;
        resolve({
          status: res.statusCode ?? 0,
          headers: out,
          body: Buffer.concat(chunks),
          // Through a proxy the socket's peer is the proxy: the server is the tunnel's checked address,
          // and the egress address is the proxy's (not known here).
          serverIp: tunnel ? req.address : (socket?.remoteAddress ?? req.address),
          localIp: tunnel ? null : (socket?.localAddress ?? null),
          tls: secure && socket ? tlsOf(socket as TLSSocket) : null,
          truncated,
        });
      };
      res.on('data', (c: Buffer) => {
        if (done) return;
        if (size + c.length > req.maxBodyBytes) {
          // Kept up to the limit, marked; the rest is not read (the connection is dropped).
          chunks.push(c.subarray(0, req.maxBodyBytes - size));
          size = req.maxBodyBytes;
          truncated = true;
          finish();
          request.destroy();
          return;
        }
        size += c.length;
        chunks.push(c);
      });
      res.on('end', finish);
      res.on('error', (err) => { if (!done) reject(err); });
    });
    request.setTimeout(req.timeoutMs, () => request.destroy(new Error(`no answer within ${req.timeoutMs} ms`)));
    request.on('error', (err) => { if (!answered) reject(err); });
    request.on('close', () => tunnel?.destroy());
    request.end(req.body ?? undefined);
  });
}
