// SVC_WORKER__METRICS_BIND: a worker serves the Temporal SDK's metrics for Prometheus (task
// latencies, slots, RPC latency), which the scheduled bench reads to profile a burst.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { freePort } from '../../app/ephemeral-infrastructure';
import { stopChildProcess } from '../../infra/child-process';
import { testConfig } from '../support/platform';
import { waitFor } from '../support/wait-for';

const ROOT = path.resolve(__dirname, '../..');

describe('worker metrics endpoint', function () {
  this.timeout(90_000);

  it('npm run worker with SVC_WORKER__METRICS_BIND serves temporal_* metrics at /metrics; the setting refuses a value that is not host:port', async () => {
    assert.throws(() => testConfig({ SVC_WORKER__METRICS_BIND: 'http://127.0.0.1:9464' }), /worker\.metrics_bind|host:port/);
    // A free port can be taken by another process between freePort() and the worker's bind (a
    // busy machine runs other suites): start again on a fresh port when that is why it exited.
    let bind = '';
    let child!: ReturnType<typeof spawn>;
    let exited!: Promise<unknown>;
    let out = '';
    for (let attempt = 1; ; attempt++) {
      bind = `127.0.0.1:${await freePort()}`;
      const env = { ...process.env, SVC_WORKER__METRICS_BIND: bind, SVC_TEMPORAL__TASK_QUEUE: `metrics-${randomUUID().slice(0, 8)}`, SVC_LOG__LEVEL: 'silent' };
      child = spawn(process.execPath, ['--import', 'tsx', 'workers/temporal-worker.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      exited = new Promise((resolve) => child.once('exit', resolve));
      out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      const started = await Promise.race([exited.then(() => false), waitFor('metrics listening', async () => (child.exitCode !== null || (await fetch(`http://${bind}/metrics`).catch(() => null)) ? true : null), 60_000, 250).catch(() => false)]);
      if (started || attempt === 3 || !/Address already in use/.test(out)) break;
    }
    try {
      const text = await waitFor('metrics served', async () => {
        if (child.exitCode !== null) throw new Error(`the worker exited ${child.exitCode}: ${out}`);
        const res = await fetch(`http://${bind}/metrics`).catch(() => null);
        const body = res?.ok ? await res.text() : '';
        // Worker metrics carry the task queue it polls; the client's RPC metrics come first.
        return /^temporal_\w+\{[^}]*task_queue="metrics-/m.test(body) ? body : null;
      }, 60_000, 250);
      assert.match(text, /^temporal_request_latency_count\{/m);
      assert.match(text, /^temporal_\w+\{[^}]*task_queue="metrics-/m);
    } finally {
      await stopChildProcess(child, exited)();
    }
  });
});
