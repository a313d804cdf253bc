// Every workflow the platform starts goes through here, so that an operator finds it in the
// Temporal UI: a memo with a human title, and typed search attributes naming its task kind
// (FipKind) and the record it serves (FipRecordId: schedule id, report task id, ...). The
// attributes are registered on the embedded dev server at start (infra/temporal-dev-server.ts)
// and on a cluster by `npx fip setup temporal`.
//
// Workflows are started by function reference (`workflow: ssiInvestigationWorkflow`), never by a
// name string: the SDK takes the workflow type from the function's name and the compiler checks
// `args` against its parameters, so a wrong argument does not compile. Importing a workflow
// function outside a worker only loads its module (no workflow code runs here).
import type { Client, WorkflowHandle } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair, type WorkflowIdConflictPolicy, type WorkflowIdReusePolicy } from '@temporalio/common';
import {
  PLATFORM_TASK_KINDS,
  SEARCH_ATTRIBUTE_KIND,
  SEARCH_ATTRIBUTE_RECORD_ID,
  type PlatformWorkflowType,
} from '../../domain/tasks/task-kinds';
import type * as platformWorkflows from '../../workflows';

export const FIP_KIND = defineSearchAttributeKey(SEARCH_ATTRIBUTE_KIND, SearchAttributeType.KEYWORD);
export const FIP_RECORD_ID = defineSearchAttributeKey(SEARCH_ATTRIBUTE_RECORD_ID, SearchAttributeType.KEYWORD);

type PlatformWorkflows = typeof platformWorkflows;
/** One of the functions the platform's workers run (workflows/index.ts). */
export type PlatformWorkflow = PlatformWorkflows[keyof PlatformWorkflows];

// Every workflow the workers run is a task kind of domain/tasks/task-kinds.ts and the other way
// round: a workflow added to one and not the other fails to compile here.
type Missing<A, B> = Exclude<keyof A, keyof B>;
const _everyWorkflowHasAKind: [Missing<PlatformWorkflows, typeof PLATFORM_TASK_KINDS>] extends [never] ? true : never = true;
const _everyKindHasAWorkflow: [Missing<typeof PLATFORM_TASK_KINDS, PlatformWorkflows>] extends [never] ? true : never = true;
void _everyWorkflowHasAKind;
void _everyKindHasAWorkflow;

/** The workflow type Temporal records for a platform workflow function (its name). */
export function workflowTypeOf(workflow: PlatformWorkflow): PlatformWorkflowType {
  const type = workflow.name;
  if (!Object.hasOwn(PLATFORM_TASK_KINDS, type)) throw new Error(`${type} is not a platform workflow`);
  return type as PlatformWorkflowType;
}

export interface PlatformWorkflowLabels {
  memo: { title: string };
  typedSearchAttributes: SearchAttributePair[];
}

/** The memo and search attributes of a platform workflow; the kind follows from its type. */
export function platformWorkflowLabels(workflow: PlatformWorkflow, recordId: string, title: string): PlatformWorkflowLabels {
  return {
    memo: { title },
    typedSearchAttributes: [
      { key: FIP_KIND, value: PLATFORM_TASK_KINDS[workflowTypeOf(workflow)].kind },
      { key: FIP_RECORD_ID, value: recordId },
    ],
  };
}

export interface PlatformWorkflowStart<W extends PlatformWorkflow> {
  workflow: W;
  workflowId: string;
  taskQueue: string;
  args: Parameters<W>;
  /** The id of the record this workflow serves (schedule id, scan id, intake id, ...). */
  recordId: string;
  /** A human title for the Temporal UI's memo. */
  title: string;
  workflowIdConflictPolicy?: WorkflowIdConflictPolicy;
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
}

export async function startPlatformWorkflow<W extends PlatformWorkflow>(client: Client, start: PlatformWorkflowStart<W>): Promise<WorkflowHandle<W>> {
  const options = {
    workflowId: start.workflowId,
    taskQueue: start.taskQueue,
    args: start.args,
    ...(start.workflowIdConflictPolicy ? { workflowIdConflictPolicy: start.workflowIdConflictPolicy } : {}),
    ...(start.workflowIdReusePolicy ? { workflowIdReusePolicy: start.workflowIdReusePolicy } : {}),
    ...platformWorkflowLabels(start.workflow, start.recordId, start.title),
  };
  return client.workflow.start<W>(start.workflow, options as Parameters<typeof client.workflow.start<W>>[1]);
}
