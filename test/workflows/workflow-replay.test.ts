// Workflows that sleep for a month must survive code changes: every recorded history
// (test/fixtures/workflow-histories, re-recorded with `npm run record-histories`) replays against
// the current workflow bundle, and any non-determinism fails this test (and CI).
import assert from 'node:assert/strict';
import { Worker } from '@temporalio/worker';
import { createLogger } from '../../infra/logger';
import { installTemporalRuntime, workflowBundle } from '../../app/platform-runtime';
import { readHistories } from '../support/workflow-histories';

const SCENARIOS = [
  'analytics-refresh',
  'intake-processing',
  'one-off-report',
  'report-schedule-deactivated',
  'report-schedule-run',
  'review-claim-cancelled',
  'review-claim-released',
  'scheduled-reports-job',
  'ssi-investigation',
  'watchlist-alerts',
];

describe('recorded workflow histories', function () {
  this.timeout(120_000);

  it('every scenario has a recorded history', () => {
    const recorded = new Set(readHistories().map((h) => h.scenario));
    assert.deepEqual(SCENARIOS.filter((s) => !recorded.has(s)), []);
  });

  it('replay against the current workflow code without non-determinism', async () => {
    installTemporalRuntime(createLogger(process.env.FIP_TEST_LOG_LEVEL ?? 'silent', 'fip-test'));
    const histories = readHistories();
    const outcomes: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) {
      outcomes.push(`${result.workflowId}: ${result.error ? `${result.error.name}: ${result.error.message}` : 'ok'}`);
    }
    assert.deepEqual(outcomes.sort(), histories.map((h) => `${h.workflowId}: ok`).sort());
  });
});
