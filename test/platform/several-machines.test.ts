// "Several machines, no shared disk": the topology a production team runs, as separate processes
// with separate data directories and nothing shared but the services: one PostgreSQL and one
// Temporal dev server (the test run's), one MinIO, two `npm run worker` and one `npm run api`.
// Reports (scheduled and one-off) are generated, one worker is SIGKILLed while it generates one,
// and every report must complete exactly once and download through the API with the right hash.
// Later features (investigations, evidence, intake files) add their own steps to this test.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/free-port';
import { asUser, http } from '../support/http';
import { freshS3BlobEnv } from '../support/minio';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { testKnex, testTemporal } from '../support/platform';
import { waitFor } from '../support/wait-for';

const ROOT = path.resolve(__dirname, '..', '..');

interface Proc {
  name: string;
  child: ChildProcess;
  dataDir: string;
  output: string;
  /** pid of the node process itself (from its log lines), which is in its Temporal worker identity. */
  pid: number | null;
}

function startNpm(name: string, script: 'api' | 'worker', env: Record<string, string>): Proc {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fip-machine-${name}-`));
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_')));
  // Its own process group, so that the kill reaches npm and the node process under it at once.
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: ROOT,
    env: { ...base, ...env, SVC_DATA_DIR: dataDir, SVC_LOG__LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const proc: Proc = { name, child, dataDir, output: '', pid: null };
  const collect = (d: Buffer) => {
    proc.output = (proc.output + d.toString()).slice(-20_000);
    const m = /"pid":(\d+)/.exec(d.toString());
    if (m && proc.pid === null) proc.pid = Number(m[1]);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  return proc;
}

function killGroup(proc: Proc, signal: NodeJS.Signals): void {
  try {
    process.kill(-proc.child.pid!, signal);
  } catch {
    // already gone
  }
}

async function stopGracefully(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise((r) => proc.child.once('exit', r));
  killGroup(proc, 'SIGTERM');
  const timer = setTimeout(() => killGroup(proc, 'SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('several machines, no shared disk (separate api and worker processes, MinIO blobs)', function () {
  this.timeout(300_000);
  const procs: Proc[] = [];
  let smtp: SmtpSink | null = null;

  after(async () => {
    for (const p of procs) await stopGracefully(p);
    await smtp?.close();
    for (const p of procs) fs.rmSync(p.dataDir, { recursive: true, force: true });
  });

  it('scheduled and one-off reports each complete exactly once, survive a worker killed mid-generation, are e-mailed and download through the API with the right hash', async () => {
    const { env: blobEnv, minio } = await freshS3BlobEnv('fip/prod');
    smtp = await startSmtpSink();
    const queue = `machines-${randomUUID().slice(0, 8)}`;
    const admin = `admin-${randomUUID().slice(0, 8)}@example.org`;
    const port = await freePort();
    const env = {
      ...blobEnv,
      DATABASE_URL: process.env.DATABASE_URL!,
      TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS!,
      TEMPORAL_NAMESPACE: 'default',
      SVC_TEMPORAL__TASK_QUEUE: queue,
      SVC_AUTH__TRUST_PROXY_HEADER: 'true',
      SVC_AUTH__BOOTSTRAP_ADMINS: admin,
      SVC_SMTP__URL: smtp.url,
      PORT: String(port),
    };
    const workers = [startNpm('worker-1', 'worker', env), startNpm('worker-2', 'worker', env)];
    const api = startNpm('api', 'api', env);
    procs.push(...workers, api);
    for (const p of [...workers, api]) {
      const ready = p === api ? 'API listening' : 'worker running';
      await waitFor(`${p.name} started`, async () => p.output.includes(ready) || p.child.exitCode !== null, 120_000, 250);
      assert.equal(p.child.exitCode, null, `${p.name} exited:\n${p.output}`);
      assert.ok(p.pid, `${p.name} logged its pid`);
    }
    assert.match(api.output, new RegExp(`"blobs":"s3://${blobEnv.SVC_BLOBS__URL.slice('s3://'.length)}/`));
    assert.doesNotMatch(api.output + workers.map((w) => w.output).join(''), new RegExp(minio.secretKey), 'the S3 secret never reaches a log');

    const url = `http://127.0.0.1:${port}`;
    const headers = asUser(admin);
    // Two schedules due now, and five one-off reports (PDF: long enough to be killed in the middle).
    const schedules: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await http(`${url}/intelligence/scheduled-reports`, {
        method: 'POST',
        headers,
        json: {
          template: 'wallet-activity', cadence: 'daily', scope: { entity_types: ['wallet'] },
          options: { format: i === 0 ? 'json' : 'csv' }, recipients: ['desk@example.org'], next_run_at: new Date(Date.now() - 1000).toISOString(),
        },
      });
      assert.equal(res.status, 201, res.text);
      schedules.push(res.body.id);
    }
    const tasks: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await http(`${url}/reports/generate`, {
        method: 'POST',
        headers,
        json: { template: 'threat-overview', scope: { entity_types: ['wallet'] }, options: { format: i < 4 ? 'pdf' : 'xlsx', title: `one-off ${i}` } },
      });
      assert.equal(res.status, 202, res.text);
      tasks.push(res.body.task_id);
    }

    // Kill the worker that is running a generation right now (its identity is `<pid>@<host>`).
    const temporal = await testTemporal();
    const victim = await waitFor(
      'a generation in progress on one of the workers',
      async () => {
        for (const id of tasks) {
          const d = await temporal.workflow.getHandle(id).describe();
          for (const a of d.raw.pendingActivities ?? []) {
            if (a.activityType?.name !== 'generateOneOffReport' || Number(a.state) !== 2 /* STARTED */) continue;
            const worker = workers.find((w) => a.lastWorkerIdentity?.startsWith(`${w.pid}@`));
            if (worker) return { worker, taskId: id };
          }
        }
        return null;
      },
      90_000,
      50,
    );
    const exited = new Promise((r) => victim.worker.child.once('exit', r));
    killGroup(victim.worker, 'SIGKILL');
    await exited;
    const survivor = workers.find((w) => w !== victim.worker)!;

    // Every one-off task completes, and each schedule produces its report.
    for (const id of tasks) {
      await waitFor(`task ${id} completed`, async () => {
        const res = await http(`${url}/tasks/${id}`, { headers });
        assert.notEqual(res.body.status, 'failed', res.text);
        return res.body.status === 'completed';
      }, 120_000, 500);
    }
    for (const id of schedules) {
      await waitFor(`report of schedule ${id}`, async () => (await testKnex()('generated_reports').where({ schedule_id: id })).length > 0, 120_000, 500);
    }
    assert.equal(survivor.child.exitCode, null, `the other worker kept running:\n${survivor.output}`);

    // The killed generation really was retried on the other worker (attempt 2 or more).
    const history = await temporal.workflow.getHandle(victim.taskId).fetchHistory();
    const attempts = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes).map((e) => Number(e.activityTaskStartedEventAttributes!.attempt));
    assert.ok(Math.max(...attempts) >= 2, `the killed generation was retried (attempts ${attempts.join(', ')})`);

    // Exactly once, and each downloads through the API with the hash it was stored with.
    const rows = [
      ...(await testKnex()('generated_reports').whereIn('task_id', tasks)),
      ...(await testKnex()('generated_reports').whereIn('schedule_id', schedules)),
    ];
    assert.equal(rows.length, tasks.length + schedules.length);
    assert.deepEqual(new Set(rows.map((r) => r.task_id ?? r.schedule_id)).size, tasks.length + schedules.length);
    for (const row of rows) {
      const res = await fetch(`${url}/reports/generated/${row.id}/download`, { headers });
      assert.equal(res.status, 200);
      const bytes = Buffer.from(await res.arrayBuffer());
      assert.equal(createHash('sha256').update(bytes).digest('hex'), row.sha256);
      assert.equal(res.headers.get('x-content-sha256'), row.sha256);
      assert.equal(bytes.length, Number(row.size_bytes));
    }

    // The scheduled reports were e-mailed (the worker streamed the attachment from S3), intact.
    for (const row of rows.filter((r) => r.schedule_id)) {
      const mail = await smtp.waitFor((m) => (m.text ?? '').includes(row.id), 60_000);
      assert.equal(mail.attachments.length, 1);
      assert.equal(createHash('sha256').update(mail.attachments[0].content).digest('hex'), row.sha256);
    }

    // Nothing was written to any machine's own disk: the blobs are in MinIO only.
    for (const p of procs) assert.deepEqual(filesUnder(path.join(p.dataDir, 'blobs')), [], `${p.name} stored blobs locally`);
  });
});
