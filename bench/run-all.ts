// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) in turn.
// Each prints its own figures and the ratio against its baseline, measured in the same run.
// A name matches by file name: `npm run bench -- funnels` runs bench/funnels.bench.ts (the funnel
// agent's fixture sites end to end), `-- investigation` bench/investigation.bench.ts, and so on.
import fs from 'node:fs';
import path from 'node:path';

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  for (const file of files) {
    process.stdout.write(`\n=== ${file} ===\n`);
    const started = Date.now();
    const mod = (await import(path.join(__dirname, file))) as { run(): Promise<void> };
    await mod.run();
    process.stdout.write(`(${file}: ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
