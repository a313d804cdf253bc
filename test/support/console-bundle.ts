// The console bundle's files (built by the test setup): for tests that need a real asset name.
import fs from 'node:fs';
import path from 'node:path';
import { CONSOLE_DIST } from '../../infra/console-build';

/** The name of the console's JavaScript bundle (content-hashed, e.g. index-Df-QPz7B.js). */
export function consoleAssetName(): string {
  const name = fs.readdirSync(path.join(CONSOLE_DIST, 'assets')).find((f) => f.endsWith('.js'));
  if (!name) throw new Error('the console bundle has no JavaScript asset: run npm run build:console');
  return name;
}
