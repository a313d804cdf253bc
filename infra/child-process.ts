// Stopping a server the platform started as a child process (Temporal dev server, MinIO):
// SIGTERM, then SIGKILL if it has not exited within the grace period.
import type { ChildProcess } from 'node:child_process';

export function stopChildProcess(child: ChildProcess, exited: Promise<unknown>, graceMs = 10_000): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
}
