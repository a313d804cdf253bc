// Long-lived platform services that start with the workers (e.g. the managed scheduler of the
// scheduled-reports job). Each is idempotent to start from several processes.
import type { AppDeps } from '../api/app-deps';

export interface BackgroundServices {
  stop(): Promise<void>;
}

export async function startBackgroundServices(_deps: AppDeps): Promise<BackgroundServices> {
  return { stop: async () => undefined };
}
