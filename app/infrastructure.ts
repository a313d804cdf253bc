// What `npm start` brings up before the platform itself: the embedded PostgreSQL (unless
// DATABASE_URL is set) and the Temporal dev server with its UI (unless TEMPORAL_ADDRESS is set).
import path from 'node:path';
import type { AppConfig } from '../config/config';
import { embeddedPostgresUrl, startEmbeddedPostgres, type RunningPostgres } from '../infra/embedded-postgres';
import type { Logger } from '../infra/logger';
import { startTemporalDevServer } from '../infra/temporal-dev-server';

export interface Infrastructure {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  embedded: { postgres: boolean; temporal: boolean };
  stop(): Promise<void>;
}

/** The embedded cluster's data directory (its password is kept beside it, `pg.password`). */
function platformPostgresDir(config: AppConfig): string {
  return path.join(config.data_dir, 'pg');
}

/**
 * The platform's own embedded PostgreSQL (data under SVC_DATA_DIR/pg, SVC_POSTGRES__* settings):
 * the one start-up of `npm start` and of a CLI command run while the platform is down.
 */
export function startPlatformPostgres(config: AppConfig, log: Logger): Promise<RunningPostgres> {
  return startEmbeddedPostgres({
    dataDir: platformPostgresDir(config),
    port: config.postgres.port,
    database: config.postgres.database,
    persistent: true,
    log,
    sharedBuffersMb: config.postgres.shared_buffers_mb,
  });
}

export async function startInfrastructure(config: AppConfig, log: Logger, progress: (line: string) => void): Promise<Infrastructure> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err) => log.warn({ err }, 'error while stopping'));
  };
  try {
    const settled = await Promise.allSettled([
      (async () => {
        if (config.database_url) return config.database_url;
        const pg = await startPlatformPostgres(config, log);
        stops.push(pg.stop);
        return pg.url;
      })(),
      (async () => {
        if (config.temporal_address) return { address: config.temporal_address, uiUrl: null };
        const t = await startTemporalDevServer({
          cliPath: config.temporal_cli_path,
          ip: config.temporal.ip,
          port: config.temporal.port,
          uiPort: config.temporal.ui_port,
          headless: config.temporal.headless,
          dbFilename: path.join(config.data_dir, 'temporal.db'),
          namespace: config.temporal_namespace,
          log,
          progress,
        });
        stops.push(t.stop);
        return t;
      })(),
    ]);
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const [databaseUrl, temporal] = settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [
      string,
      { address: string; uiUrl: string | null },
    ];
    return {
      databaseUrl,
      temporalAddress: temporal.address,
      temporalUiUrl: temporal.uiUrl,
      embedded: { postgres: !config.database_url, temporal: !config.temporal_address },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Where a separately started API, worker or CLI finds the platform: the settings, else `npm start`'s embedded defaults. */
export function platformAddresses(config: AppConfig): { databaseUrl: string; temporalAddress: string } {
  return {
    databaseUrl: config.database_url ?? embeddedPostgresUrl(platformPostgresDir(config), config.postgres.port, config.postgres.database),
    temporalAddress: config.temporal_address ?? `${config.temporal.ip}:${config.temporal.port}`,
  };
}
