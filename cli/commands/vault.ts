// `fip vault`: rotate the vault's master key, and its status (services/vault/vault-rotation.ts).
import type { Command } from 'commander';

export function register(program: Command): void {
  const vault = program.command('vault').description('The vault of encrypted contact data (envelope encryption)');
  vault
    .command('rotate')
    .description(
      'Make a new master key active and re-wrap every data key with it, while the platform runs. With the keyring ' +
        '(<data dir>/vault/keyring.json) a new key is generated; with SVC_VAULT__MASTER_KEY set, set the new key there and the ' +
        'old one in SVC_VAULT__PREVIOUS_MASTER_KEYS first, then run this',
    )
    .action(async () => {
      const { withDatabase } = await import('../cli-runtime');
      const { cliConfig } = await import('../cli-config');
      const { rotateVault } = await import('../../services/vault/vault-rotation');
      const report = await withDatabase((knex) => rotateVault({ knex, config: cliConfig() }));
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      if (report.unreadable.length) {
        process.stderr.write(`${report.unreadable.length} record(s) are wrapped by a master key this process does not have; add it to SVC_VAULT__PREVIOUS_MASTER_KEYS and run again\n`);
        process.exitCode = 1;
      }
    });
  vault
    .command('status')
    .description('The active master key id and how many records each key wraps')
    .action(async () => {
      const { withDatabase } = await import('../cli-runtime');
      const { cliConfig } = await import('../cli-config');
      const { vaultStatus } = await import('../../services/vault/vault-rotation');
      process.stdout.write(`${JSON.stringify(await withDatabase((knex) => vaultStatus({ knex, config: cliConfig() })), null, 2)}\n`);
    });
}
