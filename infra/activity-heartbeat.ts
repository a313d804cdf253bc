// Heartbeats while long work runs inside an activity, so Temporal notices a dead worker quickly
// and can deliver cancellation. Outside an activity (the CLI) it just runs the work.
import { Context } from '@temporalio/activity';

/** The running activity's context, or null outside an activity (the CLI, a bench). */
export function currentContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/** Heartbeats now and every `everyMs` until the answered function is called (a no-op outside an activity). */
export function startHeartbeat(everyMs = 1000): () => void {
  const ctx = currentContext();
  if (!ctx) return () => undefined;
  ctx.heartbeat();
  const timer = setInterval(() => ctx.heartbeat(), everyMs);
  return () => clearInterval(timer);
}

export async function withHeartbeat<T>(work: () => Promise<T>, everyMs = 1000): Promise<T> {
  const stop = startHeartbeat(everyMs);
  try {
    // The work itself checks throwIfCancelled() at its safe points, so that a cancelled run rolls
    // back instead of carrying on behind a reported cancellation.
    return await work();
  } finally {
    stop();
  }
}

/** Throws the activity's cancellation, if any, at a safe point of the work. */
export function throwIfCancelled(): void {
  const ctx = currentContext();
  if (ctx?.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? new Error('cancelled');
}

/**
 * Heartbeats every second (with `details()`, which a retried attempt reads back as its heartbeat
 * details) while `work` runs; a cancelled activity calls `onCancel` (an investigation closes its
 * browser context, which ends the work's browser calls).
 */
export async function withCancellableHeartbeat<T>(work: () => Promise<T>, opts: { details?: () => unknown; onCancel?: () => void } = {}): Promise<T> {
  const ctx = currentContext();
  if (!ctx) return work();
  ctx.heartbeat(opts.details?.());
  const timer = setInterval(() => ctx.heartbeat(opts.details?.()), 1000);
  const onAbort = () => opts.onCancel?.();
  ctx.cancellationSignal.addEventListener('abort', onAbort);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    ctx.cancellationSignal.removeEventListener('abort', onAbort);
  }
}
