import path from 'node:path';
import type { Knex } from 'knex';

const migrationConfig: Knex.MigratorConfig = {
  directory: path.join(__dirname, 'migrations'),
  loadExtensions: ['.ts'],
  tableName: 'knex_migrations',
};

/** Applies pending migrations; returns the names applied by this call. */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}

export async function migrationStatus(knex: Knex): Promise<{ completed: string[]; pending: string[] }> {
  const [completed, pending] = (await knex.migrate.list(migrationConfig)) as [Array<{ name: string }>, Array<{ file: string }>];
  return { completed: completed.map((m) => m.name), pending: pending.map((m) => m.file) };
}
