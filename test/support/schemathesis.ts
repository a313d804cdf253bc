// Schemathesis (PyPI) from the project's own pinned virtual environment (scripts/python-tools.sh),
// run against a live API, with its NDJSON event report read back into counts and failures.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const PYTHON_TOOLS = path.join(__dirname, '..', '..', 'scripts', 'python-tools.sh');

/** Installs the pinned Schemathesis if it is missing and returns its executable; a missing Python is an error. */
export async function schemathesisExecutable(): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(PYTHON_TOOLS, ['schemathesis'], { timeout: 300_000 });
    return stdout.trim().split('\n').pop()!;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`cannot provide Schemathesis through scripts/python-tools.sh: ${e.stderr?.trim() || e.message}`, { cause: err });
  }
}

export interface FuzzRun {
  label: string;
  exitCode: number | null;
  /** The CLI's own output (summary, failures with curl reproductions). */
  output: string;
  operations: number;
  /** "METHOD /path" of every operation that ran, sorted. */
  operationLabels: string[];
  testCases: number;
  /** Scenarios of the stateful phase (chains of calls linked through responses). */
  statefulScenarios: number;
  /** Responses checked, by status class ("2xx", "4xx", ...). */
  responses: Record<string, number>;
  checks: { passed: number; failed: number };
  /**
   * Errors that stopped a phase of an operation (Schemathesis' NonFatalError events): read timeouts,
   * refused or reset connections, a server that stopped answering. Any of these fails the run.
   */
  errors: string[];
  /**
   * The same events when they are a defect of the tool's own interpreter, not of the platform:
   * CPython (3.11.7 here) can raise "AST constructor recursion depth mismatch" when two threads
   * (--workers 2) build ASTs at once (CPython gh-106905). The phase it hits is lost for that one
   * operation; the others run, so the test reports them and does not fail on them alone.
   */
  interpreterErrors: string[];
  /** One line per distinct failure: operation, check, status, reproduction. */
  failures: string[];
  /** Schemathesis' event report of the run (every request and check). */
  ndjson?: string;
}

interface Interaction { request: { method: string; uri: string; body?: unknown }; response?: { status_code: number } | null }
interface CheckResult { name: string; status: string; failure_info?: { failure: { title: string; message: string; operation: string } } }
interface ScenarioFinished {
  recorder: { label: string; checks?: Record<string, CheckResult[]>; interactions?: Record<string, Interaction> };
}

export async function runSchemathesis(options: {
  executable: string;
  label: string;
  schemaUrl: string;
  headers: Record<string, string>;
  checks: string[];
  maxExamples: number;
  phases: string[];
  seed: number;
}): Promise<FuzzRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-fuzz-'));
  const ndjson = path.join(dir, 'events.ndjson');
  const args = [
    'run', options.schemaUrl,
    '--checks', options.checks.join(','),
    '--phases', options.phases.join(','),
    '--max-examples', String(options.maxExamples),
    '--seed', String(options.seed),
    '--workers', '2',
    // Seconds per request: generous for a loaded CI machine (three test processes on two cores);
    // an answer slower than this is reported as an error and fails the run.
    '--request-timeout', '60',
    '--suppress-health-check', 'too_slow,filter_too_much',
    '--report', 'ndjson', '--report-ndjson-path', ndjson,
    '--no-color',
    ...Object.entries(options.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
  ];
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    // cwd: the run's own directory, so Schemathesis' example database never lands in the checkout.
    const child = spawn(options.executable, args, { cwd: dir, env: { ...process.env, SCHEMATHESIS_HOOKS: '', NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, output: out }));
  });
  const run: FuzzRun = { label: options.label, exitCode: code, output, operations: 0, operationLabels: [], testCases: 0, statefulScenarios: 0, responses: {}, checks: { passed: 0, failed: 0 }, failures: [], errors: [], interpreterErrors: [] };
  const operations = new Set<string>();
  const seen = new Set<string>();
  const lines = fs.existsSync(ndjson) ? fs.readFileSync(ndjson, 'utf8').split('\n').filter(Boolean) : [];
  for (const line of lines) {
    const event = JSON.parse(line) as Record<string, unknown>;
    const error = event.NonFatalError as { label?: string; phase?: string; value?: { type?: string; message?: string } } | undefined;
    if (error) {
      const line = `${error.label ?? '?'} (${error.phase ?? '?'} phase): ${error.value?.type ?? 'error'}: ${(error.value?.message ?? '').split('\n')[0]}`;
      if (error.value?.type === 'SystemError' && /AST constructor recursion depth mismatch/.test(error.value.message ?? '')) run.interpreterErrors.push(line);
      else run.errors.push(line);
      continue;
    }
    const finished = event.ScenarioFinished as ScenarioFinished | undefined;
    if (!finished) continue;
    const rec = finished.recorder;
    if (rec.label === 'Stateful tests') run.statefulScenarios++;
    else operations.add(rec.label);
    for (const [caseId, interaction] of Object.entries(rec.interactions ?? {})) {
      run.testCases++;
      const status = interaction.response?.status_code;
      const cls = status === undefined ? 'no answer' : `${String(status)[0]}xx`;
      run.responses[cls] = (run.responses[cls] ?? 0) + 1;
      for (const check of rec.checks?.[caseId] ?? []) {
        if (check.status === 'success') run.checks.passed++;
        else if (check.status === 'failure') {
          run.checks.failed++;
          const f = check.failure_info?.failure;
          const key = `${rec.label} ${check.name} ${f?.title ?? ''} ${status}`;
          if (seen.has(key)) continue;
          seen.add(key);
          run.failures.push(`${rec.label}: ${check.name} (${f?.title ?? 'failure'}) -> ${status}: ${(f?.message ?? '').split('\n')[0]} [${interaction.request.method} ${interaction.request.uri}${interaction.request.body === undefined ? '' : ` body ${JSON.stringify(interaction.request.body).slice(0, 300)}`}]`);
        }
      }
    }
  }
  run.operations = operations.size;
  run.operationLabels = [...operations].sort();
  run.ndjson = ndjson;
  return run;
}
