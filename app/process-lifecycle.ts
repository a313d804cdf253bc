// Clean shutdown on SIGINT/SIGTERM: the steps run in order once; a second signal forces exit.
import type { Logger } from '../infra/logger';

export function onShutdown(log: Logger, steps: Array<[string, () => Promise<void>]>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(130);
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    void (async () => {
      for (const [name, step] of steps) {
        try {
          await step();
          log.debug({ step: name }, 'stopped');
        } catch (err) {
          log.warn({ err, step: name }, 'error while stopping');
        }
      }
      log.info('stopped cleanly');
      process.exit(0);
    })();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
