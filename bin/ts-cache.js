// Loads the TypeScript sources of the `fip` command line without transpiling on the hot path: each
// .ts file is transpiled once with esbuild (type stripping only, as tsx does) and the result is kept
// in a cache keyed by the file's path, size and mtime and the esbuild version
// (FIP_TS_CACHE_DIR, default ~/.cache/fip/ts-cache). Later starts read the cached JavaScript, so a
// start costs Node itself plus the modules a command really loads. Returns false when esbuild is
// not available, so the caller can fall back to tsx.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const Module = require('node:module');

const HOOK_VERSION = '1';

function install() {
  let esbuildVersion;
  try {
    esbuildVersion = require('esbuild/package.json').version;
  } catch {
    return false;
  }
  const dir = process.env.FIP_TS_CACHE_DIR || path.join(os.homedir(), '.cache', 'fip', 'ts-cache');
  let esbuild;
  const transpile = (code, filename) => {
    esbuild = esbuild || require('esbuild');
    return esbuild.transformSync(code, {
      loader: 'ts', format: 'cjs', target: 'node20', sourcefile: filename, sourcemap: 'inline',
      // `await import('./x')` of a source file goes through this same loader.
      supported: { 'dynamic-import': false },
    }).code;
  };
  Module._extensions['.ts'] = function loadTs(module, filename) {
    const st = fs.statSync(filename);
    const key = crypto.createHash('sha256').update(`${HOOK_VERSION}|${esbuildVersion}|${filename}|${st.size}|${st.mtimeMs}`).digest('hex').slice(0, 40);
    const cached = path.join(dir, `${key}.js`);
    let js;
    try {
      js = fs.readFileSync(cached, 'utf8');
    } catch {
      js = transpile(fs.readFileSync(filename, 'utf8'), filename);
      try {
        fs.mkdirSync(dir, { recursive: true });
        const tmp = `${cached}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, js);
        fs.renameSync(tmp, cached);
      } catch {
        // a read-only or full cache directory only costs speed
      }
    }
    module._compile(js, filename);
  };
  return true;
}

module.exports = { install };
