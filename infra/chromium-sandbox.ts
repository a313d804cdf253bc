// The crawler's Chromium opens hostile pages, so it runs with its own sandbox on (user namespaces and
// seccomp-bpf around every renderer), never with --no-sandbox. Chromium refuses its sandbox as root,
// so when the platform runs as root (npm start, CI) the browser runs as the unprivileged system user
// `fip-chromium` (created if missing), the way PostgreSQL runs as `postgres`
// (infra/embedded-postgres.ts): Playwright starts infra/chromium-as-user.sh, which hands it the
// browser profile and execs Chromium as that user. That user must be able to run the executable:
// the npm package's browser is unpacked root-only (mode 0700 in the temporary directory), so it is
// copied once to /var/cache/fip/chromium/<key>/, root-owned and read-only to others.
//
// Whether the sandbox can run here is checked at start-up (an unprivileged `unshare --user`): where
// the kernel or the container refuses user namespaces to unprivileged users, start-up says so and
// the crawler refuses to browse unless SVC_CRAWLER__ALLOW_UNSANDBOXED says to go on without it.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedChromium } from './chromium';

export const CHROMIUM_USER = 'fip-chromium';
export const CHROMIUM_COPY_ROOT = '/var/cache/fip/chromium';
const WRAPPER = path.join(__dirname, 'chromium-as-user.sh');

export interface RunAs {
  user: string;
  uid: number;
  gid: number;
}

export interface ChromiumSandbox {
  /** The unprivileged user Chromium runs as (the platform is root), or null: as this process's user. */
  runAs: RunAs | null;
  /** Chromium's sandbox can run here (user namespaces for the user it runs as). */
  available: boolean;
  /** Why it cannot, when it cannot. */
  problem: string | null;
}

export interface SandboxCheckOptions {
  /** The user to run as when root; default fip-chromium. */
  user?: string;
  /** Answers null when `runAs` (null: this process) may create a user namespace, else why not. Tests inject one. */
  probe?: (runAs: RunAs | null) => string | null;
}

/** The user (created if missing) and whether Chromium's sandbox can run for it. Synchronous and cheap. */
export function checkChromiumSandbox(options: SandboxCheckOptions = {}): ChromiumSandbox {
  let runAs: RunAs | null = null;
  if (process.getuid?.() === 0) {
    try {
      runAs = systemUser(options.user ?? CHROMIUM_USER);
    } catch (err) {
      return { runAs: null, available: false, problem: err instanceof Error ? err.message : String(err) };
    }
  }
  const problem = (options.probe ?? probeUserNamespaces)(runAs);
  return { runAs, available: problem === null, problem };
}

/** One line for start-up output. */
export function describeChromiumSandbox(sandbox: ChromiumSandbox, allowUnsandboxed: boolean): string {
  const who = sandbox.runAs ? `as the user ${sandbox.runAs.user} (uid ${sandbox.runAs.uid})` : 'as this process\'s user';
  if (sandbox.available) return `crawler browser sandboxed, ${who}`;
  return allowUnsandboxed
    ? `crawler browser WITHOUT its sandbox, ${who} (SVC_CRAWLER__ALLOW_UNSANDBOXED): ${sandbox.problem}`
    : `crawler browser refuses to start: ${sandbox.problem}. Investigations fail until the sandbox can run, or SVC_CRAWLER__ALLOW_UNSANDBOXED=true accepts browsing hostile pages without it`;
}

