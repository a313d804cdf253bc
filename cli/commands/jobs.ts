import type { Command } from 'commander';

export function register(program: Command): void {
  const jobs = program.command('jobs').description('Platform jobs');
  jobs
    .command('scheduled-reports')
    .description(
      'Reconcile report schedules: start the workflow of every active schedule that has none, and run every due schedule that has not run (idempotent)',
    )
    .option('--dry-run', 'only list what would be done')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { dryRun?: boolean; json?: boolean }) => {
      const { withDatabase, withTemporal } = await import('../cli-runtime');
      const { cliConfig } = await import('../cli-config');
      const { createActivities, createActivityResources } = await import('../../activities');
      const { createLogger } = await import('../../infra/logger');
      const config = cliConfig();
      const log = createLogger(process.env.FIP_CLI_LOG_LEVEL ?? 'warn', 'fip-jobs');
      const result = await withDatabase((knex) =>
        withTemporal(async (temporal) => {
          const resources = createActivityResources(config);
          try {
            const acts = createActivities({ config, knex, temporal, log, resources });
            const { runScheduledReportsJob } = await import('../../services/reports/scheduled-reports-job');
            return await runScheduledReportsJob(
              {
                knex,
                temporal,
                log,
                taskQueue: config.temporal.task_queue,
                steps: acts,
                onProgress: opts.json ? undefined : (line) => process.stdout.write(`${line}\n`),
              },
              { dryRun: Boolean(opts.dryRun) },
            );
          } finally {
            await resources.close();
          }
        }),
      );
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        return;
      }
      const w = result.workflows;
      process.stdout.write(
        `${result.dry_run ? '[dry run] ' : ''}checked ${result.checked} active schedule(s): ${w.running} workflow(s) running, ` +
          `${result.dry_run ? `${w.would_start.length} would be started` : `${w.started.length} started`}, ` +
          `${result.due.length} due ${result.dry_run ? '(would run)' : 'run'}\n`,
      );
    });
}
