// Finds the `temporal` CLI binary, in this order: TEMPORAL_CLI_PATH; `temporal` on PATH; the cache
// directory (~/.cache/fip/temporal-<version>); else, when Go is installed, builds it once into that
// cache with `go install` (minutes; progress is printed). Returns null when none of these works, so
// the caller can fall back to the Temporal SDK's own download (machines with internet).
import { goToolCacheDir, resolveGoTool, type GoTool, type Progress } from './go-tool';

export type { Progress } from './go-tool';

export const TEMPORAL_CLI_VERSION = '1.5.1';

const TEMPORAL_CLI: GoTool = {
  label: 'the Temporal CLI',
  binary: 'temporal',
  // Later tags cannot be go-installed.
  goPackage: `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`,
  cacheName: `temporal-${TEMPORAL_CLI_VERSION}`,
  envVar: 'TEMPORAL_CLI_PATH',
  buildCost: 'a few minutes',
};

export function temporalCacheDir(): string {
  return goToolCacheDir(TEMPORAL_CLI.cacheName);
}

export function resolveTemporalCli(explicitPath: string | undefined, progress: Progress): Promise<string | null> {
  return resolveGoTool(TEMPORAL_CLI, explicitPath, progress);
}
