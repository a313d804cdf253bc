// The platform's database pool: opened once per process from the config, migrated or checked.
import type { Knex } from 'knex';
import type { AppConfig } from '../config/config';
import { createKnex } from '../db/connection';
import { migrateLatest, migrationStatus } from '../db/migrate';
import type { Logger } from '../infra/logger';

/**
 * Opens the pool. With migrate=true pending migrations are applied; otherwise the schema must already
 * be current, or this refuses (naming the command that migrates) instead of running on an old schema.
 */
export async function connectDatabase(config: AppConfig, databaseUrl: string, log: Logger, migrate: boolean, poolMax = config.postgres.pool_max): Promise<Knex> {
  const knex = createKnex(databaseUrl, poolMax);
  try {
    if (migrate) {
      const applied = await migrateLatest(knex);
      if (applied.length) log.info({ applied }, 'database migrations applied');
    } else {
      const { pending } = await migrationStatus(knex);
      if (pending.length) {
        throw new Error(
          `the database schema is not current (${pending.length} pending migration${pending.length === 1 ? '' : 's'}: ${pending.join(', ')}); ` +
            'run `npx fip db migrate` first, or start with SVC_DB__MIGRATE_ON_START=true',
        );
      }
    }
  } catch (err) {
    await knex.destroy();
    throw err;
  }
  return knex;
}

/** `npm run api` / `npm run worker` migrate only when asked: SVC_DB__MIGRATE_ON_START=true or `--migrate`. */
export function migrateOnStart(config: AppConfig, argv: readonly string[] = process.argv): boolean {
  return config.db.migrate_on_start || argv.includes('--migrate');
}

/** The pool alone, the schema as it is: for `fip db migrate`, which migrates and reports what it applied. */
export function openDatabase(databaseUrl: string, poolMax: number): Knex {
  return createKnex(databaseUrl, poolMax);
}

/** Applies pending migrations (`fip db migrate`); answers the names applied by this call. */
export async function migrateDatabase(knex: Knex): Promise<string[]> {
  return migrateLatest(knex);
}
