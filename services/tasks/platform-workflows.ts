// Every workflow the platform starts goes through here, so that an operator finds it in the
// Temporal UI: a memo with a human title, and typed search attributes naming its task kind
// (FipKind) and the record it serves (FipRecordId: schedule id, report task id, ...). The
// attributes are registered on the embedded dev server at start (infra/temporal-dev-server.ts)
// and on a cluster by `npx fip setup temporal`.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair, type WorkflowIdConflictPolicy, type WorkflowIdReusePolicy } from '@temporalio/common';
import {
  PLATFORM_TASK_KINDS,
  SEARCH_ATTRIBUTE_KIND,
  SEARCH_ATTRIBUTE_RECORD_ID,
  type PlatformWorkflowType,
} from '../../domain/tasks/task-kinds';

export const FIP_KIND = defineSearchAttributeKey(SEARCH_ATTRIBUTE_KIND, SearchAttributeType.KEYWORD);
export const FIP_RECORD_ID = defineSearchAttributeKey(SEARCH_ATTRIBUTE_RECORD_ID, SearchAttributeType.KEYWORD);

export interface PlatformWorkflowLabels {
  memo: { title: string };
  typedSearchAttributes: SearchAttributePair[];
}

/** The memo and search attributes of a platform workflow; the kind follows from its type. */
export function platformWorkflowLabels(workflowType: PlatformWorkflowType, recordId: string, title: string): PlatformWorkflowLabels {
  return {
    memo: { title },
    typedSearchAttributes: [
      { key: FIP_KIND, value: PLATFORM_TASK_KINDS[workflowType].kind },
      { key: FIP_RECORD_ID, value: recordId },
    ],
  };
}

export interface PlatformWorkflowStart {
  workflowType: PlatformWorkflowType;
  workflowId: string;
  taskQueue: string;
  args: unknown[];
  /** The id of the record this workflow serves (schedule id, scan id, intake id, ...). */
  recordId: string;
  /** A human title for the Temporal UI's memo. */
  title: string;
  workflowIdConflictPolicy?: WorkflowIdConflictPolicy;
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
}

export async function startPlatformWorkflow(client: Client, start: PlatformWorkflowStart): Promise<WorkflowHandle> {
  return client.workflow.start(start.workflowType, {
    workflowId: start.workflowId,
    taskQueue: start.taskQueue,
    args: start.args,
    ...(start.workflowIdConflictPolicy ? { workflowIdConflictPolicy: start.workflowIdConflictPolicy } : {}),
    ...(start.workflowIdReusePolicy ? { workflowIdReusePolicy: start.workflowIdReusePolicy } : {}),
    ...platformWorkflowLabels(start.workflowType, start.recordId, start.title),
  });
}
