// The spec's own intake form: the payload part typed application/json (any charset parameter),
// with or without a file name, as the real clients send it: the curl binary (`-F 'payload=…;type=
// application/json'`, `-F payload=@payload.json`) and Python requests (`files=`), besides the
// untyped part. A part typed as something else is a 415 naming body.payload.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApiKey } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';
import { runPythonClient } from '../support/python-clients';

const CURL = '/usr/bin/curl';

interface Answer {
  status: number;
  body: { id?: string; status?: string; files?: Array<{ filename: string }>; error?: { code: string; message: string; details?: Array<{ path: string }> } };
}

/** Runs the curl binary with form arguments; the status and the JSON answer. */
function curl(url: string, key: string, form: string[], cwd: string): Promise<Answer> {
  const args = ['-sS', '-o', '-', '-w', '\n%{http_code}', '-H', `X-API-KEY: ${key}`, ...form.flatMap((f) => ['-F', f]), url];
  return new Promise((resolve, reject) => {
    execFile(CURL, args, { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`curl failed: ${err.message} ${stderr}`));
      const cut = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(cut + 1)), body: JSON.parse(stdout.slice(0, cut)) });
    });
  });
}

describe('intake: the spec form (payload typed application/json) from curl and Python requests', function () {
  this.timeout(180_000);
  let url: string;
  let key: string;
  let dir: string;

  before(async () => {
    // A task queue no worker polls: the submission is what is tested, not the processing.
    url = (await startTestApi({ SVC_TEMPORAL__TASK_QUEUE: `spec-form-${randomUUID().slice(0, 8)}` })).url;
    key = await createTestApiKey(['intake:write']);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-spec-form-'));
    fs.writeFileSync(path.join(dir, 'statement.txt'), 'Sent 0.5 BTC to the broker');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const stored = async (id: string) => (await testKnex()('intakes').where({ id }).first()) as { summary: string; source: string } | undefined;

  it('curl: typed application/json (with and without charset, literal and from a file), @file, and untyped parts are accepted', async () => {
    const cases: Array<{ label: string; form: (payload: string) => string[] }> = [
      { label: 'typed literal', form: (p) => [`payload=${p};type=application/json`, 'files=@statement.txt'] },
      { label: 'typed literal with charset', form: (p) => [`payload=${p};type=application/json;charset=UTF-8`] },
      { label: 'typed file', form: () => ['payload=@payload.json;type=application/json', 'files=@statement.txt'] },
      // curl declares application/octet-stream for a .json file it is not told the type of.
      { label: '@file untyped by the user', form: () => ['payload=@payload.json'] },
      { label: 'untyped literal', form: (p) => [`payload=${p}`] },
      { label: 'untyped from a file', form: () => ['payload=<payload.json'] },
    ];
    for (const c of cases) {
      const summary = `curl ${c.label} ${randomUUID().slice(0, 8)}`;
      const payload = JSON.stringify({ summary, source: 'curl', details: 'Überweisung an den Broker' });
      fs.writeFileSync(path.join(dir, 'payload.json'), payload);
      const res = await curl(`${url}/intakes`, key, c.form(payload), dir);
      assert.equal(res.status, 201, `${c.label}: ${JSON.stringify(res.body)}`);
      const row = await stored(res.body.id!);
      assert.equal(row?.summary, summary, c.label);
      // The payload is never taken for a file.
      assert.ok((res.body.files ?? []).every((f) => f.filename === 'statement.txt'), c.label);
    }
  });

  it('curl: a payload part typed otherwise is a 415 naming body.payload, and nothing is stored', async () => {
    // Summaries of this test's own (other files write intakes at the same time): none may be stored.
    const tag = `refused-${randomUUID()}`;
    const res = await curl(`${url}/intakes`, key, [`payload={"summary":"typed text ${tag}"};type=text/plain`], dir);
    assert.equal(res.status, 415, JSON.stringify(res.body));
    assert.equal(res.body.error?.code, 'unsupported_media_type');
    assert.equal(res.body.error?.details?.[0]?.path, 'body.payload');
    const charset = await curl(`${url}/intakes`, key, [`payload={"summary":"x ${tag}"};type=application/json;charset=shift_jis`], dir);
    assert.equal(charset.status, 415);
    assert.match(charset.body.error!.message, /charset shift_jis/);
    assert.equal(Number((await testKnex()('intakes').where('summary', 'like', `%${tag}%`).count<Array<{ n: string }>>('* as n'))[0]!.n), 0);
  });

  it('Python requests: files= with the payload typed application/json (without and with a file name), and data=', async () => {
    for (const mode of ['typed', 'typed-named', 'untyped']) {
      const summary = `requests ${mode} ${randomUUID().slice(0, 8)}`;
      const res = await runPythonClient<Answer & { content_type: string }>('submit-intake.py', [`${url}/intakes`, key, mode, JSON.stringify({ summary, source: 'python' })]);
      assert.equal(res.status, 201, `${mode}: ${JSON.stringify(res.body)}`);
      assert.equal((await stored(res.body.id!))?.summary, summary);
      assert.deepEqual(res.body.files?.map((f) => f.filename), ['statement.txt'], mode);
    }
  });
});
