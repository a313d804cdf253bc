// scripts/python-tools.sh: the pinned Python tools the tests and CI use (Schemathesis), each in its
// own virtual environment; a missing Python fails loudly instead of skipping a suite.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'python-tools.sh');

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(SCRIPT, args, { env: { ...process.env, ...env }, timeout: 300_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('scripts/python-tools.sh', function () {
  this.timeout(300_000);

  it('prints the pinned Schemathesis executable, and a second run reuses the environment without installing', async () => {
    const first = await run(['schemathesis']);
    assert.equal(first.code, 0, first.stderr);
    const exe = first.stdout.trim();
    assert.match(exe, /\/venv\/schemathesis-\d+\.\d+\.\d+\/bin\/schemathesis$/);
    assert.ok(fs.existsSync(exe));
    const again = await run(['schemathesis']);
    assert.equal(again.code, 0);
    assert.equal(again.stdout.trim(), exe);
    assert.equal(again.stderr, '', 'nothing installed the second time');
  });

  it('fails with exit 3 and says what to install when Python is missing', async () => {
    const r = await run(['schemathesis'], { FIP_PYTHON: '/nonexistent/python3' });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /python3.*not found.*install Python/s);
    assert.equal(r.stdout, '');
  });

  it('fails with exit 2 for a tool it does not know', async () => {
    const r = await run(['no-such-tool']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown tool 'no-such-tool'/);
  });
});
