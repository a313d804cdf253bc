// The benches' load generator (bench/http-load.ts) reads answers on bare sockets: it must count a
// whole 200 as a success (Content-Length or chunked, however the bytes arrive) and anything else as a
// failure: another status, an answer cut short, a malformed head or chunk, bytes beyond the answer,
// and its client must go on with a fresh connection after each.
import assert from 'node:assert/strict';
import net from 'node:net';
import { loadFromChild } from '../../bench/http-load';

const ok = (body: string, extra = '') => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

/** What the server writes for each path: the parts are written one by one, a few ms apart; `end` closes the connection after them. */
const ANSWERS: Record<string, { parts: string[]; end?: boolean; good: boolean }> = {
  '/ok': { parts: [ok('{"ok":true}')], good: true },
  '/split': { parts: (() => { const a = ok(`{"x":"${'y'.repeat(3000)}"}`); return [a.slice(0, 5), a.slice(5, 40), a.slice(40, 2000), a.slice(2000)]; })(), good: true },
  '/chunked': { parts: ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n', '6;ext=1\r\n world\r\n0\r\n', 'Trailer: x\r\n\r\n'], good: true },
  '/close': { parts: [ok('{}', 'Connection: close\r\n')], end: true, good: true },
  '/status': { parts: ['HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}'], good: false },
  '/short': { parts: ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"cut'], end: true, good: false },
  '/short-head': { parts: ['HTTP/1.1 200 OK\r\nContent-Le'], end: true, good: false },
  '/garbled': { parts: ['HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\n{}'], good: false },
  '/bad-chunk': { parts: ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n'], good: false },
  '/extra': { parts: [ok('{}') + 'HTTP/1.1 200 OK\r\n'], good: false },
  '/no-length': { parts: ['HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}'], end: true, good: false },
};

describe('bench load generator (bench/http-load.ts)', () => {
  let server: net.Server;
  let baseUrl: string;
  let connections = 0;

  before(async () => {
    server = net.createServer((socket) => {
      connections++;
      let pending = '';
      socket.on('data', async (chunk) => {
        pending += chunk.toString('latin1');
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const path = pending.slice(4, pending.indexOf(' ', 4));
        pending = pending.slice(end + 4);
        const answer = ANSWERS[path]!;
        for (const part of answer.parts) {
          socket.write(part);
          await new Promise((r) => setTimeout(r, 3));
        }
        if (answer.end) socket.end();
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts whole 200 answers as successes and every other answer as a failure, on a fresh connection after each', async () => {
    const paths = Object.keys(ANSWERS);
    const rounds = 3;
    const result = await loadFromChild({ baseUrl, headers: { 'X-Test': 'yes' }, paths, clients: 1, requests: paths.length * rounds });
    const bad = Object.values(ANSWERS).filter((a) => !a.good).length;
    assert.equal(result.failures, bad * rounds);
    // One client: its first connection, then a new one after each failure other than a status and after each Connection: close.
    const reconnecting = Object.entries(ANSWERS).filter(([p, a]) => (!a.good && p !== '/status') || p === '/close').length;
    assert.equal(connections, 1 + reconnecting * rounds - 1);
  });

  it('serves several clients at once, one request in flight on each connection', async () => {
    const before = connections;
    const result = await loadFromChild({ baseUrl, headers: {}, paths: ['/ok', '/split', '/chunked'], clients: 5, requests: 60 });
    assert.equal(result.failures, 0);
    assert.equal(connections - before, 5);
    assert.ok(result.p50 > 0 && result.rate > 0 && result.cpuMs > 0);
  });
});
