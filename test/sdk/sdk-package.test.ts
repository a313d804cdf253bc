// The SDK as an integrator gets it: `npm pack` in sdk/ (which builds dist/esm and dist/cjs), the
// tarball installed into an empty project outside the repository (its dependency openapi-fetch from
// npm's cache, else the npm registry), then plain Node (no tsx, no TypeScript loader) calls the
// running API through it as an ES module and as CommonJS; tsc type-checks a consumer against the
// shipped declarations, and esbuild bundles the shipped ES modules for browsers.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { API_KEY_SCOPES } from '../../domain/accounts/roles';
import { createTestApiKey } from '../support/identities';
import { startTestApi } from '../support/platform';

const ROOT = path.resolve(__dirname, '..', '..');

/** The environment of a child that must not inherit this run's loaders or npm settings. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'SVC_API_KIND') env[k] = v;
  }
  return { ...env, ...extra };
}

function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number | string }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const npm = (args: string[], cwd: string) => run('npm', args, cwd);

// What both module systems run: the caller, the document's paths as written, a path parameter by its
// template name, a 404 as FipApiError, and a streamed download saved to a file.
const SCRIPT_BODY = `
  const fip = createFipClient({ kind: 'core', baseUrl: process.env.FIP_URL, apiKey: process.env.FIP_KEY });
  const me = await fip.accounts.me();
  const doc = await fip.openapi();
  let missing = null;
  try {
    await fip.request('get', '/investigations/ssi/{scan_id}', { path: { scan_id: process.env.MISSING_SCAN } });
  } catch (err) {
    missing = err instanceof FipApiError ? { status: err.status, code: err.code } : String(err);
  }
  const css = await fip.download('/docs/assets/{file}', { path: { file: 'swagger-ui.css' } });
  const bytes = await saveDownload(css, process.argv[2]);
  const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/investigations/ssi/{scan_id}/'));
  console.log(JSON.stringify({ me, paths, missing, bytes, contentType: css.contentType, loaders: process.execArgv }));
`;

const ESM = `import { createFipClient, FipApiError } from '@fip/sdk';\nimport { saveDownload } from '@fip/sdk/node';\n${SCRIPT_BODY}`;
const CJS = `const { createFipClient, FipApiError } = require('@fip/sdk');\nconst { saveDownload } = require('@fip/sdk/node');\n(async () => {\n${SCRIPT_BODY}\n})().catch((err) => { console.error(err); process.exit(1); });\n`;

const TYPED = `import { createFipClient, FipApiError, type Download } from '@fip/sdk';
import { saveDownload } from '@fip/sdk/node';
const fip = createFipClient({ kind: 'core', baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });
export async function typed(): Promise<number> {
  const scan = await fip.investigations.get('x');
  const status: string = scan.status;
  const detail = await fip.request('get', '/cases/{case_id}', { path: { case_id: 'c' } });
  // @ts-expect-error path parameters keep the template's own names
  await fip.request('get', '/tasks/{task_id}', { path: { taskId: 't' } });
  const file: Download = await fip.investigations.evidenceBundle('x', { purpose: 'court' });
  void [status, detail.title, FipApiError];
  return saveDownload(file, 'x.wacz');
}
`;

describe('SDK package (npm pack, installed elsewhere, plain Node ESM and CJS)', function () {
  this.timeout(600_000);
  let url: string;
  let key: string;
  let work: string;
  let consumer: string;
  let tarball: string;

  before(async () => {
    url = (await startTestApi()).url;
    key = await createTestApiKey([...API_KEY_SCOPES]);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-sdk-package-'));
    const packed = await npm(['pack', '--json', '--pack-destination', work], path.join(ROOT, 'sdk'));
    assert.equal(packed.code, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = path.join(work, info.filename);
    assert.ok(fs.existsSync(tarball), tarball);
    const files = info.files.map((f) => f.path);
    for (const f of ['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/esm/node.js', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/node.js', 'package.json', 'README.md']) assert.ok(files.includes(f), `${f} in the tarball`);
    assert.deepEqual(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), [], 'no TypeScript sources');

    consumer = path.join(work, 'consumer');
    fs.mkdirSync(consumer);
    fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true }));
    // The SDK from the tarball; openapi-fetch from npm's cache (filled by npm ci), else the registry.
    const installed = await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], consumer);
    assert.equal(installed.code, 0, installed.stderr);
    assert.doesNotMatch(installed.stderr, /EBADENGINE/);
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('is a package of JavaScript with declarations, an exports map and no TypeScript loader needed', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(consumer, 'node_modules', '@fip', 'sdk', 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(pkg.private, undefined);
    assert.deepEqual(Object.keys(pkg.exports as object).sort(), ['.', './node', './package.json']);
    assert.deepEqual(Object.keys((pkg.dependencies ?? {}) as object), ['openapi-fetch']);
    assert.throws(() => require.resolve('tsx', { paths: [consumer] }), /Cannot find module/, 'the consumer has no tsx');
  });

  for (const [format, file, source] of [['ESM', 'call.mjs', ESM], ['CommonJS', 'call.cjs', CJS]] as const) {
    it(`calls the running API from plain Node as ${format}: the caller, paths as written, a 404, a streamed download`, async () => {
      fs.writeFileSync(path.join(consumer, file), source);
      const out = path.join(consumer, `${file}.css`);
      const r = await run(process.execPath, [file, out], consumer, cleanEnv({ FIP_URL: url, FIP_KEY: key, MISSING_SCAN: randomUUID() }));
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /Unexpected token|ERR_UNKNOWN_FILE_EXTENSION|ExperimentalWarning/);
      const result = JSON.parse(r.stdout.trim().split('\n').pop()!) as { me: { service?: { scopes: string[] } }; paths: string[]; missing: { status: number; code: string }; bytes: number; contentType: string; loaders: string[] };
      assert.deepEqual(result.loaders, [], 'plain node: no --import, no --require');
      assert.ok(result.me.service?.scopes.includes('investigations:read'), JSON.stringify(result.me));
      assert.ok(result.paths.includes('/investigations/ssi/{scan_id}/evidence-bundle'), result.paths.join(', '));
      assert.deepEqual(result.missing, { status: 404, code: 'not_found' });
      assert.match(result.contentType, /text\/css/);
      assert.equal(result.bytes, fs.statSync(out).size);
      assert.ok(result.bytes > 1000, `${result.bytes} bytes saved`);
    });
  }

  it('type-checks a TypeScript consumer against the shipped declarations (import and require resolution)', async () => {
    fs.writeFileSync(path.join(consumer, 'typed.mts'), TYPED);
    // The same code as CommonJS (.cts): its imports resolve through the exports map's "require" types.
    fs.writeFileSync(path.join(consumer, 'typed-cjs.cts'), TYPED);
    // The check can fail: the camelCase name of a path parameter is a type error (in this file only).
    fs.writeFileSync(path.join(consumer, 'wrong.mts'), "import { createFipClient } from '@fip/sdk';\nawait createFipClient({ baseUrl: '' }).request('get', '/tasks/{task_id}', { path: { taskId: 't' } });\n");
    fs.writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], strict: true, noEmit: true, skipLibCheck: true,
        types: ['node'], typeRoots: [path.join(ROOT, 'node_modules', '@types')],
      },
      files: ['typed.mts', 'typed-cjs.cts', 'wrong.mts'],
    }));
    const tsc = await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], consumer);
    const errors = tsc.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    assert.equal(errors.length, 1, tsc.stdout + tsc.stderr);
    assert.match(errors[0], /^wrong\.mts\(2,\d+\): error TS2561: .*'taskId' does not exist.*'task_id'/);
  });

  it('bundles the shipped ES modules for browsers without Node built-ins', async () => {
    const out = await build({
      entryPoints: [path.join(consumer, 'node_modules', '@fip', 'sdk', 'dist', 'esm', 'index.js')],
      bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent', metafile: true, absWorkingDir: consumer,
    });
    const inputs = Object.keys(out.metafile.inputs);
    assert.ok(inputs.some((i) => i.includes('node_modules/openapi-fetch')), inputs.join(', '));
    assert.deepEqual(inputs.filter((i) => i.startsWith('node:')), []);
    assert.match(out.outputFiles[0].text, /createFipClient/);
  });
});
