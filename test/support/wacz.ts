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
