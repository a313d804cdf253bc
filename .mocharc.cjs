// mocha runs TypeScript through tsx; the root hooks start a real PostgreSQL and a real Temporal dev
// server for the whole run (test/setup/root-hooks.ts).
module.exports = {
  'node-option': ['import=tsx'],
  require: ['test/setup/root-hooks.ts'],
  spec: ['test/**/*.test.ts'],
  timeout: 60000,
  exit: true,
  reporter: 'spec',
};
