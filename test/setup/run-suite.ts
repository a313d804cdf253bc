// `npm test`: the whole suite on one PostgreSQL and one Temporal dev server, in two phases.
//  1. Every test file that keeps to its own data runs in parallel (mocha --parallel, FIP_TEST_JOBS
//     processes; most of a test's time is spent waiting on Temporal, Chromium and PostgreSQL, so
//     more processes than cores keep the cores busy).
//  2. The files listed in serial-files.ts (they assert on totals or on everything a table holds, so
//     any other writer would change their answer) run one after another, alone.
// The infrastructure is started here once (the root hooks see FIP_TEST_INFRA=external and leave it
// alone); each phase's own closing line is replaced by one line for the whole run, the last line
// CI services read: "tests: N passed, N failed, N skipped".
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ensureConsoleBuilt } from '../../infra/console-build';
import { startEphemeralInfrastructure } from '../../app/ephemeral-infrastructure';
import { SERIAL_TEST_FILES, SLOW_TEST_FILES_FIRST } from './serial-files';

const ROOT = path.resolve(__dirname, '..', '..');
const SUMMARY = /^tests: (\d+) passed, (\d+) failed, (\d+) skipped$/;

interface Counts { passed: number; failed: number; skipped: number; exitCode: number }

function runMocha(args: string[], env: NodeJS.ProcessEnv): Promise<Counts> {
  return new Promise((resolve, reject) => {
    const mocha = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
    const child = spawn(process.execPath, [mocha, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    const counts: Counts = { passed: 0, failed: 0, skipped: 0, exitCode: 1 };
    let summarised = false;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = SUMMARY.exec(line);
      if (m) {
        summarised = true;
        [counts.passed, counts.failed, counts.skipped] = [Number(m[1]), Number(m[2]), Number(m[3])];
      } else process.stdout.write(`${line}\n`);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      counts.exitCode = code ?? 1;
      // A phase that died before its summary counts as one failure, never as a pass.
      if (!summarised) counts.failed = Math.max(counts.failed, 1);
      resolve(counts);
    });
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const all = readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.posix.join('test', f.split(path.sep).join('/')))
    .sort()
    // `npm test -- test/exports test/cases/cases-api.test.ts`: only the files under those paths, in the same two phases.
    .filter((f) => process.argv.length <= 2 || process.argv.slice(2).some((p) => f === p || f.startsWith(`${p.replace(/\/+$/, '')}/`)));
  const serialSet = new Set<string>(SERIAL_TEST_FILES);
  const missing = [...SERIAL_TEST_FILES, ...SLOW_TEST_FILES_FIRST].filter((f) => !existsSync(path.join(ROOT, f)));
  if (missing.length) throw new Error(`test/setup/serial-files.ts names files that do not exist: ${missing.join(', ')}`);
  if (all.length === 0) throw new Error(`no test file under ${process.argv.slice(2).join(', ')}`);
  const rank = (f: string) => {
    const i = SLOW_TEST_FILES_FIRST.indexOf(f);
    return i < 0 ? SLOW_TEST_FILES_FIRST.length : i;
  };
  // mocha --parallel hands files to its processes in the order given: SLOW_TEST_FILES_FIRST, then alphabetical.
  const parallel = all.filter((f) => !serialSet.has(f)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const serial = all.filter((f) => serialSet.has(f));
  const jobs = Number(process.env.FIP_TEST_JOBS ?? Math.max(2, Math.min(4, os.availableParallelism() + 1)));

  const [infra] = await Promise.all([startEphemeralInfrastructure({ name: 'fip-test', logLevel: process.env.FIP_TEST_LOG_LEVEL }), ensureConsoleBuilt()]);
  process.stderr.write(`test infrastructure up in ${Date.now() - started} ms (${infra.temporalAddress}); ${parallel.length} files in ${jobs} parallel processes, then ${serial.length} alone\n`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FIP_TEST_INFRA: 'external',
    DATABASE_URL: infra.databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    SVC_DATA_DIR: path.join(infra.dir, 'data'),
  };
  const phases: Counts[] = [];
  try {
    if (parallel.length) phases.push(await runMocha(['--parallel', '--jobs', String(jobs), ...parallel], env));
    if (serial.length) {
      process.stdout.write(`\n== the files that run alone (test/setup/serial-files.ts)\n`);
      phases.push(await runMocha(serial, env));
    }
  } finally {
    await infra.stop();
  }
  const total = phases.reduce((a, p) => ({ passed: a.passed + p.passed, failed: a.failed + p.failed, skipped: a.skipped + p.skipped, exitCode: a.exitCode || p.exitCode }), { passed: 0, failed: 0, skipped: 0, exitCode: 0 });
  process.stdout.write(`\nwhole suite in ${Math.round((Date.now() - started) / 1000)} s\n`);
  process.stdout.write(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
  process.exitCode = total.failed > 0 || total.exitCode !== 0 ? 1 : 0;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.stdout.write('\ntests: 0 passed, 1 failed, 0 skipped\n');
  process.exitCode = 1;
});
