// The XARF project's Python library (PyPI `xarf`, pinned in scripts/python-tools.sh; it ships the
// xarf-spec schemas): test/support/xarf-validate.py parses reports with it, the way an abuse desk's
// tooling would.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const PYTHON_TOOLS = path.join(__dirname, '..', '..', 'scripts', 'python-tools.sh');

export interface XarfParse {
  valid: boolean;
  errors: Array<{ field: string; message: string }>;
  type: string | null;
}

/** Each report as the xarf library reads it. */
export async function parseWithPythonXarf(reports: ReadonlyArray<Record<string, unknown>>): Promise<XarfParse[]> {
  const { stdout: tool } = await promisify(execFile)(PYTHON_TOOLS, ['xarf'], { timeout: 300_000 });
  const python = tool.trim().split('\n').pop()!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-xarf-'));
  try {
    const files = reports.map((r, i) => {
      const file = path.join(dir, `report-${i}.json`);
      fs.writeFileSync(file, JSON.stringify(r));
      return file;
    });
    const { stdout } = await promisify(execFile)(python, [path.join(__dirname, 'xarf-validate.py'), ...files], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(stdout) as XarfParse[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
