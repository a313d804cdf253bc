// docs/configuration.md is generated from the configuration schema: it must be current, every
// setting must say what it means, and every environment variable the platform's own code reads
// must be documented there (a setting of the schema, or a variable outside it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { firstDifference } from '../../scripts/generate-sdk-types';
import { CONFIG_REFERENCE_PATH, OTHER_VARIABLES, configSettings, generateConfigReference } from '../../scripts/generate-config-reference';

const ROOT = path.resolve(__dirname, '..', '..');
/** Where the platform itself reads the environment (tests and benches document theirs apart). */
const PRODUCT_DIRS = ['app', 'api', 'services', 'domain', 'db', 'infra', 'cli', 'bin', 'config', 'workers', 'activities', 'workflows', 'scripts', '.ci'];
/** The operating system's own variables, which need no documentation here. */
const SYSTEM_VARIABLES = new Set(['HOME', 'PATH', 'TMPDIR', 'USER', 'GOFLAGS', 'DEBIAN_FRONTEND', 'CI']);

function variablesReadByProductCode(): Map<string, string> {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...PRODUCT_DIRS], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|js|sh)$/.test(f) || f === '.ci/run');
  const found = new Map<string, string>();
  for (const file of files) {
    if (!fs.existsSync(path.join(ROOT, file))) continue;
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const shell = file.endsWith('.sh') || file === '.ci/run';
    const re = shell ? /\$\{([A-Z][A-Z0-9_]*)[:}-]/g : /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g;
    for (const m of text.matchAll(re)) {
      const name = m[1] ?? m[2]!;
      if (!found.has(name)) found.set(name, file);
    }
  }
  return found;
}

describe('configuration reference (docs/configuration.md)', () => {
  it('is the page the generator writes from the current schema (npm run docs:config)', () => {
    const committed = fs.readFileSync(CONFIG_REFERENCE_PATH, 'utf8');
    assert.equal(firstDifference(committed, generateConfigReference()), null, 'docs/configuration.md is stale: run npm run docs:config');
  });

  it('gives every setting a meaning and lists each variable once', () => {
    const settings = configSettings();
    assert.ok(settings.length >= 60, `only ${settings.length} settings found`);
    for (const s of settings) assert.ok(s.meaning.trim().length > 3, `${s.variable} has no meaning`);
    const names = [...settings.map((s) => s.variable), ...OTHER_VARIABLES.map((v) => v.name)];
    assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), [], 'variables listed twice');
  });

  it('documents every environment variable the platform reads outside the schema', () => {
    const documented = new Set([...configSettings().map((s) => s.variable), ...OTHER_VARIABLES.map((v) => v.name)]);
    const read = variablesReadByProductCode();
    assert.ok(read.has('TEMPORAL_CLI_DOWNLOAD_URL'), 'the scan found no known variable: it reads nothing');
    const missing = [...read].filter(([name]) => !documented.has(name) && !SYSTEM_VARIABLES.has(name)).map(([name, file]) => `${name} (${file})`);
    assert.deepEqual(missing, [], `read but not in docs/configuration.md: add them to OTHER_VARIABLES in scripts/generate-config-reference.ts`);
  });
});
