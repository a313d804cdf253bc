/** Thrown by a command for bad arguments: the CLI prints the message and exits 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}
