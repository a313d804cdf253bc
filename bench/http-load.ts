// A load generator in a process of its own: `clients` concurrent keep-alive clients issue
// `requests` GETs in total, cycling through the paths given, and report latency percentiles.
// Closed loop by default (each client sends its next request as soon as the last one is answered:
// the server's saturation); with `thinkMs`, each client pauses a random time (exponential, that
// mean) between requests, as an analyst reading the answer does. Benches run it as a
// child process so that the clients never share the server's event loop (an in-process client
// doubles the work of the one thread that serves the API and inflates every latency it measures).
//
// The clients are bare HTTP/1.1 keep-alive connections on node:net sockets, not node:http: on the
// machine the benches run on, the clients share the cores with the server, so each request's client
// CPU is taken from the server (node:http with an Agent cost 0.31-0.44 ms per request, this about a
// third of that). Each request is encoded once per path; one request is in flight per connection (no
// pipelining); an answer is read just far enough to be sure it is whole: the status line, the
// headers up to the blank line, then a Content-Length or chunked body. A status other than 200 is
// a failure; so is an answer that is cut short, malformed or followed by bytes nobody asked for, and
// then the connection is dropped and the client's next request opens a new one.
import net from 'node:net';
import { fork } from 'node:child_process';
import { percentile } from './percentile';

export interface LoadSpec {
  baseUrl: string;
  headers: Record<string, string>;
  paths: string[];
  clients: number;
  requests: number;
  /** Mean pause of each client between its requests (exponential); 0 or absent: closed loop. */
  thinkMs?: number;
}

export interface LoadResult {
  p50: number;
  p95: number;
  p99: number;
  failures: number;
  /** Answered requests per second over the whole run. */
  rate: number;
  /** CPU time of the load generator's own process over the run, in ms. */
  cpuMs: number;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
/** Longer heads or chunk-size lines than these are not an answer of this API. */
const MAX_HEAD = 64 * 1024;
const MAX_CHUNK_LINE = 256;

/** An answer's head: its status, where its body starts, and how the body's end is known. */
interface Head {
  status: number;
  bodyStart: number;
  /** The body's length, or -1 for a chunked body. */
  length: number;
  close: boolean;
}

/** The head at the start of `buf`: undefined while incomplete, null when it is not an HTTP/1.x answer we can delimit. */
function parseHead(buf: Buffer): Head | null | undefined {
  const end = buf.indexOf(HEAD_END);
  if (end < 0) return buf.length > MAX_HEAD ? null : undefined;
  const lines = buf.toString('latin1', 0, end).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(lines[0]!);
  if (!m) return null;
  const status = Number(m[1]);
  let length: number | undefined;
  let chunked = false;
  let close = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim().toLowerCase();
    if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value) || (length !== undefined && length !== Number(value))) return null;
      length = Number(value);
    } else if (name === 'transfer-encoding') chunked = value.endsWith('chunked');
    else if (name === 'connection') close = value.split(',').some((t) => t.trim() === 'close');
  }
  // RFC 9112 6.3: chunked wins over Content-Length; without either only bodiless statuses can be delimited.
  if (chunked) length = -1;
  else if (length === undefined) {
    if (status !== 204 && status !== 304 && status >= 200) return null;
    length = 0;
  }
  return { status, bodyStart: end + 4, length, close };
}

/** Where a chunked body that starts at `pos` ends in `buf`: 0 while incomplete, -1 when malformed. */
function chunkedEnd(buf: Buffer, pos: number): number {
  for (;;) {
    const eol = buf.indexOf(CRLF, pos);
    if (eol < 0) return buf.length - pos > MAX_CHUNK_LINE ? -1 : 0;
    const sizeText = buf.toString('latin1', pos, eol).split(';')[0]!.trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return -1;
    const size = parseInt(sizeText, 16);
    if (size === 0) {
      // The last chunk, then trailer fields (usually none) up to an empty line.
      const end = buf.indexOf(HEAD_END, eol);
      return end < 0 ? (buf.length - eol > MAX_HEAD ? -1 : 0) : end + 4;
    }
    const dataEnd = eol + 2 + size;
    if (buf.length < dataEnd + 2) return 0;
    if (buf[dataEnd] !== 13 || buf[dataEnd + 1] !== 10) return -1;
    pos = dataEnd + 2;
  }
}

