// A parser process: reads one hostile file (or searches one text for entities) under the memory
// and time bounds its parent set (infra/isolated-process.ts), answers, and exits. Plain JavaScript
// so that it starts fast: the TypeScript it needs comes through the transpile cache of the `fip`
// command (bin/ts-cache.js), or tsx without esbuild.
'use strict';
/* global process, require */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS entry point, loaded before any TypeScript hook */
if (process.env.FIP_TS_LOADER === 'tsx' || !require('../bin/ts-cache').install()) require('tsx/cjs/api').register();
const { serveIsolatedRequest } = require('../infra/isolated-process.ts');
const { handleParserRequest } = require('../services/intakes/parser-requests.ts');
serveIsolatedRequest(handleParserRequest);
