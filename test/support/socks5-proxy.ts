// A tiny SOCKS5 proxy on loopback for tests (RFC 1928 CONNECT, with RFC 1929 user/password when
// given credentials): records the `host:port` of every CONNECT and the user names it was offered.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Socks5Proxy {
  url: string;
  port: number;
  connects: string[];
  users: string[];
  close(): Promise<void>;
}

function readBytes(socket: net.Socket, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tryRead = () => {
      const chunk = socket.read(n) as Buffer | null;
      if (chunk) {
        socket.off('readable', tryRead);
        socket.off('error', reject);
        resolve(chunk);
      }
    };
    socket.on('readable', tryRead);
    socket.once('error', reject);
    tryRead();
  });
}

export async function startSocks5Proxy(credentials?: { user: string; password: string }): Promise<Socks5Proxy> {
  const connects: string[] = [];
  const users: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    void (async () => {
      const [, nMethods] = await readBytes(client, 2);
      const methods = [...(await readBytes(client, nMethods!))];
      const method = credentials ? 2 : 0;
      if (!methods.includes(method)) return void client.end(Buffer.from([5, 0xff]));
      client.write(Buffer.from([5, method]));
      if (credentials) {
        const [, ulen] = await readBytes(client, 2);
        const user = (await readBytes(client, ulen!)).toString();
        const [plen] = await readBytes(client, 1);
        const password = (await readBytes(client, plen!)).toString();
        users.push(user);
        const ok = user === credentials.user && password === credentials.password;
        client.write(Buffer.from([1, ok ? 0 : 1]));
        if (!ok) return void client.end();
      }
      const [, cmd, , atyp] = await readBytes(client, 4);
      let host: string;
      if (atyp === 1) host = [...(await readBytes(client, 4))].join('.');
      else if (atyp === 3) host = (await readBytes(client, (await readBytes(client, 1))[0]!)).toString();
      else return void client.end(Buffer.from([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]));
      const port = (await readBytes(client, 2)).readUInt16BE(0);
      connects.push(`${host}:${port}`);
      if (cmd !== 1) return void client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
      const upstream = net.connect({ host, port }, () => {
        client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => { client.destroy(); upstream.destroy(); });
    })().catch(() => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const auth = credentials ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@` : '';
  return {
    url: `socks5://${auth}127.0.0.1:${port}`,
    port,
    connects,
    users,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
