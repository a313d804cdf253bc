// mocha runs TypeScript through tsx; the root hooks start a real PostgreSQL and a real Temporal dev
// server for the whole run (test/setup/root-hooks.ts). `npx mocha <files>` runs only those files:
// mocha adds command-line files to the configured spec, so the whole suite is the spec only when
// no test file is named.
const namesTestFiles = process.argv.slice(2).some((arg) => /\.test\.ts$/.test(arg) || arg.startsWith('test/'));

module.exports = {
  'node-option': ['import=tsx'],
  require: ['test/setup/root-hooks.ts'],
  spec: namesTestFiles ? [] : ['test/**/*.test.ts'],
  timeout: 60000,
  exit: true,
  // spec, plus a plain closing line 'tests: N passed, N failed, N skipped' that CI services read.
  reporter: 'test/reporter/spec-with-summary.ts',
};
