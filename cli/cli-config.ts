// The command line's configuration, loaded once per process. A module of its own, apart from
// cli-runtime (database and Temporal helpers), so that commands that need neither load neither.
import { loadConfig, type AppConfig } from '../config/config';

let cachedConfig: AppConfig | null = null;

export function cliConfig(): AppConfig {
  cachedConfig ??= loadConfig();
  return cachedConfig;
}