/** A system user for the browser, created like the embedded PostgreSQL's `postgres` user. */
function systemUser(user: string): RunAs {
  const lookup = (): RunAs | null => {
    try {
      return {
        user,
        uid: Number(execFileSync('id', ['-u', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
        gid: Number(execFileSync('id', ['-g', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
      };
    } catch {
      return null;
    }
  };
  const found = lookup();
  if (found) return found;
  try {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', '--user-group', user], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    // Another process may have created it meanwhile.
    const raced = lookup();
    if (raced) return raced;
    throw new Error(`Chromium's sandbox cannot run as root and no ${user} user could be created (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); create one: useradd --system --user-group ${user}`, { cause: err });
  }
  const created = lookup();
  if (!created) throw new Error(`the ${user} user could not be found after creating it`);
  return created;
}

function readSysctl(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Can `runAs` create a user namespace (what Chromium's sandbox needs)? Null if yes, else why not. */
export function probeUserNamespaces(runAs: RunAs | null): string | null {
  const result = spawnSync('unshare', ['--user', 'true'], { cwd: '/', encoding: 'utf8', timeout: 10_000, ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}) });
  if (result.status === 0) return null;
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') return 'cannot check for user namespaces: the unshare command (util-linux) is missing';
  const facts = [
    ['kernel.unprivileged_userns_clone', readSysctl('/proc/sys/kernel/unprivileged_userns_clone')],
    ['user.max_user_namespaces', readSysctl('/proc/sys/user/max_user_namespaces')],
    ['kernel.apparmor_restrict_unprivileged_userns', readSysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns')],
  ].filter(([, v]) => v !== null).map(([k, v]) => `${k}=${v}`);
  const said = (result.stderr ?? '').trim().split('\n')[0] || `exit ${result.status ?? result.signal}`;
  return `user namespaces are refused to ${runAs ? `the ${runAs.user} user` : 'this user'} (unshare --user: ${said}${facts.length ? `; ${facts.join(', ')}` : ''}), and Chromium's sandbox needs them`;
}

/** Null when `runAs` can execute `file` (every directory above it included). */
function userCanRun(runAs: RunAs, file: string): boolean {
  return spawnSync('test', ['-x', file], { uid: runAs.uid, gid: runAs.gid, cwd: '/' }).status === 0;
}

/**
 * The executable as `runAs` can run it: itself, or a copy in CHROMIUM_COPY_ROOT (made once per
 * browser build, root-owned, mode 0755). The npm package's swiftshader libraries beside it go along.
 */
async function reachableExecutable(resolved: ResolvedChromium, runAs: RunAs): Promise<string> {
  const exe = resolved.executablePath;
  if (userCanRun(runAs, exe)) return exe;
  const stat = fs.statSync(exe);
  const key = crypto.createHash('sha256').update(`${fs.realpathSync(exe)}\0${stat.size}\0${stat.mtimeMs}`).digest('hex').slice(0, 16);
  const dir = path.join(CHROMIUM_COPY_ROOT, key);
  const copy = path.join(dir, path.basename(exe));
  if (!fs.existsSync(copy)) {
    fs.mkdirSync(CHROMIUM_COPY_ROOT, { recursive: true, mode: 0o755 });
    fs.chmodSync(CHROMIUM_COPY_ROOT, 0o755);
    const staging = fs.mkdtempSync(path.join(CHROMIUM_COPY_ROOT, '.copy-'));
    const siblings = resolved.source === 'npm-package' ? fs.readdirSync(path.dirname(exe)).filter((f) => /^lib[\w-]+\.so(\.\d+)*$|^vk_swiftshader_icd\.json$/.test(f)) : [];
    for (const file of [path.basename(exe), ...siblings]) {
      await fs.promises.copyFile(path.join(path.dirname(exe), file), path.join(staging, file));
      fs.chmodSync(path.join(staging, file), file.endsWith('.json') ? 0o644 : 0o755);
    }
    fs.chmodSync(staging, 0o755);
    try {
      fs.renameSync(staging, dir);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process copied it first
    }
    pruneOldCopies(key);
  }
  if (!userCanRun(runAs, copy)) throw new Error(`the ${runAs.user} user cannot run ${copy}; make ${CHROMIUM_COPY_ROOT} readable and traversable for it (chmod -R a+rX ${CHROMIUM_COPY_ROOT})`);
  return copy;
}

/** Copies of other builds (an npm package unpacked again, a new Debian build) a day old and more. */
function pruneOldCopies(current: string): void {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of fs.readdirSync(CHROMIUM_COPY_ROOT)) {
    const dir = path.join(CHROMIUM_COPY_ROOT, name);
    if (name === current) continue;
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs < dayAgo) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The environment the browser gets: what it needs, none of the platform's secrets. FONTCONFIG_FILE
 * is the shipped fonts' configuration (infra/fonts.ts), readable by every user.
 */
function browserEnv(resolved: ResolvedChromium): Record<string, string> {
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'FONTCONFIG_PATH', 'FONTCONFIG_FILE', 'LD_LIBRARY_PATH', 'HOME'];
  const env = Object.fromEntries(keep.flatMap((k) => (process.env[k] !== undefined ? [[k, process.env[k]!]] : [])));
  return resolved.fontconfigFile ? { ...env, FONTCONFIG_FILE: resolved.fontconfigFile } : env;
}

export interface SandboxedLaunch {
  executablePath: string;
  chromiumSandbox: boolean;
  env: Record<string, string>;
}

/** Playwright's launch options for `resolved` under `sandbox` (the caller decided it may launch). */
export async function sandboxedLaunch(resolved: ResolvedChromium, sandbox: ChromiumSandbox): Promise<SandboxedLaunch> {
  const env = browserEnv(resolved);
  if (!sandbox.runAs) return { executablePath: resolved.executablePath, chromiumSandbox: sandbox.available, env };
  const exe = await reachableExecutable(resolved, sandbox.runAs);
  return {
    executablePath: WRAPPER,
    chromiumSandbox: sandbox.available,
    env: { ...env, FIP_CHROMIUM_UID: String(sandbox.runAs.uid), FIP_CHROMIUM_GID: String(sandbox.runAs.gid), FIP_CHROMIUM_EXECUTABLE: exe },
  };
}
