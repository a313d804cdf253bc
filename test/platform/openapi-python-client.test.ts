// docs/integrations.md's Python client, exactly as the page writes it: openapi-python-client (PyPI,
// pinned in scripts/python-tools.sh) generates a client from /openapi.json with the page's
// fip-client.yaml, and the page's Python example runs against the real API on a completed scan:
// the caller's scopes, the scan, and the evidence bundle saved as a file (a download the generated
// client keeps because the document gives it a binary schema).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_KEY_SCOPES } from '../../domain/accounts/roles';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, startTestWorker } from '../support/platform';
import { startScamSiteFixture, type ScamSiteFixture } from '../support/scam-site-fixture';
import { waitFor } from '../support/wait-for';

const ROOT = path.resolve(__dirname, '..', '..');
const PAGE = path.join(ROOT, 'docs', 'integrations.md');

/** The fenced block of `lang` in the page's OpenAPI section whose text includes `marker`. */
function pageBlock(lang: string, marker: string): string {
  const section = fs.readFileSync(PAGE, 'utf8').split(/^## /m).find((s) => s.startsWith('OpenAPI'))!;
  const block = [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]).find((b) => b.includes(marker));
  if (!block) throw new Error(`docs/integrations.md no longer has the ${lang} block with ${marker}`);
  return block;
}

function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...process.env, ...env }, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number | string }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('docs/integrations.md: the openapi-python-client example against the real API', function () {
  this.timeout(600_000);
  const queue = `pyc-${randomUUID().slice(0, 8)}`;
  let site: ScamSiteFixture;
  let url: string;
  let scanId: string;
  let generator: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-python-client-'));

  before(async () => {
    const installed = await run(path.join(ROOT, 'scripts', 'python-tools.sh'), ['openapi-python-client'], ROOT);
    assert.equal(installed.code, 0, installed.stderr);
    generator = installed.stdout.trim().split('\n').pop()!;
    site = await startScamSiteFixture();
    const env = { SVC_TEMPORAL__TASK_QUEUE: queue, SVC_AUTH__TRUST_PROXY_HEADER: 'true', SVC_SSI__ALLOW_PRIVATE_TARGETS: `127.0.0.1:${site.port}`, SVC_WORKER__INSTANCE: `t-${queue}` };
    await startTestWorker(queue, env);
    url = (await startTestApi(env)).url;
    const analyst = asUser((await usersForEveryRole()).analyst);
    const start = await http(`${url}/investigations/ssi`, { method: 'POST', headers: analyst, json: { url: `${site.origin}/r1`, label: 'python client', options: { max_pages: 2, page_timeout_s: 30 } } });
    assert.equal(start.status, 202, start.text);
    scanId = start.body.scan_id;
    const done = await waitFor('investigation ends', async () => {
      const t = await http(`${url}/investigations/ssi/${scanId}`, { headers: analyst });
      return ['completed', 'failed', 'cancelled'].includes(t.body.status) ? t.body : null;
    }, 240_000, 500);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
  });
  after(async () => {
    await site?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('generates the client with the page\'s config, keeping every download, and runs the page\'s example', async () => {
    fs.writeFileSync(path.join(work, 'openapi.json'), (await http(`${url}/openapi.json`)).text);
    fs.writeFileSync(path.join(work, 'fip-client.yaml'), pageBlock('yaml', 'content_type_overrides'));
    const generated = await run(generator, ['generate', '--path', 'openapi.json', '--config', 'fip-client.yaml'], work);
    assert.equal(generated.code, 0, generated.stdout + generated.stderr);
    // Every answer is in the client: no response left out for its content type.
    assert.doesNotMatch(generated.stdout + generated.stderr, /response will be omitted|Unsupported content_type/);
    assert.ok(fs.existsSync(path.join(work, 'fip-client', 'fip_client', 'api', 'investigations', 'get_investigations_ssi_scan_id_evidence_bundle.py')));

    const example = pageBlock('python', 'AuthenticatedClient');
    assert.match(example, /base_url="http:\/\/localhost:8080"/, 'the page\'s example talks to npm start\'s API');
    fs.writeFileSync(path.join(work, 'example.py'), example.replace('http://localhost:8080', url));
    const key = await createTestApiKey([...API_KEY_SCOPES]);
    const python = path.join(path.dirname(generator), 'python');
    // The page installs the client with pip; here it is put on the path of the generator's
    // environment, which has the client's dependencies (httpx, attrs, python-dateutil).
    const r = await run(python, ['example.py'], work, { PYTHONPATH: path.join(work, 'fip-client'), FIP_KEY: key, SCAN_ID: scanId });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const [scopes, scan] = r.stdout.trim().split('\n');
    assert.match(scopes, /investigations:read/);
    assert.match(scan, /completed \d+$/i);
    const wacz = fs.readFileSync(path.join(work, 'evidence.wacz'));
    assert.ok(wacz.length > 1000, `${wacz.length} bytes`);
    assert.equal(wacz.subarray(0, 2).toString('latin1'), 'PK', 'a ZIP (WACZ) file');
  });
});
