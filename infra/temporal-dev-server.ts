// The Temporal dev server of `npm start` and the test suite (`temporal server start-dev`), with
// its Web UI and a SQLite file so that workflows survive a restart.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { PLATFORM_SEARCH_ATTRIBUTES } from '../domain/tasks/task-kinds';
import { stopChildProcess } from './child-process';
import { resolveTemporalCli } from './temporal-cli';
import type { Logger } from './logger';

export interface DevServerOptions {
  cliPath?: string;
  ip: string;
  port: number;
  uiPort: number;
  headless: boolean;
  dbFilename: string;
  namespace: string;
  log: Logger;
  progress: (line: string) => void;
}

export interface RunningTemporal {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
}

/**
 * SQLite settings of the embedded dev server's file: write-ahead logging, so that readers do not
 * wait on the writer and each commit appends to the log instead of rewriting pages behind a
 * rollback journal, and `synchronous=normal`, the setting SQLite documents as safe with WAL (a power
 * loss may drop the last commits, never corrupt the file). Every workflow start, timer and activity
 * result is such a commit. A production deployment runs a Temporal cluster instead.
 */
export const DEV_SERVER_SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

export async function startTemporalDevServer(opts: DevServerOptions): Promise<RunningTemporal> {
  const address = `${opts.ip}:${opts.port}`;
  const uiUrl = opts.headless ? null : `http://${opts.ip}:${opts.uiPort}`;
  fs.mkdirSync(path.dirname(opts.dbFilename), { recursive: true });
  const found = await resolveTemporalCli(opts.cliPath, opts.progress);
  if (!found) return startWithSdkDownload(opts, address, uiUrl);
  const cli = found.path;

  const args = [
    'server', 'start-dev',
    '--ip', opts.ip,
    '--port', String(opts.port),
    '--db-filename', opts.dbFilename,
    '--namespace', opts.namespace,
    '--log-level', 'warn',
    '--log-format', 'json',
    // The platform's search attributes (operators filter by them in the UI), registered at start.
    ...PLATFORM_SEARCH_ATTRIBUTES.flatMap((name) => ['--search-attribute', `${name}=Keyword`]),
    ...DEV_SERVER_SQLITE_PRAGMAS.flatMap((pragma) => ['--sqlite-pragma', pragma]),
  ];
  if (opts.headless) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort), '--ui-ip', opts.ip);

  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
    opts.log.debug({ temporal: chunk.toString().trim() }, 'temporal dev server');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const stop = stopChildProcess(child, exited);

  try {
    await Promise.race([
      waitForFrontend(address, 60_000),
      exited.then((code) => {
        throw new Error(`temporal dev server exited (code ${code}) before it was ready:\n${output}`);
      }),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, uiUrl, stop };
}

async function waitForFrontend(address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const conn = await Connection.connect({ address, connectTimeout: 2000 });
      await conn.workflowService.getSystemInfo({});
      await conn.close();
      return;
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`temporal dev server at ${address} not ready after ${timeoutMs} ms: ${String(lastError)}`);
}

async function startWithSdkDownload(opts: DevServerOptions, address: string, uiUrl: string | null): Promise<RunningTemporal> {
  opts.progress('No Temporal CLI, no download of it and no Go toolchain: trying the Temporal SDK download of the dev server (needs internet).');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      ip: opts.ip,
      port: opts.port,
      ui: !opts.headless,
      uiPort: opts.headless ? undefined : opts.uiPort,
      dbFilename: opts.dbFilename,
      namespace: opts.namespace,
      searchAttributes: PLATFORM_SEARCH_ATTRIBUTES.map((name) => defineSearchAttributeKey(name, SearchAttributeType.KEYWORD)),
      executable: { type: 'cached-download' },
    },
  });
  return { address, uiUrl, stop: () => env.teardown() };
}
