// Webrecorder's WACZ validator (PyPI `wacz`, pinned in scripts/python-tools.sh): the independent
// check that an evidence bundle is a valid WACZ 1.1.1.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const PYTHON_TOOLS = path.join(__dirname, '..', '..', 'scripts', 'python-tools.sh');

/** Installs the pinned `wacz` if it is missing and returns its executable; a missing Python is an error. */
export async function waczExecutable(): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(PYTHON_TOOLS, ['wacz'], { timeout: 300_000 });
    return stdout.trim().split('\n').pop()!;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`cannot provide wacz through scripts/python-tools.sh: ${e.stderr?.trim() || e.message}`, { cause: err });
  }
}

/** `wacz validate -f <file>`: exit code and output. */
export async function waczValidate(file: string): Promise<{ code: number; output: string }> {
  const exe = await waczExecutable();
  return new Promise((resolve) => {
    execFile(exe, ['validate', '-f', file], { timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/**
 * The anonymous wacz-auth signature of a WACZ checked with pyca/cryptography (test/support/
 * wacz-anonymous-verify.py, run by the `wacz-auth` environment's python, where authsign brings it).
 */
export async function waczAnonymousVerify(file: string): Promise<{ code: number; verified: boolean; fingerprint?: string; output: string }> {
  const { stdout } = await promisify(execFile)(PYTHON_TOOLS, ['wacz-auth'], { timeout: 300_000 });
  const python = path.join(path.dirname(stdout.trim().split('\n').pop()!), 'python');
  return new Promise((resolve) => {
    execFile(python, [path.join(__dirname, 'wacz-anonymous-verify.py'), file], { timeout: 120_000 }, (err, out, errOut) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      let parsed: { verified?: boolean; fingerprint?: string } = {};
      try {
        parsed = JSON.parse(out.trim().split('\n').pop() ?? '{}') as typeof parsed;
      } catch {
        // reported through output
      }
      resolve({ code, verified: parsed.verified === true, fingerprint: parsed.fingerprint, output: `${out}${errOut}` });
    });
  });
}

