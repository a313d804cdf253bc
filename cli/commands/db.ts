import type { Command } from 'commander';

export function register(program: Command): void {
  const db = program.command('db').description('Database operations');
  db.command('migrate')
    .description('Run pending Knex migrations')
    .action(async () => {
      const { withDatabase } = await import('../cli-runtime');
      await withDatabase(async (knex) => {
        const { migrateDatabase } = await import('../../app/database');
        const applied = await migrateDatabase(knex);
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
      }, { migrate: false });
    });
}
