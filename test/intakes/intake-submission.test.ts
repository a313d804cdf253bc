// Evidence intake end to end with the real API, worker, PostgreSQL and Temporal: multipart edge
// cases and limits, content sniffing, idempotent retries, processing into the graph, contact data
// that is found nowhere but the vault, the audit log, and the status state machine.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { DestinationStream } from 'pino';
import { createCase } from '../../db/repositories/cases/case-repository';
import { createLogger } from '../../infra/logger';
import { startApiServer, startWorker } from '../../app/platform-runtime';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { emlMessage, intakeForm, pdfWithText } from '../support/intake-fixtures';
import { testDeps, testKnex, testTemporal } from '../support/platform';
import { waitFor } from '../support/wait-for';

/** Every string and byte array inside a value, as text (for searching Temporal histories). */
function allText(value: unknown, out: string[] = []): string[] {
  if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'));
  else if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => allText(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => allText(v, out));
  return out;
}

describe('evidence intake', function () {
  this.timeout(120_000);
  const queue = `intake-${randomUUID().slice(0, 8)}`;
  const logLines: string[] = [];
  let url: string;
  let dataDir: string;
  let users: Record<'admin' | 'analyst' | 'researcher' | 'reviewer', Record<string, string>>;
  let service: Record<string, string>;
  const closers: Array<() => Promise<void>> = [];

  before(async () => {
    const env = {
      SVC_TEMPORAL__TASK_QUEUE: queue,
      SVC_AUTH__TRUST_PROXY_HEADER: 'true',
      SVC_INTAKE__MAX_FILE_MB: '1',
      SVC_INTAKE__MAX_FILES: '3',
      SVC_INTAKE__MAX_TOTAL_MB: '2',
    };
    const emails = await usersForEveryRole();
    users = { admin: asUser(emails.admin), analyst: asUser(emails.analyst), researcher: asUser(emails.researcher), reviewer: asUser(emails.reviewer) };
    service = { 'X-API-KEY': await createTestApiKey(['intake:write']) };
    // Both processes log at trace level into memory, so the planted-value test can read every line.
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        logLines.push(chunk.toString('utf8'));
        cb();
      },
    });
    const deps = { ...(await testDeps(env)), log: createLogger('trace', 'intake-test', sink as unknown as DestinationStream) };
    dataDir = deps.config.data_dir;
    const worker = await startWorker(deps.config, process.env.TEMPORAL_ADDRESS!, deps, queue);
    closers.push(worker.shutdown);
    const api = await startApiServer(deps, 0, '127.0.0.1');
    closers.push(api.close);
    url = api.url;
  });
  after(async () => {
    for (const c of closers.reverse()) await c();
  });

  const submit = (form: FormData, headers: Record<string, string> = service) => http(`${url}/intakes`, { method: 'POST', headers, body: form });
  const processed = (id: string) =>
    waitFor(`intake ${id} processed`, async () => {
      const r = await http(`${url}/intakes/${id}`, { headers: users.analyst });
      return ['processed', 'failed'].includes(r.body.status) ? r.body : null;
    }, 60_000, 200);

  it('a service key submits evidence with files; types are sniffed, names sanitized, processing puts its entities in the graph', async () => {
    const wallet = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
    const form = intakeForm(
      {
        summary: 'Fake broker took my savings',
        details: 'They said on Telegram @fx_gains_desk to send USDT to the wallet in the PDF and call +44 20 7946 0958. Site https://fx-gains.example.com/login',
        source: 'partner-hotline',
        loss_amount: 1500.5,
        loss_currency: 'EUR',
      },
      [
        // Declared as an image, but the content is a PDF: the content wins.
        { name: '../../etc/statement.png', type: 'image/png', bytes: pdfWithText(`Deposit address ${wallet}`) },
        { name: 'mail.eml', type: 'application/octet-stream', bytes: emlMessage('Broker <support@fx-gains.example.com>', 'Your profit', 'Pay the fee to IBAN GB82 WEST 1234 5698 7654 32') },
        { name: 'notes\u0000.txt', type: 'text/plain', bytes: 'plain notes, nothing else' },
      ],
    );
    const res = await submit(form);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.status, 'received');
    assert.equal(res.body.task_id, `intake-${res.body.id}`);
    assert.deepEqual(res.body.files.map((f: { content_type: string }) => f.content_type), ['application/pdf', 'message/rfc822', 'text/plain']);
    assert.deepEqual(res.body.files.map((f: { filename: string }) => f.filename), ['statement.png', 'mail.eml', 'notes_.txt']);
    assert.equal(res.body.files[0].declared_content_type, 'image/png');
    const blobFile = path.join(dataDir, 'blobs', 'sha256', res.body.files[0].sha256.slice(0, 2), res.body.files[0].sha256);
    assert.ok(fs.existsSync(blobFile), 'the file is stored under its SHA-256');

    const intake = await processed(res.body.id);
    assert.equal(intake.status, 'processed', JSON.stringify(intake.jobs));
    assert.deepEqual(intake.jobs.map((j: { status: string }) => j.status), ['succeeded', 'succeeded']);
    const values = new Set(intake.entities.map((e: { type: string; value: string }) => `${e.type}:${e.value}`));
    for (const v of [`wallet:${wallet}`, 'phone:+442079460958', 'bank_account:GB82WEST12345698765432', 'email:support@fx-gains.example.com', 'url:https://fx-gains.example.com/login', 'domain:fx-gains.example.com', 'social_handle:telegram:fx_gains_desk']) {
      assert.ok(values.has(v), `${v} in ${[...values].join(', ')}`);
    }
    assert.equal(intake.loss_amount, '1500.50');
    const job = await http(`${url}/intakes/jobs/${res.body.job_id}`, { headers: users.reviewer });
    assert.equal(job.status, 200, job.text);
    assert.equal(job.body.step, 'extract_text');
    assert.equal(job.body.result.files.length, 3);
  });

  it('refuses malformed submissions with the field named: no payload part, bad JSON, missing summary, a NUL character, not multipart', async () => {
    const none = await submit(intakeForm(undefined, [{ name: 'a.txt', type: 'text/plain', bytes: 'x' }]));
    assert.equal(none.status, 400, none.text);
    assert.equal(none.body.error.details[0].path, 'body.payload');
    const bad = await submit(intakeForm(undefined, [], '{"summary": '));
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error.code, 'invalid_json');
    const noSummary = await submit(intakeForm({ details: 'x', urls: ['ftp://x.example'] }));
    assert.equal(noSummary.status, 400, noSummary.text);
    assert.deepEqual(noSummary.body.error.details.map((d: { path: string }) => d.path).sort(), ['body.payload.summary', 'body.payload.urls.0']);
    const noCurrency = await submit(intakeForm({ summary: 'x', loss_amount: 5 }));
    assert.equal(noCurrency.status, 400, noCurrency.text);
    assert.deepEqual(noCurrency.body.error.details.map((d: { path: string }) => d.path), ['body.payload.loss_currency']);
    const nul = await submit(intakeForm({ summary: 'x', details: 'a\u0000b' }));
    assert.equal(nul.status, 400, nul.text);
    assert.equal(nul.body.error.details[0].path, 'body.payload.details');
    const json = await http(`${url}/intakes`, { method: 'POST', headers: service, json: { summary: 'x' } });
    assert.equal(json.status, 415, json.text);
  });

  it('answers 413 naming the limit over file size, file count and total size, and stores nothing', async () => {
    // Summaries of this test's own: other files store intakes meanwhile, so a global count proves nothing.
    const tag = `limits-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const mine = async () => Number((await testKnex()('intakes').where('summary', 'like', `%${tag}`).count<Array<{ count: string }>>('* as count'))[0].count);
    const big = Buffer.alloc(1024 * 1024 + 10, 0x61);
    const tooBig = await submit(intakeForm({ summary: `big ${tag}` }, [{ name: 'big.txt', type: 'text/plain', bytes: big }]));
    assert.equal(tooBig.status, 413, tooBig.text);
    assert.match(tooBig.body.error.message, /file size limit of 1 MB \(SVC_INTAKE__MAX_FILE_MB\)/);
    const many = await submit(intakeForm({ summary: `many ${tag}` }, [1, 2, 3, 4].map((i) => ({ name: `${i}.txt`, type: 'text/plain', bytes: `file ${i}` }))));
    assert.equal(many.status, 413, many.text);
    assert.match(many.body.error.message, /file count limit of 3/);
    const total = await submit(intakeForm({ summary: `total ${tag}` }, [1, 2, 3].map((i) => ({ name: `${i}.bin`, type: 'application/octet-stream', bytes: Buffer.alloc(800 * 1024, i) }))));
    assert.equal(total.status, 413, total.text);
    assert.match(total.body.error.message, /total size limit of 2 MB/);
    assert.equal(await mine(), 0, 'no intake stored');
    const { createHash } = await import('node:crypto');
    const bigSha = createHash('sha256').update(big).digest('hex');
    assert.equal(fs.existsSync(path.join(dataDir, 'blobs', 'sha256', bigSha.slice(0, 2), bigSha)), false, 'no blob stored');
  });

  it('an Idempotency-Key repeat answers the first intake (200), never a copy; the key with another body is 422', async () => {
    const key = `k-${randomUUID()}`;
    const payload = { summary: `retry ${key}`, details: 'same' };
    const files = [{ name: 'a.txt', type: 'text/plain', bytes: 'evidence' }];
    const first = await submit(intakeForm(payload, files), { ...service, 'Idempotency-Key': key });
    assert.equal(first.status, 201, first.text);
    const again = await Promise.all([1, 2, 3].map(() => submit(intakeForm(payload, files), { ...service, 'Idempotency-Key': key })));
    for (const r of again) {
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.id, first.body.id);
      assert.deepEqual(r.body.files.map((f: { id: string }) => f.id), first.body.files.map((f: { id: string }) => f.id));
    }
    const rows = await testKnex()('intakes').where({ summary: payload.summary });
    assert.equal(rows.length, 1);
    const other = await submit(intakeForm({ ...payload, details: 'different' }, files), { ...service, 'Idempotency-Key': key });
    assert.equal(other.status, 422, other.text);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
  });

  it('contact data is found nowhere but the vault (database, logs, workflow history, error bodies); analysts decrypt it with an audit event', async () => {
    const tag = randomUUID().replace(/-/g, '').slice(0, 12);
    const planted = { reporter_name: `Plantedname ${tag}`, contact_email: `planted.${tag}@example.net`, contact_phone: `+1 415 555 ${tag.replace(/\D/g, '').padEnd(4, '7').slice(0, 4)}` };
    const needles = [tag, planted.contact_email];
    // An invalid submission echoing the contact data must not echo it back.
    const invalid = await submit(intakeForm({ summary: 'x', ...planted, contact_email: `planted.${tag}@@bad`, occurred_at: `bad-${tag}` }));
    assert.equal(invalid.status, 400);
    for (const n of needles) assert.ok(!invalid.text.includes(n), 'not in the error body');

    const res = await submit(intakeForm({ summary: 'Romance scam', details: 'He asked for gift cards', ...planted }));
    assert.equal(res.status, 201, res.text);
    const intake = await processed(res.body.id);
    assert.equal(intake.status, 'processed');
    assert.equal(intake.has_contact, true);
    for (const n of needles) assert.ok(!JSON.stringify(intake).includes(n), 'not in GET /intakes/{id}');

    // Every table, every row, as text.
    const knex = testKnex();
    const tables = (await knex('information_schema.tables').where({ table_schema: 'public', table_type: 'BASE TABLE' }).pluck('table_name')) as string[];
    let dump = '';
    for (const t of tables) {
      const rows = (await knex.raw(`SELECT t::text AS row FROM "${t}" t`)).rows as Array<{ row: string }>;
      dump += rows.map((r) => r.row).join('\n');
    }
    assert.ok(dump.includes(res.body.id), 'the dump holds the intake');
    assert.ok(tables.includes('vault_secrets'));
    for (const n of needles) {
      assert.ok(!dump.includes(n), `${n} not in the database dump`);
      assert.ok(!dump.includes(Buffer.from(n).toString('hex')), `${n} not in the database dump (as bytes)`);
    }
    const history = await (await testTemporal()).workflow.getHandle(`intake-${res.body.id}`).fetchHistory();
    const historyText = allText(history).join('\n');
    assert.ok(historyText.includes(res.body.id), 'the history holds the intake id');
    for (const n of needles) assert.ok(!historyText.includes(n), `${n} not in the workflow history`);
    const logs = logLines.join('');
    assert.ok(logs.includes('"path":"/intakes"'), 'the request log was captured');
    for (const n of needles) assert.ok(!logs.includes(n), `${n} not in the logs`);

    for (const role of ['admin', 'reviewer', 'researcher'] as const) {
      const denied = await http(`${url}/intakes/${res.body.id}/contact?purpose=check`, { headers: users[role] });
      assert.equal(denied.status, 403, `${role}: ${denied.text}`);
    }
    const purpose = `call back about case ${tag.slice(0, 4)}`;
    const contact = await http(`${url}/intakes/${res.body.id}/contact?purpose=${encodeURIComponent(purpose)}`, { headers: users.analyst });
    assert.equal(contact.status, 200, contact.text);
    assert.deepEqual(contact.body, { intake_id: res.body.id, ...planted });
    const audit = await http(`${url}/audit/events?target_id=${res.body.id}&action=intake.contact.read`, { headers: users.admin });
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.items.length, 1);
    assert.equal(audit.body.items[0].purpose, purpose);
    assert.match(audit.body.items[0].actor, /^analyst-/);
    assert.equal((await http(`${url}/audit/events`, { headers: users.analyst })).status, 403);
  });

  it('status moves follow the state machine: an illegal move is 409 naming the allowed ones', async () => {
    const res = await submit(intakeForm({ summary: 'status machine' }));
    await processed(res.body.id);
    const illegal = await http(`${url}/intakes/${res.body.id}/status`, { method: 'POST', headers: users.analyst, json: { status: 'received' } });
    assert.equal(illegal.status, 409, illegal.text);
    assert.deepEqual(illegal.body.error.details.allowed, ['triaged', 'linked', 'rejected', 'closed']);
    assert.match(illegal.body.error.message, /allowed: triaged, linked, rejected, closed/);
    const ok = await http(`${url}/intakes/${res.body.id}/status`, { method: 'POST', headers: users.analyst, json: { status: 'triaged', reason: 'looked at it' } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.previous_status, 'processed');
    const closed = await http(`${url}/intakes/${res.body.id}/status`, { method: 'POST', headers: users.admin, json: { status: 'closed' } });
    assert.equal(closed.status, 200, closed.text);
    const final = await http(`${url}/intakes/${res.body.id}/status`, { method: 'POST', headers: users.analyst, json: { status: 'triaged' } });
    assert.equal(final.status, 409);
    assert.deepEqual(final.body.error.details.allowed, []);
    const byReviewer = await http(`${url}/intakes/${res.body.id}/status`, { method: 'POST', headers: users.reviewer, json: { status: 'closed' } });
    assert.equal(byReviewer.status, 403);
  });

  it('lists intakes with filters and no contact fields; researchers get 403 on every intake route', async () => {
    const source = `src-${randomUUID().slice(0, 8)}`;
    const a = await submit(intakeForm({ summary: 'with file', source, contact_email: 'someone@example.org' }, [{ name: 'x.txt', type: 'text/plain', bytes: 'x' }]));
    const b = await submit(intakeForm({ summary: 'findme without file', source }));
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    const all = await http(`${url}/intakes/?source=${source}`, { headers: users.reviewer });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.items.map((i: { id: string }) => i.id), [b.body.id, a.body.id]);
    assert.ok(!all.text.includes('someone@example.org'));
    const withFiles = await http(`${url}/intakes/?source=${source}&has_files=true`, { headers: users.analyst });
    assert.deepEqual(withFiles.body.items.map((i: { id: string }) => i.id), [a.body.id]);
    const q = await http(`${url}/intakes/?source=${source}&q=FINDME`, { headers: users.analyst });
    assert.deepEqual(q.body.items.map((i: { id: string }) => i.id), [b.body.id]);
    const page = await http(`${url}/intakes/?source=${source}&limit=1`, { headers: users.analyst });
    const next = await http(`${url}/intakes/?source=${source}&limit=1&cursor=${page.body.next_cursor}`, { headers: users.analyst });
    assert.deepEqual(next.body.items.map((i: { id: string }) => i.id), [a.body.id]);

    const r = users.researcher;
    const job = a.body.job_id;
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/intakes'], ['GET', '/intakes/'], ['GET', `/intakes/${a.body.id}`], ['GET', `/intakes/${a.body.id}/contact?purpose=xyz`],
      ['POST', `/intakes/${a.body.id}/status`, { status: 'closed' }], ['GET', `/intakes/jobs/${job}`], ['POST', `/intakes/jobs/${job}`, { action: 'retry' }],
    ];
    for (const [method, p, json] of calls) {
      const res = await http(`${url}${p}`, { method, headers: r, ...(json ? { json } : {}) });
      assert.equal(res.status, 403, `${method} ${p}`);
    }
    const serviceRead = await http(`${url}/intakes/${a.body.id}`, { headers: service });
    assert.equal(serviceRead.status, 403, 'service keys only submit');
  });

  it('a failed job is retried through POST /intakes/jobs/{id}; a succeeded job cannot be retried or cancelled', async () => {
    const res = await submit(intakeForm({ summary: 'retry me', details: 'call +44 20 7946 0958' }));
    const intake = await processed(res.body.id);
    const entitiesJob = intake.jobs[1];
    const refused = await http(`${url}/intakes/jobs/${entitiesJob.id}`, { method: 'POST', headers: users.analyst, json: { action: 'retry' } });
    assert.equal(refused.status, 409, refused.text);
    const noCancel = await http(`${url}/intakes/jobs/${entitiesJob.id}`, { method: 'POST', headers: users.analyst, json: { action: 'cancel' } });
    assert.equal(noCancel.status, 409, noCancel.text);
    // As if the step had failed: the job failed, the intake failed.
    await testKnex()('intake_jobs').where({ id: entitiesJob.id }).update({ status: 'failed', error: 'boom' });
    await testKnex()('intakes').where({ id: res.body.id }).update({ status: 'failed' });
    const retry = await http(`${url}/intakes/jobs/${entitiesJob.id}`, { method: 'POST', headers: users.analyst, json: { action: 'retry' } });
    assert.equal(retry.status, 202, retry.text);
    const again = await processed(res.body.id);
    assert.equal(again.status, 'processed');
    const job = await http(`${url}/intakes/jobs/${entitiesJob.id}`, { headers: users.analyst });
    assert.equal(job.body.status, 'succeeded');
    assert.equal(job.body.attempts, 2);
    assert.equal(job.body.error, null);
  });

  it('attaches an intake to an existing case or a new one, moving it to linked; a repeat changes nothing, another case is 409', async () => {
    const one = await submit(intakeForm({ summary: 'attach me', loss_amount: '250', loss_currency: 'USD' }));
    const two = await submit(intakeForm({ summary: 'attach me too' }));
    await processed(one.body.id);
    await processed(two.body.id);
    const existing = await createCase(testKnex(), { title: `Case ${randomUUID().slice(0, 6)}` }, 'test');
    const attach = (id: string, json: unknown, headers = users.analyst) => http(`${url}/intakes/${id}/case`, { method: 'POST', headers, json });

    const first = await attach(one.body.id, { case_id: existing.id });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual({ ...first.body }, { intake_id: one.body.id, case_id: existing.id, case_title: existing.title, created_case: false, linked: true, status: 'linked' });
    const repeat = await attach(one.body.id, { case_id: existing.id }, users.admin);
    assert.equal(repeat.status, 200, repeat.text);
    assert.equal(repeat.body.linked, false);
    const read = await http(`${url}/intakes/${one.body.id}`, { headers: users.analyst });
    assert.equal(read.body.case.title, existing.title);
    assert.equal(read.body.status, 'linked');

    const created = await attach(two.body.id, { create: { title: 'New fraud ring', priority: 'high' } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.created_case, true);
    const elsewhere = await attach(two.body.id, { case_id: existing.id });
    assert.equal(elsewhere.status, 409, elsewhere.text);
    assert.equal(elsewhere.body.error.details.case_id, created.body.case_id);
    assert.equal((await attach(two.body.id, { case_id: randomUUID() })).status, 404);
    assert.equal((await attach(two.body.id, { case_id: existing.id, create: { title: 'x' } })).status, 400);
    assert.equal((await attach(two.body.id, { case_id: existing.id }, users.reviewer)).status, 403);
    const audit = await http(`${url}/audit/events?target_id=${one.body.id}&action=intake.case.attach`, { headers: users.admin });
    assert.equal(audit.body.items.length, 1, 'one audit event: the repeat recorded none');
  });
});
