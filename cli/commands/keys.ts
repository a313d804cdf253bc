import type { Command } from 'commander';
import { API_KEY_NAME_RE } from '../../domain/accounts/api-key-format';
import { API_KEY_SCOPES, isApiKeyScope, type ApiKeyScope } from '../../domain/accounts/roles';
import { CliUsageError } from '../cli-errors';
import { CLI_ACTOR, collectList } from '../cli-options';

export function register(program: Command): void {
  const keys = program.command('keys').description('Manage API keys of trusted services');
  keys
    .command('create')
    .description('Create a key; it is printed once and stored only as a hash')
    .requiredOption('--name <name>', 'who uses the key, e.g. intake-bot')
    .option('--scope <scope>', `scope to grant (${API_KEY_SCOPES.join(', ')}); repeatable`, collectList, [])
    .action(async (opts: { name: string; scope: string[] }) => {
      if (!API_KEY_NAME_RE.test(opts.name)) throw new CliUsageError('--name: 2-64 letters, digits, . _ -');
      if (opts.scope.length === 0) throw new CliUsageError('give at least one --scope');
      const bad = opts.scope.filter((s) => !isApiKeyScope(s));
      if (bad.length) throw new CliUsageError(`unknown scope(s): ${bad.join(', ')}; known: ${API_KEY_SCOPES.join(', ')}`);
      const { withDatabase } = await import('../cli-runtime');
      const { createApiKey } = await import('../../services/accounts/api-key-service');
      const { ConflictError } = await import('../../services/errors');
      const created = await withDatabase((knex) => createApiKey({ knex }, CLI_ACTOR, { name: opts.name, scopes: opts.scope as ApiKeyScope[] })).catch((err: unknown) => {
        // An active key already has the name: the operator's mistake, like a bad argument.
        throw err instanceof ConflictError ? new CliUsageError(err.message) : err;
      });
      const row = created.summary;
      process.stderr.write(`created key ${row.id} (${row.name}, scopes ${row.scopes.join(',')}); it is shown once:\n`);
      process.stdout.write(`${created.key}\n`);
    });
  keys
    .command('list')
    .description('List keys (never their secret)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { withDatabase } = await import('../cli-runtime');
      const { listApiKeys } = await import('../../services/accounts/api-key-service');
      const rows = await withDatabase((knex) => listApiKeys({ knex }));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      for (const k of rows) {
        const state = k.revoked_at ? `revoked ${k.revoked_at.toISOString()}` : 'active';
        process.stdout.write(`${k.id}\t${k.name}\t${k.scopes.join(',')}\t${state}\tlast used ${k.last_used_at?.toISOString() ?? 'never'}\n`);
      }
    });
  keys
    .command('revoke <name-or-id>')
    .description('Revoke the active key with that name or id')
    .action(async (nameOrId: string) => {
      const { withDatabase } = await import('../cli-runtime');
      const { revokeApiKey } = await import('../../services/accounts/api-key-service');
      const done = await withDatabase((knex) => revokeApiKey({ knex }, CLI_ACTOR, nameOrId));
      if (!done) {
        process.stderr.write(`no active key ${nameOrId}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`revoked ${nameOrId}\n`);
    });
}
