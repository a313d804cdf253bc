// /openapi.json as other ecosystems read it: it must pass openapi-spec-validator (PyPI, pinned in
// scripts/python-tools.sh) and Redocly's linter (@redocly/cli, a pinned devDependency, with the
// committed redocly.yaml: the recommended rules), have one path template per URL shape and one
// parameter name per position, patterns that Python, Go and JavaScript all compile, and a schema
// for every file it answers (so generated clients keep the downloads).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TagSchema } from '../../api/routes/search/search-schemas';
import { http } from '../support/http';
import { startTestApi } from '../support/platform';

const ROOT = path.resolve(__dirname, '..', '..');
const PYTHON_TOOLS = path.join(ROOT, 'scripts', 'python-tools.sh');
const REDOCLY = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

type Doc = { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> }>> };

/** Runs a command; answers its exit code and output instead of throwing on a non-zero exit. */
function run(file: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number | string }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Every `pattern` of the document with where it is. */
function patterns(node: unknown, at = '#'): Array<{ at: string; pattern: string }> {
  if (Array.isArray(node)) return node.flatMap((v, i) => patterns(v, `${at}/${i}`));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => (k === 'pattern' && typeof v === 'string' ? [{ at, pattern: v }] : patterns(v, `${at}/${k}`)));
}

/**
 * Path parameters named differently at the same position after the same literal segments
 * (`/cases/{case_id}` beside `/cases/{id}/lea-referral`), one line per clash.
 */
export function parameterNameClashes(paths: string[]): string[] {
  const names = new Map<string, Set<string>>();
  for (const p of paths) {
    const segments = p.split('/');
    segments.forEach((segment, i) => {
      const param = /^\{(.+)\}$/.exec(segment);
      if (!param) return;
      const prefix = segments.slice(0, i).map((s) => (s.startsWith('{') ? '{}' : s)).join('/');
      const set = names.get(prefix) ?? new Set<string>();
      set.add(param[1]);
      names.set(prefix, set);
    });
  }
  return [...names].filter(([, set]) => set.size > 1).map(([prefix, set]) => `${prefix}/{${[...set].sort().join('|')}}`);
}

/**
 * The one accepted clash: an entity is addressed by its id (/intelligence/entities/{id}) or by its
 * type and value (/intelligence/entities/{type}/{value}, two segments): different paths of different
 * lengths, both from the spec, and no id is a type.
 */
const ACCEPTED_CLASHES = ['/intelligence/entities/{id|type}'];

/** Trailing slashes that are part of a URL we cannot change (TAXII 2.1, the spec's legacy lists). */
const TRAILING_SLASH_PATHS = [
  '/intakes/', '/reviews/', '/taxii2/', '/taxii2/api/', '/taxii2/api/collections/', '/taxii2/api/collections/{id}/',
  '/taxii2/api/collections/{id}/objects/', '/taxii2/api/collections/{id}/manifest/',
];

