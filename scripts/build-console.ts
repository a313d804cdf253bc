// `npm run build:console`: builds the console into console/dist (always; npm start and npm run api
// build it only when missing or stale).
import { buildConsole, CONSOLE_DIST } from '../infra/console-build';

buildConsole()
  .then(() => process.stdout.write(`console built into ${CONSOLE_DIST}\n`))
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
