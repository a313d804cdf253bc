// The report pipeline under load and races: rendering outside the transaction
// with a small shared pool, one e-mail per report when deliveries race, schedules with invalid
// stored options, workflow start after commit, the report period, `sources`, the row cap and the
// Idempotency-Key of POST /reports/generate. Real PostgreSQL, Temporal, API and SMTP sink.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { createActivities, createActivityResources, type ActivityResources } from '../../activities';
import { createKnex } from '../../db/connection';
import { insertReportSchedule } from '../../db/repositories/reports/report-schedule-repository';
import { loadReportSections } from '../../db/repositories/reports/report-data-repository';
import { buildOpenApiDocument } from '../../api/openapi';
import { allRoutes } from '../../api/route-table';
import { createLogger } from '../../infra/logger';
import { createSchedule, ScheduleWorkflowStartError } from '../../services/reports/report-schedule-service';
import { startApiServer, startWorker, workerConcurrency } from '../../app/platform-runtime';
import { asUser, http } from '../support/http';
import { usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker, testConfig, testDeps, testKnex, testTemporal } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { waitFor } from '../support/wait-for';

describe('report pipeline', function () {
  this.timeout(120_000);
  const queue = `pipeline-${randomUUID().slice(0, 8)}`;
  let url: string;
  let admin: Record<string, string>;
  let analyst: Record<string, string>;
  let smtp: SmtpSink;
  const env = () => ({ SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SMTP__URL: smtp.url });
  const resources: ActivityResources[] = [];

  /** Activities called directly (as the CLI job does), optionally with test hooks. */
  async function directActivities(hooks: Parameters<typeof createActivities>[0]['hooks'] = {}, env: Record<string, string> = {}) {
    const deps = await testDeps({ SVC_SMTP__URL: smtp.url, ...env });
    const res = createActivityResources(deps.config);
    resources.push(res);
    return createActivities({ ...deps, resources: res, hooks });
  }

  const readBlob = async (key: string) => {
    const config = testConfig();
    return fs.promises.readFile(path.join(config.data_dir, 'blobs', key));
  };

  async function insertWallets(network: string, rows: Array<{ address: string; found_at: string; source?: string }>) {
    await testKnex()('wallets').insert(
      rows.map((r) => ({
        scan_id: `scan-${randomUUID()}`,
        address: r.address,
        token: 'USDT',
        network,
        confidence: 'high',
        source: r.source ?? 'text',
        found_at: new Date(r.found_at),
      })),
    );
  }

  async function insertSchedule(over: Partial<Parameters<typeof insertReportSchedule>[1]>) {
    const id = randomUUID();
    return insertReportSchedule(testKnex(), {
      id,
      template: 'wallet-activity',
      cadence: 'monthly',
      scope: { entity_types: ['wallet'] },
      options: { format: 'json' },
      recipients: [],
      next_run_at: new Date('2026-03-01T00:00:00.000Z'),
      anchor_day: 1,
      workflow_id: `report-schedule-${id}`,
      created_by: 'pipeline-test',
      ...over,
    });
  }

  before(async () => {
    smtp = await startSmtpSink();
    const users = await usersForEveryRole();
    admin = asUser(users.admin);
    analyst = asUser(users.analyst);
    await startTestWorker(queue, env());
    url = (await startTestApi(env())).url;
  });
  // Schedules inserted directly are past due: keep the reconciliation job of other suites off them.
  afterEach(async () => {
    await testKnex()('report_schedules').where({ created_by: 'pipeline-test', is_active: true }).update({ is_active: false });
  });
  // Rows this file corrupts on purpose (a stored scope or template the API would refuse): deleted at
  // the end, so the API's answers to other files (the Schemathesis run checks every list against its
  // schema) only hold what the API can write.
  const corrupted: string[] = [];
  after(async () => {
    if (corrupted.length) await testKnex()('report_schedules').whereIn('id', corrupted).delete();
    for (const r of resources) await r.close();
    await smtp.close();
  });

  describe('generation outside the transaction, with a small shared pool', () => {
    it('worker slots default to half the pool for activities and a quarter for local activities; settings override', () => {
      assert.deepEqual(workerConcurrency(testConfig({ SVC_POSTGRES__POOL_MAX: '10' })), {
        maxConcurrentActivityTaskExecutions: 5,
        maxConcurrentLocalActivityExecutions: 2,
      });
      assert.deepEqual(workerConcurrency(testConfig({ SVC_POSTGRES__POOL_MAX: '1' })), {
        maxConcurrentActivityTaskExecutions: 1,
        maxConcurrentLocalActivityExecutions: 1,
      });
      assert.deepEqual(
        workerConcurrency(testConfig({ SVC_POSTGRES__POOL_MAX: '2', SVC_WORKER__MAX_CONCURRENT_ACTIVITIES: '8', SVC_WORKER__MAX_CONCURRENT_LOCAL_ACTIVITIES: '3', SVC_WORKER__MAX_CONCURRENT_WORKFLOW_TASKS: '4' })),
        { maxConcurrentActivityTaskExecutions: 8, maxConcurrentLocalActivityExecutions: 3, maxConcurrentWorkflowTaskExecutions: 4 },
      );
    });

    it('8 one-off generations at once on a pool of 2 all render together, the API answers meanwhile, and all complete', async function () {
      this.timeout(90_000);
      const q = `${queue}-pool2`;
      const config = testConfig({ SVC_TEMPORAL__TASK_QUEUE: q, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_POSTGRES__POOL_MAX: '2', SVC_WORKER__MAX_CONCURRENT_ACTIVITIES: '8' });
      const knex = createKnex(process.env.DATABASE_URL!, config.postgres.pool_max);
      const deps = { config, knex, temporal: await testTemporal(), log: createLogger('silent', 'pool2') };
      let entered = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      // Every generation waits here, after rendering and before storing, until all 8 have arrived:
      // only possible when none of them holds a pool connection while it renders.
      const worker = await startWorker(config, process.env.TEMPORAL_ADDRESS!, { ...deps, hooks: { beforeReportStore: async () => { entered++; await gate; } } }, q);
      const api = await startApiServer({ ...deps, blobs: worker.resources.blobs }, 0, '127.0.0.1');
      try {
        const started = await Promise.all(
          Array.from({ length: 8 }, () =>
            http(`${api.url}/reports/generate`, { method: 'POST', headers: analyst, json: { template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'json' } } }),
          ),
        );
        for (const s of started) assert.equal(s.status, 202, JSON.stringify(s.body));
        await waitFor('all 8 generations rendered at once', async () => entered === 8, 45_000);
        const t0 = Date.now();
        const listed = await http(`${api.url}/reports/generated?limit=1`, { headers: analyst });
        const ms = Date.now() - t0;
        assert.equal(listed.status, 200);
        assert.ok(ms < 3000, `the API answered a database-backed request in ${ms} ms while 8 generations ran`);
        release();
        const client = await testTemporal();
        const results = await Promise.all(started.map((s) => client.workflow.getHandle(s.body.task_id).result()));
        assert.equal(new Set(results.map((r) => r.report_id)).size, 8);
        const rows = await testKnex()('generated_reports').whereIn('task_id', started.map((s) => s.body.task_id));
        assert.equal(rows.length, 8);
      } finally {
        release();
        await worker.shutdown();
        await api.close();
        await knex.destroy();
      }
    });
  });

  describe('delivery', () => {
    it('two racing deliveries of one report send one e-mail: the claimer sends, the other answers "sending"', async () => {
      const held = { entered: false, release: (() => undefined) as () => void };
      const gate = new Promise<void>((r) => (held.release = r));
      const holding = await directActivities({ afterDeliveryClaim: async () => { held.entered = true; await gate; } });
      const free = await directActivities();
      const schedule = await insertSchedule({ scope: { entity_types: ['wallet'], networks: [`none-${randomUUID().slice(0, 8)}`] } });
      const generated = await free.generateScheduledReport({ scheduleId: schedule.id, dueAt: schedule.next_run_at.toISOString() });
      assert.equal(generated.status, 'generated');
      const reportId = (generated as { reportId: string }).reportId;
      const recipients = ['race@example.org'];
      const mailsOf = () => smtp.messages.filter((m) => m.text?.includes(reportId));

      const first = holding.deliverReport({ reportId, recipients });
      await waitFor('the first delivery holds its claim', async () => held.entered, 10_000);
      const second = await free.deliverReport({ reportId, recipients });
      assert.equal(second.status, 'sending', 'the loser sends nothing and answers the current status');
      assert.equal(mailsOf().length, 0);
      held.release();
      assert.equal((await first).status, 'sent');
      await smtp.waitFor((m) => m.text?.includes(reportId) ?? false);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(mailsOf().length, 1, 'exactly one e-mail');
      const row = await testKnex()('report_deliveries').where({ report_id: reportId }).first();
      assert.equal(row.status, 'sent');
      assert.equal(row.attempts, 1);
      assert.equal(row.claim_token, null);
      assert.equal((await free.deliverReport({ reportId, recipients })).status, 'sent', 'a later delivery finds it sent');
      assert.equal(mailsOf().length, 1);
    });

    it('a claim whose lease ran out (dead sender) is taken over and sent once', async () => {
      const acts = await directActivities();
      const schedule = await insertSchedule({ scope: { entity_types: ['wallet'], networks: [`none-${randomUUID().slice(0, 8)}`] } });
      const generated = (await acts.generateScheduledReport({ scheduleId: schedule.id, dueAt: schedule.next_run_at.toISOString() })) as { reportId: string };
      await testKnex()('report_deliveries').insert({
        report_id: generated.reportId, recipients: ['lease@example.org'], status: 'sending', claim_token: randomUUID(), claim_owner: 'dead-worker',
        claimed_at: new Date(Date.now() - 3_600_000),
      });
      assert.equal((await acts.deliverReport({ reportId: generated.reportId, recipients: ['lease@example.org'] })).status, 'sent');
      await smtp.waitFor((m) => m.text?.includes(generated.reportId) ?? false);
    });
  });

  describe('schedules', () => {
    it('invalid stored options: last_error, no retries, the schedule moves on and waits; once fixed the next due time is generated', async () => {
      const due = new Date(Date.now() + 3000);
      const res = await http(`${url}/intelligence/scheduled-reports`, {
        method: 'POST', headers: admin,
        json: { template: 'wallet-activity', cadence: 'daily', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: ['x@example.org'], next_run_at: due.toISOString() },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.last_error, null);
      const id = res.body.id;
      await testKnex()('report_schedules').where({ id }).update({ template: 'no-such-template' });
      const row = await waitFor('last_error recorded', async () => {
        const r = await testKnex()('report_schedules').where({ id }).first();
        return r.last_error ? r : null;
      }, 30_000);
      assert.match(row.last_error, /template/);
      const next = new Date(due.getTime() + 86_400_000);
      assert.equal(row.next_run_at.toISOString(), next.toISOString(), 'moved on to the next due time');
      assert.equal(row.last_run_at, null, 'last_run_at stays the last completed run');
      assert.equal((await testKnex()('generated_reports').where({ schedule_id: id })).length, 0);
      const task = await waitFor('the workflow waits for the next due time', async () => {
        const t = await http(`${url}/tasks/${res.body.workflow_id}`, { headers: analyst });
        return t.body.progress?.stage === 'waiting' && t.body.progress.detail?.next_run_at === next.toISOString() ? t.body : null;
      }, 20_000);
      assert.equal(task.status, 'running');
      assert.equal((await (await testTemporal()).workflow.getHandle(res.body.workflow_id).describe()).status.name, 'RUNNING');
      const listed = await http(`${url}/intelligence/scheduled-reports?limit=500`, { headers: analyst });
      assert.match(listed.body.items.find((x: { id: string }) => x.id === id).last_error, /template/, 'last_error is in the schedule JSON');

      await testKnex()('report_schedules').where({ id }).update({ template: 'wallet-activity' });
      const acts = await directActivities();
      const outcome = await acts.generateScheduledReport({ scheduleId: id, dueAt: next.toISOString() });
      assert.equal(outcome.status, 'generated');
      const fixed = await testKnex()('report_schedules').where({ id }).first();
      assert.equal(fixed.last_error, null, 'cleared by the completed run');
      assert.equal(fixed.last_run_at.toISOString(), next.toISOString());
    });

    it('a bad stored scope fails the run without retrying: one attempt, InvalidScheduleOptions', async () => {
      const acts = await directActivities();
      const schedule = await insertSchedule({ scope: { entity_types: ['wallet'], colour: 'red' } });
      corrupted.push(schedule.id);
      await assert.rejects(acts.generateScheduledReport({ scheduleId: schedule.id, dueAt: schedule.next_run_at.toISOString() }), (err: Error & { type?: string; nonRetryable?: boolean }) => {
        assert.equal(err.type, 'InvalidScheduleOptions');
        assert.equal(err.nonRetryable, true);
        assert.match(err.message, /scope/);
        return true;
      });
      const row = await testKnex()('report_schedules').where({ id: schedule.id }).first();
      assert.match(row.last_error, /scope/);
      assert.equal(row.next_run_at.toISOString(), '2026-04-01T00:00:00.000Z');
    });

    it('the job records a due run with invalid stored options as invalid-options and carries on', async () => {
      const acts = await directActivities();
      const bad = await insertSchedule({ template: 'gone-template' });
      corrupted.push(bad.id);
      const good = await insertSchedule({ scope: { entity_types: ['wallet'], networks: [`none-${randomUUID().slice(0, 8)}`] } });
      const { runScheduledReportsJob } = await import('../../services/reports/scheduled-reports-job');
      // A task queue without workers: the workflows the job starts never run, so only the job acts.
      const result = await runScheduledReportsJob(
        { knex: testKnex(), temporal: await testTemporal(), taskQueue: `${queue}-noworker`, log: createLogger('silent'), steps: acts },
        { dryRun: false, now: new Date('2026-03-02T00:00:00.000Z') },
      );
      try {
        assert.equal(result.due.find((d) => d.schedule_id === bad.id)?.outcome, 'invalid-options');
        assert.equal(result.due.find((d) => d.schedule_id === good.id)?.outcome, 'generated', 'the job carries on with the next schedule');
        const row = await testKnex()('report_schedules').where({ id: bad.id }).first();
        assert.match(row.last_error, /template/);
        assert.equal(row.next_run_at.toISOString(), '2026-04-01T00:00:00.000Z');
      } finally {
        const client = await testTemporal();
        for (const s of [bad, good]) await client.workflow.getHandle(s.workflow_id).terminate('test cleanup').catch(() => undefined);
      }
    });

    it('createSchedule starts the workflow only after the row is committed (visible to other connections)', async () => {
      const real = await testTemporal();
      let visibleAtStart: unknown = 'not started';
      const temporal = {
        workflow: {
          start: async (name: string, opts: { args: Array<{ scheduleId: string }> }) => {
            visibleAtStart = await createKnexProbe(opts.args[0].scheduleId);
            return real.workflow.start(name, opts as never);
          },
        },
      } as unknown as Client;
      const row = await createSchedule(
        { knex: testKnex(), temporal, taskQueue: queue },
        { template: 'wallet-activity', cadence: 'weekly', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: ['a@example.org'] },
        'pipeline-test',
      );
      assert.equal(visibleAtStart, row.id);
      assert.equal((await real.workflow.getHandle(row.workflow_id).describe()).status.name, 'RUNNING');
    });

    it('createSchedule keeps nothing when Temporal refuses the workflow', async () => {
      const temporal = { workflow: { start: async () => { throw new Error('temporal down'); } } } as unknown as Client;
      const before = Number((await testKnex()('report_schedules').count({ n: '*' }))[0].n);
      await assert.rejects(
        createSchedule({ knex: testKnex(), temporal, taskQueue: queue }, { template: 'wallet-activity', cadence: 'daily', scope: { entity_types: ['wallet'] }, options: { format: 'json' }, recipients: ['a@example.org'] }, 'pipeline-test'),
        ScheduleWorkflowStartError,
      );
      assert.equal(Number((await testKnex()('report_schedules').count({ n: '*' }))[0].n), before);
    });
  });

  describe('report content', () => {
    it('a monthly report covers [previous due time, due time): the first from one month back, the next from last_run_at', async () => {
      const network = `Period-${randomUUID().slice(0, 8)}`;
      await insertWallets(network, [
        { address: 'A-jan30', found_at: '2026-01-30T12:00:00.000Z' },
        { address: 'B-feb01', found_at: '2026-02-01T00:00:00.000Z' },
        { address: 'C-feb28', found_at: '2026-02-28T23:00:00.000Z' },
        { address: 'D-mar01', found_at: '2026-03-01T00:00:00.000Z' },
        { address: 'E-mar31', found_at: '2026-03-31T23:59:59.000Z' },
      ]);
      const schedule = await insertSchedule({ scope: { entity_types: ['wallet'], networks: [network] } });
      const acts = await directActivities();
      const addressesOf = async (reportId: string) => {
        const report = await testKnex()('generated_reports').where({ id: reportId }).first();
        const doc = JSON.parse((await readBlob(report.blob_key)).toString());
        return { rows: doc.sections[0].rows.map((r: { address: string }) => r.address).sort(), scope: doc.scope_summary as string };
      };
      const first = (await acts.generateScheduledReport({ scheduleId: schedule.id, dueAt: '2026-03-01T00:00:00.000Z' })) as { status: string; reportId: string };
      assert.equal(first.status, 'generated');
      const a = await addressesOf(first.reportId);
      assert.deepEqual(a.rows, ['B-feb01', 'C-feb28'], 'Feb 1 (previous due time) up to, not including, Mar 1');
      assert.match(a.scope, /from 2026-02-01T00:00:00.000Z/);
      const second = (await acts.generateScheduledReport({ scheduleId: schedule.id, dueAt: '2026-04-01T00:00:00.000Z' })) as { status: string; reportId: string };
      assert.equal(second.status, 'generated');
      assert.deepEqual((await addressesOf(second.reportId)).rows, ['D-mar01', 'E-mar31']);
    });

    it('scope.sources filters wallets by source: exact values, and a value ending in ":" as a prefix', async () => {
      const network = `Sources-${randomUUID().slice(0, 8)}`;
      await insertWallets(network, [
        { address: 'w-attr-clip', found_at: '2026-02-10T00:00:00.000Z', source: 'attr:data-clipboard-text' },
        { address: 'w-attr-href', found_at: '2026-02-10T00:00:00.000Z', source: 'attr:href' },
        { address: 'w-text', found_at: '2026-02-10T00:00:00.000Z', source: 'text' },
        { address: 'w-uri', found_at: '2026-02-10T00:00:00.000Z', source: 'uri:bitcoin' },
        { address: 'w-script', found_at: '2026-02-10T00:00:00.000Z', source: 'script' },
      ]);
      const load = async (sources: string[] | undefined) =>
        (await loadReportSections(testKnex(), ['wallet'], { since: null, until: new Date('2026-03-01T00:00:00Z'), networks: [network], sources }))[0].rows
          .map((r) => r.address)
          .sort();
      assert.deepEqual(await load(['attr:', 'script']), ['w-attr-clip', 'w-attr-href', 'w-script']);
      assert.deepEqual(await load(['attr:href']), ['w-attr-href']);
      assert.deepEqual(await load(['attr']), [], 'no colon, no prefix');
      assert.deepEqual(await load(['%']), [], 'LIKE wildcards are literal');
      assert.equal((await load(undefined)).length, 5);
      const ok = await http(`${url}/intelligence/scheduled-reports`, {
        method: 'POST', headers: admin,
        json: { template: 'wallet-activity', cadence: 'weekly', scope: { entity_types: ['wallet'], sources: ['attr:'] }, options: { format: 'json' }, recipients: ['a@example.org'] },
      });
      assert.equal(ok.status, 201);
      const refused = await http(`${url}/intelligence/scheduled-reports`, {
        method: 'POST', headers: admin,
        json: { template: 'intake-digest', cadence: 'weekly', scope: { entity_types: ['intake'], sources: ['web'] }, options: { format: 'json' }, recipients: ['a@example.org'] },
      });
      assert.equal(refused.status, 400);
      assert.ok(refused.body.error.details.some((d: { path: string }) => d.path === 'body.scope.sources'));
    });

    it('a section cut at its row cap says so: truncation on the section and in the JSON report', async () => {
      const network = `Cap-${randomUUID().slice(0, 8)}`;
      await insertWallets(network, [
        { address: 'cap-1', found_at: '2026-02-10T00:00:00.000Z' },
        { address: 'cap-2', found_at: '2026-02-11T00:00:00.000Z' },
        { address: 'cap-3', found_at: '2026-02-12T00:00:00.000Z' },
      ]);
      const filter = { since: null, until: new Date('2026-03-01T00:00:00Z'), networks: [network] };
      const [cut] = await loadReportSections(testKnex(), ['wallet'], filter, { rowCap: 2 });
      assert.equal(cut.rows.length, 2);
      assert.deepEqual(cut.truncation, { rowCap: 2, totalRows: 3 });
      const [whole] = await loadReportSections(testKnex(), ['wallet'], filter, { rowCap: 3 });
      assert.equal(whole.rows.length, 3);
      assert.equal(whole.truncation, undefined);

      const acts = await directActivities({}, { SVC_REPORTS__ROW_CAP: '2' });
      const schedule = await insertSchedule({ scope: { entity_types: ['wallet'], networks: [network] } });
      const out = (await acts.generateScheduledReport({ scheduleId: schedule.id, dueAt: '2026-03-01T00:00:00.000Z' })) as { reportId: string };
      const report = await testKnex()('generated_reports').where({ id: out.reportId }).first();
      const section = JSON.parse((await readBlob(report.blob_key)).toString()).sections[0];
      assert.equal(section.truncated, true);
      assert.equal(section.row_cap, 2);
      assert.equal(section.total_rows, 3);
      assert.equal(section.rows.length, 2);
    });
  });

  describe('POST /reports/generate with Idempotency-Key', () => {
    const body = { template: 'wallet-activity', scope: { entity_types: ['wallet'] }, options: { format: 'json' } };
    const generate = (key: string | null, json: unknown, headers = analyst) =>
      http(`${url}/reports/generate`, { method: 'POST', headers: { ...headers, ...(key === null ? {} : { 'Idempotency-Key': key }) }, json });

    it('the same key and body answer the same task; the task runs once', async () => {
      const key = `key-${randomUUID()}`;
      const a = await generate(key, body);
      assert.equal(a.status, 202);
      const b = await generate(key, { options: { format: 'json' }, scope: { entity_types: ['wallet'] }, template: 'wallet-activity' });
      assert.equal(b.status, 202);
      assert.equal(b.body.task_id, a.body.task_id, 'key order in the body does not matter');
      await (await testTemporal()).workflow.getHandle(a.body.task_id).result();
      const c = await generate(key, body);
      assert.equal(c.body.task_id, a.body.task_id, 'also after the task ended');
      assert.equal((await testKnex()('generated_reports').where({ task_id: a.body.task_id })).length, 1);
      const other = await generate(key, body, admin);
      assert.notEqual(other.body.task_id, a.body.task_id, 'keys are per caller');
      const none = [await generate(null, body), await generate(null, body)];
      assert.notEqual(none[0].body.task_id, none[1].body.task_id, 'without a key every request is a new task');
    });

    it('the same key with a different body is refused with 422 idempotency_key_reused', async () => {
      const key = `key-${randomUUID()}`;
      assert.equal((await generate(key, body)).status, 202);
      const reused = await generate(key, { ...body, options: { format: 'csv' } });
      assert.equal(reused.status, 422);
      assert.equal(reused.body.error.code, 'idempotency_key_reused');
    });

    it('a key of the wrong form is a 400 naming the header', async () => {
      for (const key of ['', 'x'.repeat(201)]) {
        const res = await generate(key, body);
        assert.equal(res.status, 400, JSON.stringify(key));
        assert.ok(res.body.error.details.some((d: { path: string }) => d.path === 'headers.idempotency-key'), JSON.stringify(res.body));
      }
      assert.equal((await generate('x'.repeat(200), body)).status, 202);
    });

    it('concurrent identical requests with one key start one task', async () => {
      const key = `key-${randomUUID()}`;
      const all = await Promise.all(Array.from({ length: 6 }, () => generate(key, body)));
      for (const r of all) assert.equal(r.status, 202, JSON.stringify(r.body));
      assert.equal(new Set(all.map((r) => r.body.task_id)).size, 1);
      await (await testTemporal()).workflow.getHandle(all[0].body.task_id).result();
      assert.equal((await testKnex()('generated_reports').where({ task_id: all[0].body.task_id })).length, 1);
    });

    it('documents the Idempotency-Key header in OpenAPI', () => {
      const doc = buildOpenApiDocument(allRoutes()) as { paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string; required: boolean }>; responses: Record<string, unknown> }>> };
      const op = doc.paths['/reports/generate'].post;
      const header = op.parameters.find((p) => p.name === 'Idempotency-Key');
      assert.ok(header, JSON.stringify(op.parameters));
      assert.equal(header.in, 'header');
      assert.equal(header.required, false);
      assert.ok(op.responses['422']);
    });
  });
});

/** Reads a schedule through a connection of its own: sees only committed rows. */
async function createKnexProbe(scheduleId: string): Promise<string | null> {
  const knex = createKnex(process.env.DATABASE_URL!, 1);
  try {
    const row = await knex('report_schedules').where({ id: scheduleId }).first('id');
    return row?.id ?? null;
  } finally {
    await knex.destroy();
  }
}
