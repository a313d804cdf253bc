// A tunnel through the crawler's proxy (SVC_SSI__PROXY_URL) to one checked address: HTTP CONNECT or
// SOCKS5 CONNECT, always to the IP the egress policy checked (never a name the proxy would resolve
// itself), so the proxy changes the crawler's egress address but not what it may reach. The proxy's
// own address was checked too (infra/crawler/crawler-egress.ts checkProxy).
import net from 'node:net';
import type { ProxySettings } from '../../domain/investigations/visitor-profile';

/** The proxy as a session uses it: its settings and the checked address to connect to. */
export interface CrawlerProxy {
  settings: ProxySettings;
  address: string;
}

function connect(address: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`the proxy did not answer within ${timeoutMs} ms`)));
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Reads from the socket until `done` says how many bytes make the answer; the rest is not consumed. */
function readAnswer(socket: net.Socket, done: (buf: Buffer) => number | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const n = done(buf);
      if (n === null) return;
      cleanup();
      if (buf.length > n) socket.unshift(buf.subarray(n));
      resolve(buf.subarray(0, n));
    };
    const onEnd = () => { cleanup(); reject(new Error('the proxy closed the connection')); };
    const onError = (err: Error) => { cleanup(); reject(err); };
    const cleanup = () => { socket.off('data', onData); socket.off('end', onEnd); socket.off('error', onError); };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('error', onError);
  });
}

async function httpConnect(socket: net.Socket, proxy: ProxySettings, address: string, port: number): Promise<void> {
  const target = net.isIPv6(address) ? `[${address}]:${port}` : `${address}:${port}`;
  const auth = proxy.username !== null ? `Proxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}\r\n` : '';
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
  const head = await readAnswer(socket, (b) => {
    const end = b.indexOf('\r\n\r\n');
    if (end < 0 && b.length > 16_384) return b.length;
    return end < 0 ? null : end + 4;
  });
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'))?.[1];
  if (status !== '200') throw new Error(`the proxy refused CONNECT ${target}: ${head.toString('latin1').split('\r\n')[0]!.slice(0, 200)}`);
}

async function socks5Connect(socket: net.Socket, proxy: ProxySettings, address: string, port: number): Promise<void> {
  const withAuth = proxy.username !== null;
  socket.write(Buffer.from(withAuth ? [5, 2, 0, 2] : [5, 1, 0]));
  const method = await readAnswer(socket, (b) => (b.length >= 2 ? 2 : null));
  if (method[0] !== 5 || (method[1] !== 0 && method[1] !== 2)) throw new Error('the SOCKS5 proxy accepts none of our authentication methods');
  if (method[1] === 2) {
    const user = Buffer.from(proxy.username ?? '');
    const pass = Buffer.from(proxy.password ?? '');
    socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
    const ok = await readAnswer(socket, (b) => (b.length >= 2 ? 2 : null));
    if (ok[1] !== 0) throw new Error('the SOCKS5 proxy refused the credentials');
  }
  const v6 = net.isIPv6(address);
  const addr = v6 ? ipv6Bytes(address) : Buffer.from(address.split('.').map(Number));
  socket.write(Buffer.concat([Buffer.from([5, 1, 0, v6 ? 4 : 1]), addr, Buffer.from([port >> 8, port & 255])]));
  const reply = await readAnswer(socket, (b) => {
    if (b.length < 5) return null;
    const len = b[3] === 1 ? 4 : b[3] === 4 ? 16 : b[3] === 3 ? 1 + b[4]! : 0;
    return b.length >= 4 + len + 2 ? 4 + len + 2 : null;
  });
  if (reply[1] !== 0) throw new Error(`the SOCKS5 proxy refused the connection to ${address}:${port} (reply ${reply[1]})`);
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail = ''] = address.split('::');
  const parts = (s: string) => (s ? s.split(':') : []);
  const h = parts(head!);
  const t = parts(tail);
  const groups = address.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return Buffer.from(groups.flatMap((g) => { const n = parseInt(g, 16); return [n >> 8, n & 255]; }));
}

/** A socket to `address:port` through the proxy, ready for HTTP (or for TLS on top). */
export async function openTunnel(proxy: CrawlerProxy, address: string, port: number, timeoutMs: number): Promise<net.Socket> {
  const socket = await connect(proxy.address, proxy.settings.port, timeoutMs);
  try {
    if (proxy.settings.scheme === 'http') await httpConnect(socket, proxy.settings, address, port);
    else await socks5Connect(socket, proxy.settings, address, port);
    socket.setTimeout(0);
    return socket;
  } catch (err) {
    socket.destroy();
    throw err;
  }
}
