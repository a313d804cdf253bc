// A tiny HTTP CONNECT proxy on loopback for tests: tunnels every CONNECT to its target and records
// the targets it was asked for, so a test can tell that the crawler's requests went through it.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ConnectProxy {
  url: string;
  port: number;
  /** `host:port` of every CONNECT, in order. */
  connects: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(): Promise<ConnectProxy> {
  const connects: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end('CONNECT only'));
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    connects.push(target);
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    if (!m) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const upstream = net.connect({ host: m[1], port: Number(m[2]) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => { client.destroy(); upstream.destroy(); });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connects,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
