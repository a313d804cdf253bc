// Scheduled reports end to end, against the real API, PostgreSQL, Temporal and a local SMTP server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { AppDeps } from '../../api/app-deps';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testKnex, testTemporal } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { waitFor } from '../support/wait-for';
import { runCli } from '../support/run-cli';

const ROOT = path.resolve(__dirname, '..', '..');

describe('scheduled reports', function () {
  this.timeout(120_000);
  const queue = `reports-${randomUUID().slice(0, 8)}`;
  let url: string;
  let deps: AppDeps;
  let admin: Record<string, string>;
  let adminEmail: string;
  let analyst: Record<string, string>;
  let smtp: SmtpSink;

  const env = () => ({ SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SMTP__URL: smtp.url });
  const schedule = (over: Record<string, unknown> = {}) => ({
    template: 'wallet-activity',
    cadence: 'daily',
    scope: { entity_types: ['wallet'] },
    options: { format: 'json' },
    recipients: ['ops@example.org'],
    ...over,
  });
  const reportsOf = (scheduleId: string) => testKnex()('generated_reports').where({ schedule_id: scheduleId });

  before(async () => {
    smtp = await startSmtpSink();
    const users = await usersForEveryRole();
    adminEmail = users.admin;
    admin = asUser(users.admin);
    analyst = asUser(users.analyst);
    await startTestWorker(queue, env());
    const api = await startTestApi(env());
    url = api.url;
    deps = api.deps;
  });
  after(async () => smtp.close());

  it('rejects invalid schedules with field paths and stores nothing', async () => {
    // Counted over this suite's own admin only, so other suites' schedules cannot move the numbers.
    const ownSchedules = async () => Number((await testKnex()('report_schedules').where({ created_by: adminEmail }).count({ n: '*' }))[0].n);
    const before = await ownSchedules();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [schedule({ cadence: 'hourly' }), ['body.cadence']],
      [schedule({ recipients: [] }), ['body.recipients']],
      [schedule({ recipients: Array.from({ length: 51 }, (_, i) => `r${i}@example.org`) }), ['body.recipients']],
      [schedule({ recipients: ['ok@example.org', 'not-an-address'] }), ['body.recipients.1']],
      [schedule({ scope: { entity_types: ['spaceship'] } }), ['body.scope.entity_types.0']],
      [schedule({ scope: {} }), ['body.scope.entity_types']],
      [schedule({ options: { format: 'docx' } }), ['body.options.format']],
      [schedule({ template: 'nope' }), ['body.template']],
      [schedule({ template: 'intake-digest', scope: { entity_types: ['intake'], networks: ['Tron'] } }), ['body.scope.networks']],
      [schedule({ next_run_at: 'tomorrow' }), ['body.next_run_at']],
      [schedule({ surprise: 1 }), ['body']],
    ];
    for (const [body, paths] of cases) {
      const res = await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: admin, json: body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation_failed');
      const got = res.body.error.details.map((d: { path: string }) => d.path);
      for (const p of paths) assert.ok(got.includes(p), `${p} not in ${JSON.stringify(got)} for ${JSON.stringify(body)}`);
    }
    assert.equal(await ownSchedules(), before);
  });

  it('only admins create; analysts list', async () => {
    assert.equal((await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: analyst, json: schedule() })).status, 403);
    assert.equal((await http(`${url}/intelligence/scheduled-reports`, { headers: analyst })).status, 200);
  });

  it('creates a schedule with its workflow, first run one period later by default', async () => {
    const t0 = Date.now();
    const res = await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: admin, json: schedule({ cadence: 'weekly' }) });
    assert.equal(res.status, 201);
    const s = res.body;
    assert.match(s.id, /^[0-9a-f-]{36}$/);
    assert.equal(s.workflow_id, `report-schedule-${s.id}`);
    assert.equal(s.is_active, true);
    assert.equal(s.last_run_at, null);
    const next = Date.parse(s.next_run_at);
    assert.ok(Math.abs(next - (t0 + 7 * 86_400_000)) < 10_000, s.next_run_at);
    const d = await (await testTemporal()).workflow.getHandle(s.workflow_id).describe();
    assert.equal(d.status.name, 'RUNNING');
  });

  it('generates and e-mails a due report within seconds, then advances next_run_at by the cadence', async () => {
    const due = new Date(Date.now() + 1500);
    const res = await http(`${url}/intelligence/scheduled-reports`, {
      method: 'POST', headers: admin, json: schedule({ next_run_at: due.toISOString(), recipients: ['alice@example.org', 'bob@example.org'] }),
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const id = res.body.id;
    const report = await waitFor('the report row', async () => (await reportsOf(id))[0], 15_000);
    const lagMs = new Date(report.created_at).getTime() - due.getTime();
    assert.ok(lagMs >= 0 && lagMs < 5000, `lag ${lagMs} ms`);
    const mail = await smtp.waitFor((m) => (m.attachments ?? []).some((a) => a.filename?.startsWith('wallet-activity-')));
    const attachment = mail.attachments.find((a) => a.filename?.endsWith('.json'))!;
    assert.equal(createHash('sha256').update(attachment.content).digest('hex'), report.sha256);
    assert.deepEqual(JSON.parse(attachment.content.toString()).sections.map((x: { entity_type: string }) => x.entity_type), ['wallet']);
    const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a!.value.map((v) => v.address)).sort();
    assert.deepEqual(to, ['alice@example.org', 'bob@example.org']);

    const s = await waitFor('advance', async () => {
      const row = await testKnex()('report_schedules').where({ id }).first();
      return row.last_run_at ? row : null;
    });
    assert.equal(new Date(s.last_run_at).toISOString(), due.toISOString());
    assert.equal(new Date(s.next_run_at).toISOString(), new Date(due.getTime() + 86_400_000).toISOString());
    const delivery = await waitFor('delivery', async () => testKnex()('report_deliveries').where({ report_id: report.id, status: 'sent' }).first());
    assert.equal(delivery.attempts, 1);

    const list = await http(`${url}/reports/generated?schedule_id=${id}`, { headers: analyst });
    assert.equal(list.body.items.length, 1);
    assert.equal(list.body.items[0].delivery_status, 'sent');
    const dl = await fetch(`${url}${list.body.items[0].download_path}`, { headers: analyst });
    assert.equal(dl.status, 200);
    assert.match(dl.headers.get('content-disposition') ?? '', /attachment; filename="wallet-activity-\d{8}-\d{4}Z\.json"/);
    const bytes = Buffer.from(await dl.arrayBuffer());
    assert.equal(createHash('sha256').update(bytes).digest('hex'), report.sha256);
  });

  it('a double trigger (workflow + CLI job + direct retries at the same moment) gives one report', async () => {
    const due = new Date(Date.now() + 2000);
    const res = await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: admin, json: schedule({ next_run_at: due.toISOString() }) });
    const id = res.body.id;
    await new Promise((r) => setTimeout(r, due.getTime() - Date.now()));
    const { createActivities } = await import('../../activities');
    const acts = createActivities({ ...deps, resources: (await import('../../activities')).createActivityResources(deps.config) });
    const [cli, a, b] = await Promise.all([
      runCli(['jobs', 'scheduled-reports', '--json'], { env: { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_SMTP__URL: smtp.url } }),
      acts.generateScheduledReport({ scheduleId: id, dueAt: due.toISOString() }),
      acts.generateScheduledReport({ scheduleId: id, dueAt: due.toISOString() }),
    ]);
    assert.equal(cli.code, 0, cli.stderr);
    await waitFor('advance', async () => (await testKnex()('report_schedules').where({ id }).first()).last_run_at);
    await new Promise((r) => setTimeout(r, 1000));
    const rows = await reportsOf(id);
    assert.equal(rows.length, 1);
    for (const outcome of [a, b]) {
      if ('reportId' in outcome) assert.equal(outcome.reportId, rows[0].id);
    }
    const mails = smtp.messages.filter((m) => m.text?.includes(rows[0].id));
    assert.equal(mails.length, 1, 'one e-mail for one report');
  });

  it('a worker killed in the middle of generation gives exactly one report after another takes over', async function () {
    this.timeout(90_000);
    const killQueue = `${queue}-kill`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/report-worker-process.ts'], {
      cwd: ROOT,
      env: { ...process.env, SVC_TEMPORAL__TASK_QUEUE: killQueue, SVC_LOG__LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    await waitFor('child worker ready', async () => out.includes('WORKER_READY') || child.exitCode !== null, 60_000);
    assert.equal(child.exitCode, null, out);
    const api = await startTestApi({ ...env(), SVC_TEMPORAL__TASK_QUEUE: killQueue });
    const res = await http(`${api.url}/intelligence/scheduled-reports`, {
      method: 'POST', headers: admin, json: schedule({ next_run_at: new Date(Date.now() - 1000).toISOString() }),
    });
    const id = res.body.id;
    await waitFor('generation under way in the child', async () => out.includes('STORE_PENDING'), 30_000);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    assert.equal((await reportsOf(id)).length, 0, 'nothing stored by the killed worker');
    await startTestWorker(killQueue, env());
    const row = await waitFor('report after takeover', async () => (await reportsOf(id))[0], 45_000);
    await waitFor('advance', async () => (await testKnex()('report_schedules').where({ id }).first()).last_run_at, 10_000);
    assert.equal((await reportsOf(id)).length, 1);
    assert.ok(row.id);
  });

  it('deactivation cancels the workflow and a run in progress; nothing is generated after; the record stays listed', async () => {
    const holdQueue = `${queue}-hold2`;
    let entered = false;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { startWorker } = await import('../../app/platform-runtime');
    const { createActivityResources } = await import('../../activities');
    const holdDeps = { ...deps, config: { ...deps.config, temporal: { ...deps.config.temporal, task_queue: holdQueue } } };
    const worker = await startWorker(holdDeps.config, process.env.TEMPORAL_ADDRESS!, {
      ...holdDeps,
      resources: createActivityResources(holdDeps.config),
      hooks: { beforeReportStore: async () => { entered = true; await gate; } },
    }, holdQueue);
    try {
      const api = await startTestApi({ ...env(), SVC_TEMPORAL__TASK_QUEUE: holdQueue });
      const res = await http(`${api.url}/intelligence/scheduled-reports`, {
        method: 'POST', headers: admin, json: schedule({ next_run_at: new Date(Date.now() - 1000).toISOString() }),
      });
      const s = res.body;
      await waitFor('generation in progress', async () => entered, 20_000);
      const deact = await http(`${api.url}/intelligence/scheduled-reports/${s.id}/deactivate`, { method: 'PUT', headers: admin });
      assert.equal(deact.status, 200);
      assert.equal(deact.body.is_active, false);
      assert.equal(deact.body.deactivated_by, admin['X-Goog-Authenticated-User-Email'].split(':')[1]);
      assert.ok(deact.body.deactivated_at);
      release();
      const handle = (await testTemporal()).workflow.getHandle(s.workflow_id);
      await waitFor('workflow cancelled', async () => (await handle.describe()).status.name === 'CANCELLED', 20_000);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await reportsOf(s.id)).length, 0, 'the run in progress stored nothing');
      const again = await http(`${api.url}/intelligence/scheduled-reports/${s.id}/deactivate`, { method: 'PUT', headers: admin });
      assert.equal(again.status, 200);
      assert.equal(again.body.deactivated_at, deact.body.deactivated_at, 'deactivating again changes nothing');
      const listed = await http(`${api.url}/intelligence/scheduled-reports?is_active=false&limit=500`, { headers: analyst });
      assert.ok(listed.body.items.some((x: { id: string }) => x.id === s.id));
      // The job never restarts a deactivated schedule.
      const job = await runCli(['jobs', 'scheduled-reports', '--json'], { env: { SVC_TEMPORAL__TASK_QUEUE: holdQueue } });
      assert.equal(job.code, 0, job.stderr);
      assert.equal((await handle.describe()).status.name, 'CANCELLED');
      assert.equal((await reportsOf(s.id)).length, 0);
      assert.equal((await http(`${api.url}/intelligence/scheduled-reports/${randomUUID()}/deactivate`, { method: 'PUT', headers: admin })).status, 404);
    } finally {
      release();
      await worker.shutdown();
    }
  });

  it('the job restarts a missing workflow (e.g. after a database restore) and --dry-run only lists', async () => {
    const res = await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: admin, json: schedule({ next_run_at: new Date(Date.now() + 3_600_000).toISOString() }) });
    const s = res.body;
    const client = await testTemporal();
    await client.workflow.getHandle(s.workflow_id).terminate('simulated loss');
    const dry = await runCli(['jobs', 'scheduled-reports', '--dry-run', '--json'], { env: { SVC_TEMPORAL__TASK_QUEUE: queue } });
    assert.equal(dry.code, 0, dry.stderr);
    assert.ok(JSON.parse(dry.stdout).workflows.would_start.includes(s.id));
    assert.equal((await client.workflow.getHandle(s.workflow_id).describe()).status.name, 'TERMINATED');
    const real = await runCli(['jobs', 'scheduled-reports'], { env: { SVC_TEMPORAL__TASK_QUEUE: queue } });
    assert.equal(real.code, 0, real.stderr);
    assert.match(real.stdout, new RegExp(`started workflow report-schedule-${s.id}`));
    assert.equal((await client.workflow.getHandle(s.workflow_id).describe()).status.name, 'RUNNING');
  });

  it('paginates the schedule list with a stable cursor: newest first, no duplicates, nothing skipped', async () => {
    // Five schedules of its own, created last, so they are the newest five whatever other suites stored.
    const own: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await http(`${url}/intelligence/scheduled-reports`, { method: 'POST', headers: admin, json: schedule({ next_run_at: '2099-01-01T00:00:00Z' }) });
      assert.equal(res.status, 201, res.text);
      own.unshift(res.body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 3; pages++) {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const page = await http(`${url}/intelligence/scheduled-reports?limit=2${q}`, { headers: analyst });
      assert.equal(page.status, 200);
      assert.ok(page.body.items.length <= 2);
      seen.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.next_cursor;
    }
    assert.equal(new Set(seen).size, seen.length, 'no duplicates across pages');
    assert.deepEqual(seen.slice(0, 5), own, 'the five newest, in order, across three pages of two');
    for (const id of own) await http(`${url}/intelligence/scheduled-reports/${id}/deactivate`, { method: 'PUT', headers: admin });
    assert.equal((await http(`${url}/intelligence/scheduled-reports?cursor=garbage`, { headers: analyst })).status, 400);
    assert.equal((await http(`${url}/intelligence/scheduled-reports?limit=501`, { headers: analyst })).status, 400);
  });

  it('lists the shipped templates with their scope keys', async () => {
    const res = await http(`${url}/intelligence/report-templates`, { headers: analyst });
    assert.equal(res.status, 200);
    const wallet = res.body.items.find((t: { name: string }) => t.name === 'wallet-activity');
    assert.ok(wallet.scope_keys.some((k: { key: string }) => k.key === 'networks'));
  });

  it('creates the managed scheduler: a Temporal Schedule running the job every N minutes', async () => {
    const { startBackgroundServices } = await import('../../app/background-services');
    const { testDeps } = await import('../support/platform');
    const d = await testDeps({ SVC_TEMPORAL__TASK_QUEUE: queue, SVC_ANALYTICS__SCHEDULED_REPORT_CHECK_INTERVAL_MINUTES: '7' });
    await startBackgroundServices(d);
    await startBackgroundServices(d); // idempotent
    const desc = await (await testTemporal()).schedule.getHandle('scheduled-reports-job').describe();
    assert.equal(desc.spec.intervals?.[0]?.every, 7 * 60_000);
    assert.equal(desc.action.type === 'startWorkflow' && desc.action.workflowType, 'scheduledReportsJobWorkflow');
  });
});
