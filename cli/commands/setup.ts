import type { Command } from 'commander';

export function register(program: Command): void {
  const setup = program.command('setup').description('One-time preparation of this machine');
  setup
    .command('temporal-cli')
    .description('Find, download or build the Temporal CLI exactly as `npm start` does, and print its path (where it came from on stderr)')
    .action(async () => {
      const { resolveTemporalCli } = await import('../../infra/temporal-cli');
      const { cliConfig } = await import('../cli-config');
      const found = await resolveTemporalCli(cliConfig().temporal_cli_path, (line) => process.stderr.write(`${line}\n`));
      if (!found) {
        process.stderr.write('no Temporal CLI, no download of it and no Go toolchain: `npm start` will try the Temporal SDK download (needs internet)\n');
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${found.path}\n`);
    });
  setup
    .command('minio')
    .description('Find or build MinIO (the S3-compatible server the tests and the benchmark use) and print its path')
    .action(async () => {
      const { resolveMinio } = await import('../../infra/minio');
      const found = await resolveMinio((line) => process.stderr.write(`${line}\n`));
      if (!found) {
        process.stderr.write('no MinIO binary (MINIO_PATH, PATH, cache) and no Go toolchain to build it\n');
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${found}\n`);
    });
  setup
    .command('temporal')
    .description("Register the platform's search attributes (FipKind, FipRecordId) in the Temporal namespace (idempotent)")
    .action(async () => {
      const { withTemporal } = await import('../cli-runtime');
      const { cliConfig } = await import('../cli-config');
      const { registerPlatformSearchAttributes } = await import('../../infra/temporal-search-attributes');
      const namespace = cliConfig().temporal_namespace;
      const done = await withTemporal((client) => registerPlatformSearchAttributes(client.connection, namespace));
      for (const name of done.added) process.stdout.write(`registered search attribute ${name} (Keyword) in namespace ${namespace}\n`);
      for (const name of done.existing) process.stdout.write(`search attribute ${name} (Keyword) already registered in namespace ${namespace}\n`);
    });
}
