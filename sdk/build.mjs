// Builds the SDK's package: TypeScript compiled twice, to ES modules (dist/esm) and to CommonJS
// (dist/cjs), each with its declarations, so `import` and `require` both load JavaScript in plain
// Node and bundlers get ES modules for browsers. tsc twice rather than a bundler: no dependency
// beyond the repository's own TypeScript, and files that map one to one onto src/.
// `npm run build` here, `npm run sdk:build` at the repository root, and `npm pack` (prepack).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dist = path.join(here, 'dist');

rmSync(dist, { recursive: true, force: true });
for (const [config, type] of [['tsconfig.esm.json', 'module'], ['tsconfig.cjs.json', 'commonjs']]) {
  execFileSync(process.execPath, [tsc, '-p', path.join(here, config)], { stdio: 'inherit' });
  // The package itself is "type": "commonjs"; each output folder says what its .js files are.
  const out = path.join(dist, type === 'module' ? 'esm' : 'cjs');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
process.stdout.write(`built ${path.relative(process.cwd(), dist) || 'dist'} (esm, cjs)\n`);
