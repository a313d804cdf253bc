// Recorded workflow histories (test/fixtures/workflow-histories/*.json): written by
// `npm run record-histories`, replayed against the current workflow code by
// test/workflows/workflow-replay.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import type { HistoryAndWorkflowId } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
const HistoryMessage = temporal.api.history.v1.History;
// Stored as protobufjs objects (enums as names, 64-bit integers and bytes as strings) through
// @temporalio/proto itself: the SDK's historyToJSON fails in this install ("type must be a Type")
// because @temporalio/common resolves another protobufjs major than @temporalio/proto.
const AS_JSON = { longs: String, enums: String, bytes: String } as const;

export const HISTORY_DIR = path.resolve(__dirname, '..', 'fixtures', 'workflow-histories');

interface HistoryFile {
  scenario: string;
  workflowType: string;
  workflowId: string;
  recordedWith: string;
  history: unknown;
}

export function writeHistory(scenario: string, workflowType: string, workflowId: string, history: History): string {
  fs.mkdirSync(HISTORY_DIR, { recursive: true });
  const file = path.join(HISTORY_DIR, `${scenario}.json`);
  const body: HistoryFile = { scenario, workflowType, workflowId, recordedWith: 'npm run record-histories', history: HistoryMessage.toObject(HistoryMessage.fromObject(history), AS_JSON) };
  fs.writeFileSync(file, `${JSON.stringify(body, null, 1)}\n`);
  return file;
}

export function readHistories(): Array<HistoryAndWorkflowId & { scenario: string }> {
  return fs
    .readdirSync(HISTORY_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const body = JSON.parse(fs.readFileSync(path.join(HISTORY_DIR, f), 'utf8')) as HistoryFile;
      return { scenario: body.scenario, workflowId: body.workflowId, history: HistoryMessage.fromObject(body.history as Record<string, unknown>) };
    });
}
