// Finds the `temporal` CLI binary, in this order: TEMPORAL_CLI_PATH; `temporal` on PATH; the cache
// directory (~/.cache/fip/temporal-<version>); else, when Go is installed, builds it once into that
// cache with `go install` (minutes; progress is printed). Returns null when none of these works, so
// the caller can fall back to the Temporal SDK's own download (machines with internet).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const TEMPORAL_CLI_VERSION = '1.5.1';
const GO_PACKAGE = `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`;

export function temporalCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'fip', `temporal-${TEMPORAL_CLI_VERSION}`);
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

export type Progress = (line: string) => void;

export async function resolveTemporalCli(explicitPath: string | undefined, progress: Progress): Promise<string | null> {
  if (explicitPath) {
    if (!isExecutable(explicitPath)) throw new Error(`TEMPORAL_CLI_PATH=${explicitPath} is not an executable file`);
    return explicitPath;
  }
  const found = onPath('temporal');
  if (found) return found;
  const cached = path.join(temporalCacheDir(), 'temporal');
  if (isExecutable(cached)) return cached;
  const go = onPath('go');
  if (!go) return null;
  await buildWithGo(go, cached, progress);
  return cached;
}

async function buildWithGo(go: string, target: string, progress: Progress): Promise<void> {
  const goVersion = spawnSync(go, ['version'], { encoding: 'utf8' }).stdout.trim();
  // Build into a private directory and rename, so that two builds at once never leave a half binary.
  fs.mkdirSync(path.dirname(path.dirname(target)), { recursive: true });
  const staging = fs.mkdtempSync(path.join(path.dirname(path.dirname(target)), '.temporal-build-'));
  progress(`Temporal CLI not found: building ${GO_PACKAGE} with ${goVersion} (a one-time step of a few minutes)...`);
  const started = Date.now();
  const ticker = setInterval(() => progress(`  still building the Temporal CLI (${Math.round((Date.now() - started) / 1000)} s)...`), 20_000);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(go, ['install', GO_PACKAGE], {
        env: { ...process.env, GOBIN: staging, GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let tail = '';
      const onData = (chunk: Buffer) => {
        const text = chunk.toString();
        tail = (tail + text).slice(-4000);
        for (const line of text.split('\n')) if (line.trim()) progress(`  go: ${line.trim()}`);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`go install failed (exit ${code}):\n${tail}`))));
    });
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(path.join(staging, 'temporal'), target);
    progress(`Temporal CLI built in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
  } finally {
    clearInterval(ticker);
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
