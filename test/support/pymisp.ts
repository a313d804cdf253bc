// PyMISP (pymisp 2.5.34.4 from PyPI, in the project's pinned virtual environment:
// scripts/python-tools.sh) loading MISP events: test/support/pymisp-load.py prints what
// MISPEvent().load made of each one (attributes, objects, tags), its manifest entry and the md5
// hashes PyMISP's own feed output computes. Any warning PyMISP raises while loading fails the load.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const PYTHON_TOOLS = path.join(__dirname, '..', '..', 'scripts', 'python-tools.sh');
const LOADER = path.join(__dirname, 'pymisp-load.py');

let python: Promise<string> | null = null;

export function pymispPython(): Promise<string> {
  python ??= promisify(execFile)(PYTHON_TOOLS, ['pymisp'], { timeout: 300_000 }).then(({ stdout }) => stdout.trim().split('\n').pop()!);
  return python;
}

export interface PyMispAttribute {
  uuid: string;
  type: string;
  category: string;
  value: string;
  to_ids: boolean;
  object_relation: string | null;
}

export interface PyMispEvent {
  uuid: string;
  info: string;
  date: string;
  threat_level_id: number;
  analysis: number;
  distribution: number;
  tags: string[];
  attributes: PyMispAttribute[];
  objects: Array<{ uuid: string; name: string; template_uuid: string; template_version: string; known_relations: string[]; attributes: PyMispAttribute[] }>;
  manifest: Record<string, { Orgc: { name: string; uuid: string }; Tag: Array<{ name: string }>; info: string; date: string; analysis: number; threat_level_id: number; timestamp: number }>;
  hashes: string[];
}

/** Loads each event (MISP JSON text or object) with PyMISP. */
export async function loadWithPyMisp(events: Array<string | object>): Promise<PyMispEvent[]> {
  const exe = await pymispPython();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-misp-'));
  const file = path.join(dir, 'events.json');
  fs.writeFileSync(file, `[${events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join(',')}]`);
  try {
    const { stdout } = await promisify(execFile)(exe, [LOADER, file], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(stdout) as PyMispEvent[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
