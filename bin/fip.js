#!/usr/bin/env node
// Entry point of the `fip` command line. The TypeScript sources are loaded through a transpile
// cache (bin/ts-cache.js: esbuild once per changed file, cached JavaScript afterwards), so a start
// does not transpile; without esbuild it falls back to tsx (both its require and import hooks).
'use strict';
if (process.env.FIP_TS_LOADER !== 'tsx' && require('./ts-cache').install()) {
  require('../cli/main.ts');
} else {
  require('tsx/cjs/api').register();
  import('tsx/esm/api')
    .then(({ register }) => {
      register();
      require('../cli/main.ts');
    })
    .catch((err) => {
      process.stderr.write(`fip: could not start: ${err && err.message}\n`);
      process.exit(1);
    });
}
