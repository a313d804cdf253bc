// Work on hostile input (a submitted PDF, e-mail, HTML page) in a child process of its own, so that
// it can cost only itself: a memory bound (the V8 heap through --max-old-space-size, and the whole
// process's resident memory watched through /proc, since decompressed buffers live outside the heap),
// a time bound, and a crash that takes down the child alone. A worker thread is not enough: some V8
// failures (an array grown past its largest size) abort the whole process, whatever the thread.
// One request per process: a fresh process per file, so no file inherits another's memory.
import { fork, type ChildProcess, type Serializable } from 'node:child_process';
import fs from 'node:fs';

export interface IsolationLimits {
  timeoutMs: number;
  /** Resident memory of the whole process; its JavaScript heap gets three quarters. */
  maxMemoryMb: number;
}

export type IsolationFailure = 'timeout' | 'memory' | 'crashed' | 'failed' | 'aborted';

export type IsolatedOutcome<T> =
  | { ok: true; value: T; ms: number; peakMemoryMb: number }
  | {
      ok: false;
      /** timeout / memory: killed at a bound; crashed: died on its own; failed: the work threw; aborted: cancelled. */
      reason: IsolationFailure;
      message: string;
      /** What the work threw (reason `failed`), or the tail of the process's stderr. */
      error?: { name: string; message: string; stack?: string };
      stderrTail?: string;
      ms: number;
      peakMemoryMb: number;
    };

/** The message a child sends back: the value, or what its work threw. */
export type IsolatedReply = { ok: true; value: unknown } | { ok: false; error: { name: string; message: string; stack?: string } };

const POLL_MS = 25;
const STDERR_TAIL = 8 * 1024;
/** What a child that died of memory exhaustion writes before it goes (V8's fatal errors). */
const OUT_OF_MEMORY = /heap out of memory|invalid size error|invalid array length|invalid string length|allocation failed|out of memory/i;
/** Variables a child may see: no database URL, no keys, no NODE_OPTIONS that would override its caps. */
const PASSED_ENV = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'FIP_TS_CACHE_DIR', 'FIP_TS_LOADER'];

/** Children alive now: killed when this process exits, so that none outlives its bounds' keeper. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/** Resident memory of a process in MiB (Linux /proc; null elsewhere, where only the heap cap holds). */
function residentMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export function heapMbFor(limits: IsolationLimits): number {
  return Math.max(32, Math.floor(limits.maxMemoryMb * 0.75));
}

/**
 * Runs `entry` (a script that answers one request, see serveIsolatedRequest) in a new process with
 * the limits; never throws for what the child does: the outcome says how it ended.
 */
export function runIsolated<T>(entry: string, request: Serializable, limits: IsolationLimits, signal?: AbortSignal): Promise<IsolatedOutcome<T>> {
  const started = Date.now();
  return new Promise((resolve) => {
    const env: Record<string, string> = {};
    for (const name of PASSED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name]!;
    let child: ChildProcess;
    try {
      child = fork(entry, [], {
        execArgv: [`--max-old-space-size=${heapMbFor(limits)}`],
        env,
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
    } catch (err) {
      resolve({ ok: false, reason: 'crashed', message: `could not start the process: ${(err as Error).message}`, ms: 0, peakMemoryMb: 0 });
      return;
    }
    track(child);
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    let reply: IsolatedReply | null = null;
    let killedFor: 'timeout' | 'memory' | 'aborted' | null = null;
    let peak = 0;
    let settled = false;

    const kill = (why: 'timeout' | 'memory' | 'aborted') => {
      if (killedFor || child.exitCode !== null || child.signalCode !== null) return;
      killedFor = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), limits.timeoutMs);
    const poll = setInterval(() => {
      if (child.pid === undefined) return;
      const rss = residentMb(child.pid);
      if (rss === null) return;
      peak = Math.max(peak, rss);
      if (rss > limits.maxMemoryMb) kill('memory');
    }, POLL_MS);
    const onAbort = () => kill('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) kill('aborted');

    const finish = (outcome: IsolatedOutcome<T>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    child.on('message', (message: IsolatedReply) => {
      reply = message;
    });
    child.on('error', (err) => {
      kill('aborted');
      finish({ ok: false, reason: 'crashed', message: `the process failed: ${err.message}`, ms: Date.now() - started, peakMemoryMb: Math.round(peak) });
    });
    // 'close', not 'exit': by then the reply and the whole stderr have arrived.
    child.on('close', (code, sig) => {
      const ms = Date.now() - started;
      const peakMemoryMb = Math.round(peak);
      const stderrTail = stderr.trim() || undefined;
      const got = reply as IsolatedReply | null;
      if (killedFor === 'timeout') return finish({ ok: false, reason: 'timeout', message: `stopped at its time bound (${Math.round(limits.timeoutMs / 1000)} s)`, ms, peakMemoryMb, stderrTail });
      if (killedFor === 'memory') return finish({ ok: false, reason: 'memory', message: `stopped at its memory bound (${limits.maxMemoryMb} MiB)`, ms, peakMemoryMb, stderrTail });
      if (killedFor === 'aborted') return finish({ ok: false, reason: 'aborted', message: 'cancelled', ms, peakMemoryMb, stderrTail });
      if (got?.ok) return finish({ ok: true, value: got.value as T, ms, peakMemoryMb });
      if (got && !got.ok) return finish({ ok: false, reason: 'failed', message: got.error.message, error: got.error, ms, peakMemoryMb, stderrTail });
      if (stderrTail && OUT_OF_MEMORY.test(stderrTail)) {
        return finish({ ok: false, reason: 'memory', message: `ran out of memory (bound ${limits.maxMemoryMb} MiB)`, ms, peakMemoryMb, stderrTail });
      }
      finish({ ok: false, reason: 'crashed', message: `the process died (${sig ?? `exit code ${code}`})`, ms, peakMemoryMb, stderrTail });
    });
    child.send(request, (err) => {
      if (err) kill('aborted');
    });
  });
}

/**
 * The child's side: answers the one request it is sent with `handle`, then exits. What `handle`
 * throws goes back as `failed` (name, message, stack).
 */
export function serveIsolatedRequest<R>(handle: (request: R) => Promise<unknown>): void {
  // The parent is gone (it died without killing us): nobody keeps our bounds, stop at once.
  process.once('disconnect', () => process.exit(1));
  process.once('message', (request: R) => {
    const reply = (message: IsolatedReply) => process.send!(message, () => process.exit(0));
    handle(request).then(
      (value) => reply({ ok: true, value }),
      (err: unknown) => {
        const e = err instanceof Error ? err : new Error(String(err));
        reply({ ok: false, error: { name: e.name, message: e.message, stack: e.stack } });
      },
    );
  });
}

/** At most `max` isolated processes at once; the others wait their turn (or their cancellation). */
export function createIsolationGate(max: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function gated<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (running >= max) {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = waiting.indexOf(go);
          if (i >= 0) waiting.splice(i, 1);
          reject(signal!.reason ?? new Error('cancelled'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(go);
      });
    } else {
      running++;
    }
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