describe('OpenAPI document for other ecosystems (openapi-spec-validator, Redocly, portable patterns)', function () {
  this.timeout(300_000);
  let doc: Doc;
  let file: string;

  before(async () => {
    const { url } = await startTestApi();
    const res = await http(`${url}/openapi.json`);
    assert.equal(res.status, 200);
    doc = res.body as Doc;
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-openapi-')), 'openapi.json');
    fs.writeFileSync(file, res.text);
  });
  after(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));

  it('passes openapi-spec-validator (OpenAPI 3.1 schema, references, parameters)', async () => {
    const installed = await run(PYTHON_TOOLS, ['openapi-spec-validator']);
    assert.equal(installed.code, 0, installed.stderr);
    const exe = installed.stdout.trim().split('\n').pop()!;
    const r = await run(exe, ['--validation-errors', 'all', file]);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /: OK\s*$/);
  });

  it('passes Redocly\'s lint with the recommended rules: no error, trailing slashes only where the URL has one', async () => {
    // No telemetry and no update check: CI has the npm registry, not the Internet.
    const r = await run(process.execPath, [REDOCLY, 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'], {
      REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    });
    const report = JSON.parse(r.stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(errors, []);
    assert.equal(r.code, 0, r.stderr);
    const slashes = report.problems.filter((p) => p.ruleId === 'no-path-trailing-slash').map((p) => /`([^`]+)`/.exec(p.message)?.[1]);
    assert.deepEqual(slashes.filter((p) => !TRAILING_SLASH_PATHS.includes(p ?? '')), [], 'a new path with a trailing slash');
    const config = fs.readFileSync(path.join(ROOT, 'redocly.yaml'), 'utf8');
    assert.match(config, /^extends:\n {2}- recommended$/m, 'the recommended rules stay on');
  });

  it('has one template per URL shape and one parameter name per position in every path family', () => {
    const paths = Object.keys(doc.paths);
    const shapes = new Map<string, string[]>();
    for (const p of paths) shapes.set(p.replace(/\{[^}]+\}/g, '{}'), [...(shapes.get(p.replace(/\{[^}]+\}/g, '{}')) ?? []), p]);
    assert.deepEqual([...shapes.values()].filter((v) => v.length > 1), [], 'identical path templates');
    assert.deepEqual(parameterNameClashes(paths).filter((c) => !ACCEPTED_CLASHES.includes(c)), []);
    assert.deepEqual(parameterNameClashes(['/cases/{case_id}', '/cases/{id}/lea-referral', '/reviews/case/{case_id}']), ['/cases/{case_id|id}'], 'the check finds the clash it exists for');
    // Every templated name is a declared path parameter and vice versa.
    for (const [p, ops] of Object.entries(doc.paths)) {
      const inTemplate = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(ops)) {
        assert.deepEqual((op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name).sort(), inTemplate, `${method} ${p}`);
      }
    }
    for (const p of ['/cases/{case_id}', '/cases/{case_id}/lea-referral', '/reviews/case/{case_id}', '/reports/dossiers/{id}/verify', '/tasks/{task_id}']) assert.ok(doc.paths[p], p);
  });

  it('writes patterns that Python\'s re and JavaScript (with and without the u flag) compile, with nothing Go\'s RE2 lacks', async () => {
    const all = patterns(doc);
    assert.ok(all.length > 50, `${all.length} patterns`);
    const distinct = [...new Set(all.map((p) => p.pattern))];
    for (const pattern of distinct) {
      assert.doesNotThrow(() => new RegExp(pattern), pattern);
      assert.doesNotThrow(() => new RegExp(pattern, 'u'), pattern);
      // What RE2 (Go) and Python lack or read differently: Unicode property classes, \u escapes,
      // look-around, backreferences and named groups.
      assert.doesNotMatch(pattern, /\\[pP]\{|\\u[0-9a-fA-F{]|\(\?<?[=!]|\\[1-9]|\(\?P?</, pattern);
    }
    const python = path.join(path.dirname((await run(PYTHON_TOOLS, ['openapi-spec-validator'])).stdout.trim().split('\n').pop()!), 'python');
    const list = path.join(path.dirname(file), 'patterns.json');
    fs.writeFileSync(list, JSON.stringify(distinct));
    const compiled = await run(python, ['-c', 'import json, re, sys\nps = json.load(open(sys.argv[1]))\nfor p in ps: re.compile(p)\nprint(len(ps))', list]);
    assert.equal(compiled.code, 0, compiled.stderr);
    assert.equal(compiled.stdout.trim(), String(distinct.length));
  });

  it('checks a tag\'s Unicode letters in code and shows a portable pattern that accepts every valid tag', () => {
    const shown = new RegExp(patterns(doc).find((p) => p.at.includes('/tags/items'))!.pattern);
    for (const tag of ['café', '東京 2024', 'a.b_c:d/e-f', '١٢٣', 'x'.repeat(50)]) {
      assert.ok(TagSchema.safeParse(tag).success, tag);
      assert.ok(shown.test(tag), `the documented pattern accepts ${tag}`);
    }
    for (const tag of ['-x', 'a<b', '', ' a', 'x'.repeat(51), 'a\u00a0b', '🙂']) {
      const r = TagSchema.safeParse(tag);
      assert.ok(!r.success, JSON.stringify(tag));
      assert.equal(r.error.issues.length, 1, 'one issue per refused tag');
    }
  });

  it('documents every file it answers with a schema: bytes as string/binary, a JSON file as JSON, a byte range of JSON as no schema', () => {
    const missing: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          for (const [type, media] of Object.entries(response.content ?? {})) {
            const json = /^application\/([\w.-]+\+)?json\b/.test(type);
            if (json && status === '206') assert.deepEqual(media, {}, `${method} ${p} ${status} ${type}`);
            else if (!media.schema) missing.push(`${method} ${p} ${status} ${type}`);
            else if (!json) assert.ok(media.schema.$ref || media.schema.type === 'string', `${method} ${p} ${status} ${type}`);
          }
        }
      }
    }
    assert.deepEqual(missing, []);
    for (const p of ['/investigations/ssi/{scan_id}/evidence-bundle', '/investigations/ssi/{scan_id}/lea-package', '/investigations/ssi/{scan_id}/report.pdf', '/investigations/ssi/{scan_id}/wallets.xlsx']) {
      const content = doc.paths[p].get.responses['200'].content!;
      for (const media of Object.values(content)) assert.deepEqual(media.schema, { type: 'string', format: 'binary' }, p);
    }
  });
});