/** One keep-alive connection with at most one request in flight; reconnects after a failure or a `Connection: close`. */
class Connection {
  private socket: net.Socket | undefined;
  private buf: Buffer | null = null;
  private head: Head | undefined;
  /** Bytes of the current answer read so far (head included). */
  private received = 0;
  private settle: ((err: Error | null) => void) | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** Sends one encoded request; resolves on a whole 200 answer, rejects on anything else. */
  send(request: Buffer): Promise<void> {
    const socket = this.socket ?? this.connect();
    return new Promise((resolve, reject) => {
      this.settle = (err) => (err ? reject(err) : resolve());
      socket.write(request);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connect(): net.Socket {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => this.onData(socket, chunk));
    const gone = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.finish(new Error('connection closed before a whole answer'));
    };
    socket.on('error', gone);
    socket.on('close', gone);
    this.socket = socket;
    return socket;
  }

  private onData(socket: net.Socket, chunk: Buffer): void {
    if (this.socket !== socket) return;
    if (!this.settle) return this.fail('bytes arrived with no request in flight');
    this.received += chunk.length;
    // The head is kept until it is whole; a body of known length is only counted, a chunked one kept.
    if (!this.head || this.head.length < 0) this.buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
    if (!this.head) {
      const head = parseHead(this.buf!);
      if (head === undefined) return;
      if (head === null) return this.fail('malformed answer head');
      this.head = head;
    }
    const { status, bodyStart, length, close } = this.head;
    const end = length >= 0 ? bodyStart + length : chunkedEnd(this.buf!, bodyStart);
    if (end < 0) return this.fail('malformed chunked body');
    if (end === 0 || this.received < end) return;
    if (this.received > end) return this.fail('bytes beyond the answer');
    if (close) this.close();
    this.finish(status === 200 ? null : new Error(`status ${status}`));
  }

  private fail(reason: string): void {
    this.close();
    this.finish(new Error(reason));
  }

  private finish(err: Error | null): void {
    const settle = this.settle;
    this.settle = undefined;
    this.buf = null;
    this.head = undefined;
    this.received = 0;
    settle?.(err);
  }
}

async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const url = new URL(spec.baseUrl);
  const port = Number(url.port) || 80;
  const fixed = Object.entries({ Host: url.host, ...spec.headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const encoded = new Map<string, Buffer>();
  for (const p of spec.paths) if (!encoded.has(p)) encoded.set(p, Buffer.from(`GET ${url.pathname.replace(/\/$/, '')}${p} HTTP/1.1\r\n${fixed}\r\n`, 'latin1'));
  const requests = spec.paths.map((p) => encoded.get(p)!);
  const connections = Array.from({ length: spec.clients }, () => new Connection(url.hostname, port));
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    connections.map(async (connection, c) => {
      // Paced clients start spread over one think time, not all at once.
      if (spec.thinkMs) await new Promise((r) => setTimeout(r, (c / spec.clients) * spec.thinkMs!));
      for (;;) {
        const k = next++;
        if (k >= spec.requests) return;
        const t = performance.now();
        try {
          await connection.send(requests[k % requests.length]!);
        } catch {
          failures++;
        }
        latencies.push(performance.now() - t);
        if (spec.thinkMs) await new Promise((r) => setTimeout(r, -Math.log(1 - Math.random()) * spec.thinkMs!));
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  for (const connection of connections) connection.close();
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), failures, rate: spec.requests / elapsed, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Runs the load in a child process and answers its figures. */
export function loadFromChild(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited ${code}`)));
    child.send(spec);
  });
}

if (require.main === module && process.send) {
  process.once('message', (spec) => {
    runLoad(spec as LoadSpec).then(
      (r) => process.send!(r, () => process.exit(0)),
      (err) => {
        process.stderr.write(`load generator: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  });
}
