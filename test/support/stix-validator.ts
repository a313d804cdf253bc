// The OASIS STIX 2.1 validator (stix2-validator 3.2.0 from PyPI, in the project's pinned virtual
// environment: scripts/python-tools.sh) run in strict mode on a bundle. Its findings come back one
// per line; the only accepted one is the standard's own deterministic UUIDv5 id of a custom SCO,
// which strict mode reports as "not a valid UUIDv4 ID" (a known false finding): exactly that
// message, for that object's own id, and nothing broader.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const PYTHON_TOOLS = path.join(__dirname, '..', '..', 'scripts', 'python-tools.sh');

let executable: Promise<string> | null = null;

export function stixValidatorExecutable(): Promise<string> {
  executable ??= promisify(execFile)(PYTHON_TOOLS, ['stix2-validator'], { timeout: 300_000 }).then(({ stdout }) => stdout.trim().split('\n').pop()!);
  return executable;
}

/** `<type>--<uuid>: {103} Given ID value <type>--<uuid> is not a valid UUIDv4 ID.` for an SCO's UUIDv5 id. */
const ACCEPTED = /^\[X\] ([a-z0-9-]+--[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}): \{103\} Given ID value \1 is not a valid UUIDv4 ID\.$/;

export interface StixValidation {
  /** Findings other than the accepted one (errors and warnings), one line each. */
  findings: string[];
  /** How many accepted UUIDv5 findings were filtered. */
  acceptedUuidV5: number;
  output: string;
}

export async function validateStrict(bundle: string | object): Promise<StixValidation> {
  const exe = await stixValidatorExecutable();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-stix-'));
  const file = path.join(dir, 'bundle.json');
  fs.writeFileSync(file, typeof bundle === 'string' ? bundle : JSON.stringify(bundle));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(exe, ['--strict', file], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (err as { code?: number | string }).code : 0;
        // 0: valid; 2: invalid (findings on stdout); anything else: the validator itself failed.
        if (code !== 0 && code !== 2) reject(new Error(`stix2_validator failed (${String(code)}): ${stderr || stdout}`));
        else resolve(stdout);
      });
    });
    const lines = output.split('\n').map((l) => l.trim()).filter((l) => /^\[[X!]\]/.test(l) && !/^\[X\] STIX JSON: Invalid$/.test(l));
    const accepted = lines.filter((l) => ACCEPTED.test(l) && l.startsWith('[X] cryptocurrency-wallet--'));
    return { findings: lines.filter((l) => !accepted.includes(l)), acceptedUuidV5: accepted.length, output };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
