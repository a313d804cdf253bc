import type { Command } from 'commander';
import { CliUsageError } from '../cli-errors';

export function register(program: Command): void {
  const blobs = program.command('blobs').description('The blob store (reports and other files)');
  blobs
    .command('migrate')
    .description(
      'Copy every blob from one store to another (file:///path or s3://bucket/prefix; an s3:// side uses the SVC_BLOBS__ENDPOINT, ' +
        '_REGION, _ACCESS_KEY_ID, _SECRET_ACCESS_KEY and _FORCE_PATH_STYLE settings), verifying each SHA-256; resumable: blobs already there are skipped',
    )
    .requiredOption('--from <url>', 'source store URL')
    .requiredOption('--to <url>', 'destination store URL')
    .option('--json', 'print the result as JSON (progress still goes to stderr)')
    .action(async (opts: { from: string; to: string; json?: boolean }) => {
      const { cliConfig } = await import('../cli-config');
      const { createBlobStoreFromSettings, parseBlobUrl } = await import('../../infra/blob-store');
      const { migrateBlobs } = await import('../../infra/blob-migration');
      for (const [name, url] of [['--from', opts.from], ['--to', opts.to]] as const) {
        try {
          parseBlobUrl(url);
        } catch (err) {
          throw new CliUsageError(`${name}: ${(err as Error).message}`);
        }
      }
      if (opts.from === opts.to) throw new CliUsageError('--from and --to name the same store');
      const settings = cliConfig().blobs;
      const from = createBlobStoreFromSettings({ ...settings, url: opts.from });
      const to = createBlobStoreFromSettings({ ...settings, url: opts.to });
      try {
        const say = (line: string) => (opts.json ? process.stderr : process.stdout).write(`${line}\n`);
        const result = await migrateBlobs(from, to, say);
        if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
        if (result.failed.length) process.exitCode = 1;
      } finally {
        await from.close();
        await to.close();
      }
    });
}
