// Which Chromium the platform launches (PDF reports now, the investigation crawler later), found in
// this order: the configured path (SVC_CHROMIUM__PATH); Debian's `chromium` package
// (/usr/bin/chromium); else the @sparticuz/chromium npm package, which ships a compressed headless
// Chromium inside the package and unpacks it into the temporary directory on first use (no
// download). Locating is synchronous and cheap (a stat), so start-up can say which one it will use;
// the npm package is only unpacked when a browser is first launched.
//
// Every source is launched with CHROMIUM_ARGS and nothing else: the npm package's own `args`
// weaken the browser (--disable-web-security, --allow-running-insecure-content,
// --disable-site-isolation-trials, --single-process, ...) and are never used, because the same
// browser will open hostile scam sites.
//
// Every source draws text with the platform's fonts (infra/fonts.ts: Noto for every script, from
// npm packages), given to the browser as FONTCONFIG_FILE, so screenshots and reports show Chinese,
// Thai or Arabic text instead of empty boxes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { chromium as playwright, errors as playwrightErrors, type Browser } from 'playwright-core';
import { sandboxedLaunch, type ChromiumSandbox } from './chromium-sandbox';
import { shippedFonts } from './fonts';

export type ChromiumSource = 'configured' | 'debian' | 'npm-package';

export const DEBIAN_CHROMIUM_PATH = '/usr/bin/chromium';
export const NPM_CHROMIUM_PACKAGE = '@sparticuz/chromium';

/**
 * Flags that work in this environment (container without a GPU, no internet), for Debian's build
 * and the npm package's alike (the packaged headless shell needs no more). Whether Chromium's
 * sandbox is on is launchChromium's `sandbox` (Playwright adds --no-sandbox without it).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ResolvedChromium {
  executablePath: string;
  source: ChromiumSource;
  args: readonly string[];
  /** The shipped fonts' fonts.conf (infra/fonts.ts), Chromium's FONTCONFIG_FILE; unset: the machine's fonts. */
  fontconfigFile?: string;
}

/** Where to look. Tests inject their own candidates so every branch runs on any machine. */
export interface ChromiumCandidates {
  /** SVC_CHROMIUM__PATH; when set, it is the only candidate. */
  configuredPath?: string;
  /** Debian's package; default /usr/bin/chromium. */
  debianPath?: string;
  /** Unpacks the npm package's browser and returns its path; default @sparticuz/chromium. */
  npmPackage?: () => Promise<string>;
  /** The fonts.conf of the fonts to use; default the shipped ones (infra/fonts.ts). */
  fonts?: () => Promise<string>;
}

/** The candidate that will be used, found without launching or unpacking anything. */
export interface ChromiumLocation {
  source: ChromiumSource;
  /** Known before first use for 'configured' and 'debian'; null for the npm package. */
  executablePath: string | null;
  /** Why the configured path cannot work, or null. */
  problem: string | null;
}

/** No usable Chromium: a wrong path, a package that cannot unpack, a browser that does not start. */
export class ChromiumUnavailableError extends Error {
  override name = 'ChromiumUnavailableError';
  constructor(
    message: string,
    readonly source: ChromiumSource,
    readonly executablePath: string | null,
  ) {
    super(message);
  }
}

