import type { Command } from 'commander';
import { ROLES, isRole, type Role } from '../../domain/accounts/roles';
import { CliUsageError } from '../cli-errors';
import { CLI_ACTOR, collectList } from '../cli-options';

export function register(program: Command): void {
  const users = program.command('users').description('Manage the people who may use the platform');
  users
    .command('add <email>')
    .description('Add a user, or add roles to an existing one')
    .option('--role <role>', `role to grant (${ROLES.join(', ')}); repeatable`, collectList, [])
    .action(async (email: string, opts: { role: string[] }) => {
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new CliUsageError(`not an e-mail address: ${email}`);
      if (opts.role.length === 0) throw new CliUsageError('give at least one --role');
      const bad = opts.role.filter((r) => !isRole(r));
      if (bad.length) throw new CliUsageError(`unknown role(s): ${bad.join(', ')}; known: ${ROLES.join(', ')}`);
      const { withDatabase } = await import('../cli-runtime');
      const { grantUserRoles } = await import('../../services/accounts/user-service');
      const user = await withDatabase((knex) => grantUserRoles({ knex }, CLI_ACTOR, email, opts.role as Role[]));
      process.stdout.write(`${user.email}\t${user.roles.join(',')}\n`);
    });
  users
    .command('list')
    .description('List users')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { withDatabase } = await import('../cli-runtime');
      const { listUsers } = await import('../../services/accounts/user-service');
      const rows = await withDatabase((knex) => listUsers({ knex }));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(rows.map((u) => ({ email: u.email, roles: u.roles, active: u.active })), null, 2)}\n`);
        return;
      }
      for (const u of rows) process.stdout.write(`${u.email}\t${u.roles.join(',')}\t${u.active ? 'active' : 'removed'}\n`);
    });
  users
    .command('remove <email>')
    .description('Deactivate a user (kept for audit)')
    .action(async (email: string) => {
      const { withDatabase } = await import('../cli-runtime');
      const { removeUser } = await import('../../services/accounts/user-service');
      const done = await withDatabase((knex) => removeUser({ knex }, CLI_ACTOR, email));
      if (!done) {
        process.stderr.write(`no active user ${email}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`removed ${email.toLowerCase()}\n`);
    });
}
