// Heartbeats while long work runs inside an activity, so Temporal notices a dead worker quickly
// and can deliver cancellation. Outside an activity (the CLI) it just runs the work.
import { Context } from '@temporalio/activity';

function currentContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

export async function withHeartbeat<T>(work: () => Promise<T>, everyMs = 1000): Promise<T> {
  const ctx = currentContext();
  if (!ctx) return work();
  ctx.heartbeat();
  const timer = setInterval(() => ctx.heartbeat(), everyMs);
  try {
    // The work itself checks throwIfCancelled() at its safe points, so that a cancelled run rolls
    // back instead of carrying on behind a reported cancellation.
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** Throws the activity's cancellation, if any, at a safe point of the work. */
export function throwIfCancelled(): void {
  const ctx = currentContext();
  if (ctx?.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? new Error('cancelled');
}
