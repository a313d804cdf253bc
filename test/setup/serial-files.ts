// Test files that run alone, after the parallel phase of `npm test` (test/setup/run-suite.ts):
// each asserts on totals or on everything a table or collection holds (dashboard figures, list
// totals, TAXII and feed paging over every object), so a file writing beside it would change the
// answer it checks. Every other file keeps to data it creates and runs in parallel; a new file
// belongs here only for that reason, said in a comment.
export const SERIAL_TEST_FILES: readonly string[] = [
  // Schemathesis as an admin walks the user and API-key routes with real ids from their lists (its
  // stateful phase): it disables users and revokes keys, other files' included, so a file running
  // beside it lost its identities mid-test. Alone, it blinds nothing but its own runs, and its admin
  // run comes last.
  'test/platform/fuzz.test.ts',
  // Impact KPI and overview figures are sums over every case, intake, review and referral.
  'test/analytics/dashboards.test.ts',
  // The materialized views are compared with a live computation over whole tables.
  'test/analytics/analytics-refresh.test.ts',
  // Campaign lists filtered by taxonomy and status are compared with what the file created.
  'test/analytics/campaigns.test.ts',
  // The impact figure of a scam type before a write, plus the write, must be the figure after it.
  'test/analytics/refresh-after-write.test.ts',
  // The dashboards page shows the views' figures and compares them with the API's at that moment.
  'test/console/console-dashboards.e2e.test.ts',
  // Case lists with filters are compared with what the file created.
  'test/cases/cases-api.test.ts',
  // TAXII and feed paging: every object exactly once, equal totals, under concurrent writers of its own.
  'test/exports/taxii-conformance.test.ts',
  'test/exports/taxii-and-feed.test.ts',
  // Reads the feed's first 1,000 changes since its start: other files' writers would push its own out.
  'test/exports/machine-feed-values.test.ts',
  // Compares the in-memory graph with the SQL traversal over the whole relationship table.
  'test/intelligence/graph-projection.test.ts',
  // A watchlist-alerts pass evaluates every watchlist and delivers every due alert in the database
  // through the running worker's SMTP and egress settings: a pass of one file would deliver the
  // other's alerts to the wrong mail sink.
  'test/alerts/watchlist-alerts.test.ts',
  'test/console/console-alerts.e2e.test.ts',
  // Terminates one of its schedules' workflows and expects the reconciliation job it runs to be the one
  // that restarts it: a job run by another file (task-access, the workflow labels) restarts every
  // missing schedule workflow, its own included.
  'test/reports/scheduled-reports.test.ts',
  // Each kit family's sites must link to each other "and to nothing else", and the families must come
  // out as suggestions on their own: another file investigating the same kits (the classification
  // test investigates kit-family sites) is, rightly, linked to them.
  'test/similarity/similar-sites.test.ts',
  // Runs its own API and worker processes and MinIO, and kills a worker mid-generation: under the
  // parallel phase's load its waits for the reports stretched past their two-minute bounds.
  'test/platform/several-machines.test.ts',
];

/**
 * Files of the parallel phase started first, before the alphabetical rest. Empty: Schemathesis, the
 * one file long enough to need it, now runs alone (above). Starting every long file first was tried
 * and made the phase slower (the heaviest files, each with Chromium or a fuzzer, then all ran at
 * once and stretched past their bounds); alphabetical order mixes heavy and light.
 */
export const SLOW_TEST_FILES_FIRST: readonly string[] = [];
