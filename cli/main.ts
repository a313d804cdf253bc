// The `fip` command line. Each command group lives in cli/commands/<group>.ts and exports
// `register(program)`. Usage errors exit 2, failures exit 1, success 0.
import { Command, CommanderError } from 'commander';
import { registerCommandGroups } from './commands';
import { CliUsageError } from './cli-errors';

export async function runCli(argv: string[]): Promise<number> {
  const program = new Command();
  program
    .name('fip')
    .description('Fraud-intelligence platform command line')
    .showHelpAfterError()
    .exitOverride();
  registerCommandGroups(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version') return 0;
      return 2;
    }
    if (err instanceof CliUsageError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

/**
 * Resolves once everything written to the stream so far has been handed to the OS. Writes to a
 * pipe are asynchronous: exiting before they drain cuts the output (at 64 KiB, the pipe's buffer).
 */
export function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('error', () => resolve());
    // Writes complete in order: the callback of an empty write runs after every earlier chunk.
    stream.write('', () => resolve());
  });
}

/** Sets the exit code, waits for stdout and stderr to drain, then exits (open handles of other commands cannot keep it alive). */
async function exitAfterFlush(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

if (require.main === module || process.argv[1]?.endsWith('fip.js') || process.argv[1]?.endsWith('fip')) {
  runCli(process.argv.slice(2)).then(
    (code) => exitAfterFlush(code),
    (err) => {
      process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
      return exitAfterFlush(1);
    },
  );
}