/** Null when `file` is an executable regular file (symlinks followed), else what is wrong with it. */
export function executableFileProblem(file: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})`;
  }
  if (!stat.isFile()) return 'is not a file';
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    return 'is not executable';
  }
  return null;
}

export function locateChromium(candidates: ChromiumCandidates = {}): ChromiumLocation {
  if (candidates.configuredPath !== undefined) {
    return { source: 'configured', executablePath: candidates.configuredPath, problem: executableFileProblem(candidates.configuredPath) };
  }
  const debianPath = candidates.debianPath ?? DEBIAN_CHROMIUM_PATH;
  if (executableFileProblem(debianPath) === null) return { source: 'debian', executablePath: debianPath, problem: null };
  return { source: 'npm-package', executablePath: null, problem: null };
}

/** One line for start-up output: which Chromium, from where, and whether it can work. */
export function describeChromium(location: ChromiumLocation): string {
  switch (location.source) {
    case 'configured':
      return location.problem
        ? `configured path ${location.executablePath} ${location.problem} (SVC_CHROMIUM__PATH): PDF reports will fail`
        : `configured path ${location.executablePath} (SVC_CHROMIUM__PATH)`;
    case 'debian':
      return `Debian package ${location.executablePath}`;
    case 'npm-package':
      return `npm package ${NPM_CHROMIUM_PACKAGE} (unpacked into the temporary directory on first use)`;
  }
}

export interface UnpackLockOptions {
  /** Where the browser is unpacked (the package's `<tmpdir>/chromium`). */
  executablePath: string;
  /** The lock directory; default `<executablePath>.unpacking`. */
  lockDir?: string;
  /** A lock older than this belongs to a process that died while unpacking. Default 60 s. */
  staleMs?: number;
  /** How long to wait for another process's unpacking. Default 120 s. */
  timeoutMs?: number;
}

/**
 * Runs `unpack` while holding a lock shared by every process on the machine. The package writes
 * straight into <tmpdir>/chromium and takes any file there as finished, so a process that looked
 * while another one was writing would run half a browser, and one killed while writing would
 * leave half a browser behind for good. Processes therefore take turns through a lock directory
 * (mkdir is atomic); a lock left by a dead process is stale, and the half-written file that goes
 * with it is removed before unpacking again.
 */
export async function withUnpackLock<T>(options: UnpackLockOptions, unpack: () => Promise<T>): Promise<T> {
  const lockDir = options.lockDir ?? `${options.executablePath}.unpacking`;
  const staleMs = options.staleMs ?? 60_000;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    try {
      fs.mkdirSync(lockDir, { mode: 0o700 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const age = Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > staleMs) {
      fs.rmSync(options.executablePath, { force: true });
      fs.rmSync(lockDir, { recursive: true, force: true });
    } else if (Date.now() > deadline) {
      throw new Error(`another process has been unpacking Chromium for too long (lock ${lockDir})`);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await unpack();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

// One unpacking per process; other processes wait on the lock.
let unpacking: Promise<string> | undefined;

async function unpackNpmChromium(): Promise<string> {
  unpacking ??= withUnpackLock({ executablePath: path.join(os.tmpdir(), 'chromium') }, async () => {
    const { default: packaged } = await import('@sparticuz/chromium');
    return packaged.executablePath();
  });
  unpacking.catch(() => {
    unpacking = undefined;
  });
  return unpacking;
}

/**
 * The package unpacks into the shared temporary directory and runs whatever file it finds there
 * already: run it only if it is a regular file (not a link planted there) that this user owns and
 * nobody else can write.
 */
function foreignFileProblem(file: string): string | null {
  const stat = fs.lstatSync(file);
  if (stat.isSymbolicLink()) return 'is a symbolic link, not the unpacked file';
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `is owned by uid ${stat.uid}, not this user (uid ${uid})`;
  if ((stat.mode & 0o022) !== 0) return 'is writable by other users';
  return null;
}

let fontsWarned = false;

/**
 * The shipped fonts' fonts.conf. Fonts that cannot be prepared (a full disk, a package missing)
 * do not stop the browser, whose screenshots then show only the scripts the machine has fonts for:
 * said once per process.
 */
async function fontconfigFile(candidates: ChromiumCandidates): Promise<{ fontconfigFile?: string }> {
  try {
    return { fontconfigFile: await (candidates.fonts ?? (async () => (await shippedFonts()).fontconfigFile))() };
  } catch (err) {
    if (!fontsWarned) process.emitWarning(`Chromium runs without the shipped fonts (screenshots may show boxes for some scripts): ${firstLine(err)}`);
    fontsWarned = true;
    return {};
  }
}

/** The Chromium to launch, unpacking the npm package's browser if it is the one, with the shipped fonts. */
export async function resolveChromium(candidates: ChromiumCandidates = {}): Promise<ResolvedChromium> {
  const resolved = await resolveExecutable(candidates);
  return { ...resolved, ...(await fontconfigFile(candidates)) };
}

async function resolveExecutable(candidates: ChromiumCandidates): Promise<ResolvedChromium> {
  const location = locateChromium(candidates);
  if (location.source !== 'npm-package') {
    const executablePath = location.executablePath!;
    if (location.problem) {
      throw new ChromiumUnavailableError(
        `Chromium at the configured path ${executablePath} (SVC_CHROMIUM__PATH) ${location.problem}`,
        location.source,
        executablePath,
      );
    }
    return { executablePath, source: location.source, args: CHROMIUM_ARGS };
  }
  let executablePath: string;
  try {
    executablePath = await (candidates.npmPackage ?? unpackNpmChromium)();
  } catch (err) {
    throw new ChromiumUnavailableError(
      `no Chromium: none configured, none at ${candidates.debianPath ?? DEBIAN_CHROMIUM_PATH}, and the npm package ${NPM_CHROMIUM_PACKAGE} could not unpack its browser: ${firstLine(err)}`,
      'npm-package',
      null,
    );
  }
  const problem = executableFileProblem(executablePath) ?? foreignFileProblem(executablePath);
  if (problem) {
    throw new ChromiumUnavailableError(
      `Chromium unpacked by the npm package ${NPM_CHROMIUM_PACKAGE} at ${executablePath} ${problem}`,
      'npm-package',
      executablePath,
    );
  }
  return { executablePath, source: 'npm-package', args: CHROMIUM_ARGS };
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '(no message)';
}

/**
 * Why a launch failed, in one line: Playwright's first line, then from the browser log it appends
 * the browser's own first error output ("[pid=…][err] …") or else how its process ended.
 */
export function launchFailureReason(err: unknown): string {
  const text = stripVTControlCharacters(err instanceof Error ? err.message : String(err));
  const first = firstLine(text).replace(/^browserType\.launch:\s*/, '');
  const stderr = text.match(/\[pid=\d+\]\[err\]\s*(\S.*)/)?.[1]?.trim();
  if (stderr) return first.includes(stderr) ? first : `${first} (browser said: ${stderr})`;
  const exit = text.match(/<process did exit: exitCode=(\S+), signal=(\S+)>/);
  if (!exit) return first;
  return exit[2] !== 'null' ? `${first} (browser killed by ${exit[2]})` : `${first} (browser exited with status ${exit[1]})`;
}

/**
 * Launches a resolved Chromium headless. With `sandbox` (the crawler's), Chromium's sandbox is on
 * where it can run, and as root the browser runs as the unprivileged user (infra/chromium-sandbox.ts);
 * without it, as this process with --no-sandbox (the report renderer: no network, no JavaScript).
 * A browser that cannot start is a ChromiumUnavailableError naming the path, the source and the
 * reason; a launch timeout (a loaded machine) stays an ordinary error, worth another try.
 */
/** `ignoreDefaultArgs`: Playwright's default flags to leave out (the crawler drops --enable-automation). */
export async function launchChromium(resolved: ResolvedChromium, sandbox?: ChromiumSandbox, opts: { ignoreDefaultArgs?: string[] } = {}): Promise<Browser> {
  try {
    const fonts = resolved.fontconfigFile ? { FONTCONFIG_FILE: resolved.fontconfigFile } : {};
    const how = sandbox
      ? await sandboxedLaunch(resolved, sandbox)
      : { executablePath: resolved.executablePath, chromiumSandbox: false, env: { ...process.env, ...fonts } };
    return await playwright.launch({ ...how, headless: true, args: [...resolved.args], ...(opts.ignoreDefaultArgs ? { ignoreDefaultArgs: opts.ignoreDefaultArgs } : {}) });
  } catch (err) {
    if (err instanceof playwrightErrors.TimeoutError) throw err;
    throw new ChromiumUnavailableError(
      `Chromium (${resolved.source}, ${resolved.executablePath}) did not start: ${launchFailureReason(err)}`,
      resolved.source,
      resolved.executablePath,
    );
  }
}
