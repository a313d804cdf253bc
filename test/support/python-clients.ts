// Python clients that partners run, in the project's pinned virtual environment
// (scripts/python-tools.sh taxii2-client: the OASIS taxii2-client and requests): the tests run a
// small script of test/support/ with that environment's python against the loopback server and
// read its JSON answer from stdout.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const PYTHON_TOOLS = path.join(__dirname, '..', '..', 'scripts', 'python-tools.sh');

let python: Promise<string> | null = null;

/** The python of the taxii2-client environment (installed once, pinned). */
export function taxiiClientPython(): Promise<string> {
  python ??= promisify(execFile)(PYTHON_TOOLS, ['taxii2-client'], { timeout: 300_000 }).then(({ stdout }) => stdout.trim().split('\n').pop()!);
  return python;
}

/** Runs test/support/<script> with that python and parses its stdout as JSON (stderr in the error when it fails). */
export async function runPythonClient<T = unknown>(script: string, args: string[], env: Record<string, string> = {}): Promise<T> {
  const exe = await taxiiClientPython();
  const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
    execFile(exe, [path.join(__dirname, script), ...args], { timeout: 170_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } }, (err, out, stderr) => {
      if (err) reject(new Error(`${script} failed: ${err.message}\n${stderr}`));
      else resolve({ stdout: out });
    });
  });
  return JSON.parse(stdout) as T;
}
