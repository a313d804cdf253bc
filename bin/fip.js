#!/usr/bin/env node
// Entry point of the `fip` command line: runs the TypeScript sources through tsx
// (both the require and the import hooks, since commands load their modules lazily).
'use strict';
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
