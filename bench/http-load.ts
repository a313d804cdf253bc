// A load generator in a process of its own: `clients` concurrent keep-alive clients issue
// `requests` GETs in total, cycling through the paths given, and report latency percentiles.
// Closed loop by default (each client sends its next request as soon as the last one is answered:
// the server's saturation); with `thinkMs`, each client pauses a random time (exponential, that
// mean) between requests, as an analyst reading the answer does. Benches run it as a
// child process so that the clients never share the server's event loop (an in-process client
// doubles the work of the one thread that serves the API and inflates every latency it measures).
import http from 'node:http';
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

async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.clients });
  const get = (p: string) =>
    new Promise<void>((resolve, reject) => {
      http
        .get(spec.baseUrl + p, { agent, headers: spec.headers }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${p}: ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: spec.clients }, async (_, c) => {
      // Paced clients start spread over one think time, not all at once.
      if (spec.thinkMs) await new Promise((r) => setTimeout(r, (c / spec.clients) * spec.thinkMs!));
      for (;;) {
        const k = next++;
        if (k >= spec.requests) return;
        const t = performance.now();
        try {
          await get(spec.paths[k % spec.paths.length]!);
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
  agent.destroy();
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
