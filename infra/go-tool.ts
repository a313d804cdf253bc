// Go programs the platform runs beside itself (the Temporal CLI, MinIO) are found the same way:
// an explicit path from the environment; the binary on PATH; the cache directory
// (~/.cache/fip/<name>-<version>/<binary>); then, for a tool that has one, a download of its
// released binary into that cache (seconds, and a bounded wait when there is no internet); else,
// when Go is installed, built once into that cache with `go install` from the module proxy
// (minutes; progress is printed). null when none of these works, so the caller can say what to do.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type Progress = (line: string) => void;

export interface GoTool {
  /** What people call it, for progress lines: "the Temporal CLI", "MinIO". */
  label: string;
  /** The executable's file name. */
  binary: string;
  /** `module/path/cmd@version` for `go install`. */
  goPackage: string;
  /** The cache directory's name under ~/.cache/fip: `temporal-1.5.1`. */
  cacheName: string;
  /** The environment variable that names an explicit path, for its error message. */
  envVar: string;
  /** What a build costs, said before it starts: "a few minutes". */
  buildCost: string;
  /**
   * Fetches the released binary into `target`, tried before a build: resolves to the URL it came
   * from, or null when it could not (after a progress line saying why).
   */
  download?: (target: string, progress: Progress) => Promise<string | null>;
}

/** A found binary and where it came from, in the words of the progress line: "found on PATH", "cache", ... */
export interface LocatedTool {
  path: string;
  source: string;
}

export function goToolCacheDir(cacheName: string): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'fip', cacheName);
}

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

export async function resolveGoTool(tool: GoTool, explicitPath: string | undefined, progress: Progress): Promise<string | null> {
  return (await locateGoTool(tool, explicitPath, progress))?.path ?? null;
}

export async function locateGoTool(tool: GoTool, explicitPath: string | undefined, progress: Progress): Promise<LocatedTool | null> {
  if (explicitPath) {
    if (!isExecutable(explicitPath)) throw new Error(`${tool.envVar}=${explicitPath} is not an executable file`);
    return { path: explicitPath, source: `from ${tool.envVar}` };
  }
  const found = onPath(tool.binary);
  if (found) return { path: found, source: 'found on PATH' };
  const cached = path.join(goToolCacheDir(tool.cacheName), tool.binary);
  if (isExecutable(cached)) return { path: cached, source: 'cache' };
  if (tool.download) {
    const url = await tool.download(cached, progress);
    if (url) return { path: cached, source: `downloaded from ${url}` };
  }
  const go = onPath('go');
  if (!go) return null;
  await buildWithGo(go, tool, cached, progress);
  return { path: cached, source: 'built with Go' };
}

async function buildWithGo(go: string, tool: GoTool, target: string, progress: Progress): Promise<void> {
  const goVersion = spawnSync(go, ['version'], { encoding: 'utf8' }).stdout.trim();
  const parent = path.dirname(path.dirname(target));
  fs.mkdirSync(parent, { recursive: true });
  // Build into a private directory and rename, so that two builds at once never leave a half binary.
  const staging = fs.mkdtempSync(path.join(parent, `.${tool.binary}-build-`));
  progress(`${tool.label} not found: building ${tool.goPackage} with ${goVersion} (a one-time step of ${tool.buildCost})...`);
  const started = Date.now();
  const ticker = setInterval(() => progress(`  still building ${tool.label} (${Math.round((Date.now() - started) / 1000)} s)...`), 20_000);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(go, ['install', tool.goPackage], {
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
    fs.renameSync(path.join(staging, tool.binary), target);
    progress(`${tool.label} built in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
  } finally {
    clearInterval(ticker);
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
