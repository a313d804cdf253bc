// Where a burst's time goes: the Temporal SDK's worker metrics (scraped from the worker's
// Prometheus endpoint, SVC_WORKER__METRICS_BIND, before and after the burst, so only the burst counts)
// and PostgreSQL's wait events sampled from pg_stat_activity while it runs.
import type { Knex } from 'knex';

type Samples = Map<string, number>; // `name{labels}` -> value

function parsePrometheus(text: string): Samples {
  const out: Samples = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m) out.set(`${m[1]}${m[2] ?? ''}`, (out.get(`${m[1]}${m[2] ?? ''}`) ?? 0) + Number(m[3]));
  }
  return out;
}

export async function scrapeMetrics(bind: string): Promise<Samples> {
  const res = await fetch(`http://${bind}/metrics`);
  return parsePrometheus(await res.text());
}

function label(key: string, name: string): string | undefined {
  return new RegExp(`${name}="([^"]*)"`).exec(key)?.[1];
}

interface Histogram {
  count: number;
  mean: number;
  p50: number;
  p99: number;
}

/** A histogram's change between two scrapes, summed over all label sets (optionally one `operation`). */
function histogramDelta(before: Samples, after: Samples, name: string, filter: (key: string) => boolean = () => true): Histogram | null {
  const buckets = new Map<number, number>();
  let count = 0;
  let sum = 0;
  for (const [key, value] of after) {
    if (!filter(key)) continue;
    const delta = value - (before.get(key) ?? 0);
    if (key.startsWith(`${name}_bucket{`)) {
      const le = label(key, 'le');
      const bound = le === '+Inf' ? Infinity : Number(le);
      buckets.set(bound, (buckets.get(bound) ?? 0) + delta);
    } else if (key.startsWith(`${name}_count`)) count += delta;
    else if (key.startsWith(`${name}_sum`)) sum += delta;
  }
  if (count <= 0) return null;
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const quantile = (q: number) => sorted.find(([, c]) => c >= q * count)?.[0] ?? Infinity;
  return { count, mean: sum / count, p50: quantile(0.5), p99: quantile(0.99) };
}

const fmtMs = (ms: number) => (ms === Infinity ? '>max bucket' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);

/** Samples the wait events of active PostgreSQL backends every `everyMs` until stopped. */
export function sampleDatabaseWaits(knex: Knex, everyMs = 100): { stop(): Promise<string[]> } {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const rows = (await knex.raw(
        `SELECT coalesce(wait_event_type, 'CPU') AS type, coalesce(wait_event, 'running') AS event, count(*)::int AS n
           FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND backend_type = 'client backend'
          GROUP BY 1, 2`,
      )) as { rows: Array<{ type: string; event: string; n: number }> };
      samples++;
      for (const r of rows.rows) counts.set(`${r.type}/${r.event}`, (counts.get(`${r.type}/${r.event}`) ?? 0) + r.n);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return [
        `database: ${(total / Math.max(1, samples)).toFixed(2)} active backends on average over ${samples} samples; by wait event:`,
        ...[...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, n]) => `    ${k.padEnd(36)} ${((n / Math.max(1, total)) * 100).toFixed(0)}%`),
      ];
    },
  };
}

/** Lines describing the burst from the worker's metrics. Units: the SDK exports milliseconds. */
export function describeWorkerMetrics(before: Samples, after: Samples): string[] {
  const lines: string[] = [];
  const row = (title: string, h: Histogram | null) => {
    if (h) lines.push(`    ${title.padEnd(44)} n=${String(h.count).padStart(6)}  mean ${fmtMs(h.mean).padStart(8)}  p50 <= ${fmtMs(h.p50).padStart(8)}  p99 <= ${fmtMs(h.p99)}`);
  };
  row('workflow task schedule-to-start', histogramDelta(before, after, 'temporal_workflow_task_schedule_to_start_latency'));
  row('workflow task execution', histogramDelta(before, after, 'temporal_workflow_task_execution_latency'));
  row('workflow task replay', histogramDelta(before, after, 'temporal_workflow_task_replay_latency'));
  row('activity schedule-to-start', histogramDelta(before, after, 'temporal_activity_schedule_to_start_latency'));
  row('activity execution', histogramDelta(before, after, 'temporal_activity_execution_latency'));
  row('local activity execution', histogramDelta(before, after, 'temporal_local_activity_execution_latency'));
  row('workflow end-to-end (run start to close)', histogramDelta(before, after, 'temporal_workflow_endtoend_latency'));
  // Server round trips by RPC: where the dev server's persistence shows.
  const ops = new Set<string>();
  for (const key of after.keys()) if (key.startsWith('temporal_request_latency_count{')) ops.add(label(key, 'operation') ?? '?');
  const perOp = [...ops]
    .map((op) => [op, histogramDelta(before, after, 'temporal_request_latency', (k) => label(k, 'operation') === op)] as const)
    .filter(([, h]) => h && h.count > 0)
    .sort((a, b) => b[1]!.count * b[1]!.mean - a[1]!.count * a[1]!.mean)
    .slice(0, 6);
  for (const [op, h] of perOp) row(`RPC ${op}`, h);
  const counter = (name: string) => [...after.entries()].filter(([k]) => k.startsWith(name)).reduce((a, [k, v]) => a + v - (before.get(k) ?? 0), 0);
  const hits = counter('temporal_sticky_cache_hit');
  const misses = counter('temporal_sticky_cache_miss');
  if (hits + misses > 0) lines.push(`    sticky cache: ${hits} hits, ${misses} misses; workflow tasks failed: ${counter('temporal_workflow_task_execution_failed')}`);
  return lines.length ? ['worker metrics over the burst (Temporal SDK, Prometheus):', ...lines] : ['worker metrics: none scraped (is SVC_WORKER__METRICS_BIND set?)'];
}
