// The layering rules of docs/architecture.md, checked on the code itself: what each layer may import,
// what activities/ may export, how workflows are started, how long a file may grow, and what
// comments may cite. A rule broken here is a rule a newcomer could no longer trust.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const PRODUCT = ['app', 'api', 'services', 'domain', 'db', 'infra', 'cli', 'bin', 'config', 'workers', 'activities', 'workflows', 'scripts', 'console/src', 'sdk/src'];
const GENERATED = /^sdk\/src\/generated\//;

function tracked(...dirs: string[]): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...dirs], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && fs.existsSync(path.join(ROOT, f)) && !GENERATED.test(f));
}

const source = (dirs: string[]) => tracked(...dirs).filter((f) => /\.(ts|tsx|js|mjs|cjs)$/.test(f));
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Import {
  spec: string;
  /** `import type …` or `export type … from`: erased at compile time. */
  typeOnly: boolean;
  /** The repository path a relative import names (without extension), else null. */
  target: string | null;
}

/** Every name in `import { a, type B }` is a type: the import is erased like `import type`. */
const onlyTypes = (braces: string | undefined) => braces !== undefined && braces.split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()));

function imports(file: string): Import[] {
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:(?:\{([^}]*)\}|[^'"`;{]*?)\s*from\s+)?['"]([^'"]+)['"]|\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;
  return [...read(file).matchAll(re)].map((m) => {
    const spec = m[4] ?? m[5]!;
    return {
      spec,
      typeOnly: Boolean(m[2]) || (m[1] === 'import' && onlyTypes(m[3])),
      target: spec.startsWith('.') ? path.normalize(path.join(path.dirname(file), spec)) : null,
    };
  });
}

const inLayer = (target: string | null, ...layers: string[]) => target !== null && layers.some((l) => target === l || target.startsWith(`${l}/`));

describe('layout rules (docs/architecture.md)', () => {
  it('routes, route schemas and CLI commands import nothing from db/', () => {
    const files = source(['api/routes', 'cli/commands']);
    assert.ok(files.length > 30, 'no route files found');
    const offending = files.flatMap((f) => imports(f).filter((i) => inLayer(i.target, 'db')).map((i) => `${f} -> ${i.spec}`));
    assert.deepEqual(offending, []);
  });

  it('activities/ holds create…Activities factories and nothing else', () => {
    const files = source(['activities']).filter((f) => f !== 'activities/index.ts');
    assert.ok(files.length > 5);
    const offending: string[] = [];
    for (const f of files) {
      if (!/-activities\.ts$/.test(f)) offending.push(`${f}: not named <thing>-activities.ts`);
      const text = read(f);
      const fns = [
        ...text.matchAll(/^export\s+(?:async\s+)?function\s*\*?\s*(\w+)/gm),
        ...text.matchAll(/^export\s+const\s+(\w+)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>/gm),
        ...text.matchAll(/^export\s+(?:class)\s+(\w+)/gm),
      ].map((m) => m[1]!);
      for (const name of fns) if (!/^create\w+Activities$/.test(name)) offending.push(`${f}: exports ${name}`);
    }
    assert.deepEqual(offending, []);
  });

  it('workflows import only @temporalio/workflow, @temporalio/common, domain/, other workflow files and types', () => {
    const offending = source(['workflows']).flatMap((f) =>
      imports(f)
        .filter((i) => !i.typeOnly && i.spec !== '@temporalio/workflow' && i.spec !== '@temporalio/common' && !inLayer(i.target, 'domain', 'workflows'))
        .map((i) => `${f} -> ${i.spec}`),
    );
    assert.deepEqual(offending, []);
  });

  it('domain/ does no I/O and imports no outer layer', () => {
    const io = /^(?:node:)?(?:fs|fs\/promises|child_process|http|https|http2|dns|dgram|tls|worker_threads)$|^(?:knex|pg|pg-copy-streams|koa|@koa\/router|playwright-core|sharp|exceljs|archiver|nodemailer|pino|@anthropic-ai\/sdk|@temporalio\/(?:client|worker|activity))$|^@aws-sdk\//;
    const offending = source(['domain']).flatMap((f) =>
      imports(f)
        .filter((i) => !i.typeOnly && (io.test(i.spec) || inLayer(i.target, 'db', 'infra', 'services', 'api', 'activities', 'workflows', 'app', 'workers', 'cli', 'config')))
        .map((i) => `${f} -> ${i.spec}`),
    );
    assert.deepEqual(offending, []);
  });

  it('the platform starts workflows by function reference, never by a name string', () => {
    const offending = source(PRODUCT).filter((f) => /workflow\.(?:start|execute|signalWithStart)\(\s*['"`]|workflowType:\s*['"`]/.test(read(f)));
    assert.deepEqual(offending, []);
  });

  it('no product file passes 500 lines', () => {
    const files = tracked(...PRODUCT).filter((f) => /\.(ts|tsx|js|mjs|cjs|css|sh)$/.test(f));
    assert.ok(files.length > 300);
    const long = files.map((f) => [f, read(f).split('\n').length] as const).filter(([, n]) => n > 500).map(([f, n]) => `${f}: ${n} lines`);
    assert.deepEqual(long, []);
  });

  it('comments cite no tracker issue and no file outside the repository', () => {
    const files = tracked(...PRODUCT, 'test', 'bench', '.ci').filter((f) => /\.(ts|tsx|js|mjs|cjs|sh|css|html)$/.test(f) || f === '.ci/run');
    const offending: string[] = [];
    for (const f of files) {
      read(f)
        .split('\n')
        .forEach((line, i) => {
          if (/\bissues? \d+\b|\(#\d+\)|\bshared\/(?:DATA-MODEL|spec|reference)|\.\.\/shared\//i.test(line)) offending.push(`${f}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(offending, []);
  });
});
