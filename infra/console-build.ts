// Builds the analysts' console (console/, React + Vite) into console/dist, which the API serves at
// /console (api/routes/console/console-routes.ts). `npm run build:console` always builds; `npm start`,
// `npm run api` and the test setup call ensureConsoleBuilt(), which builds only when the output is
// missing or older than a source file (console/ and the SDK it imports), so a fresh clone serves
// the console after `npm install && npm start` without a separate step.
//
// Vite runs in a child process (it is an ES module with native rolldown bindings; a failure there
// must not take the API down with it) and writes to a private directory that then replaces
// console/dist, so two processes building at once never serve a half-written bundle.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
export const CONSOLE_DIR = path.join(ROOT, 'console');
export const CONSOLE_DIST = path.join(CONSOLE_DIR, 'dist');
const SOURCES = [path.join(CONSOLE_DIR, 'src'), path.join(CONSOLE_DIR, 'index.html'), path.join(CONSOLE_DIR, 'vite.config.mts'), path.join(ROOT, 'sdk', 'src')];

function newestMtime(p: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** True when console/dist/index.html is missing or older than any console (or SDK) source file. */
export function consoleBuildIsStale(): boolean {
  let built: number;
  try {
    built = fs.statSync(path.join(CONSOLE_DIST, 'index.html')).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((s) => newestMtime(s) > built);
}

export class ConsoleBuildError extends Error {}

/** Runs `vite build` for the console; resolves when console/dist holds the new bundle. */
export async function buildConsole(): Promise<void> {
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  const out = path.join(CONSOLE_DIR, `.dist-${process.pid}-${Date.now()}`);
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        process.execPath,
        [vite, 'build', '--config', path.join(CONSOLE_DIR, 'vite.config.mts'), '--outDir', out, '--emptyOutDir'],
        { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 16 * 1024 * 1024 },
        (err, _stdout, stderr) => {
          if (err) reject(new ConsoleBuildError(`vite build of the console failed: ${stderr.trim().split('\n').slice(-15).join('\n') || err.message}`));
          else resolve();
        },
      );
    });
    // Swap: the old bundle moves aside and is removed after the new one is in place.
    const old = `${out}-old`;
    try {
      fs.renameSync(CONSOLE_DIST, old);
    } catch {
      // no previous bundle
    }
    try {
      fs.renameSync(out, CONSOLE_DIST);
    } catch (err) {
      // Another process put its bundle there first: that one is as fresh as ours.
      if (!fs.existsSync(path.join(CONSOLE_DIST, 'index.html'))) throw err;
    }
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** Builds the console when its bundle is missing or stale; returns whether it built. */
export async function ensureConsoleBuilt(): Promise<boolean> {
  if (!consoleBuildIsStale()) return false;
  await buildConsole();
  return true;
}
