// The platform's task kinds, declared in one place: which Temporal workflow types are platform
// tasks, the kind shown to callers, who may see one (read) and who may change one (write: cancel,
// progress notes), and the search-attribute names that operators filter by in the Temporal UI.
// A workflow whose type is not listed here is not a platform task: /tasks answers 404 for it.
import type { ApiKeyScope, Role } from '../accounts/roles';

/** A person holding any of `roles`, or a service key holding any of `scopes` (same rule as routes). */
export interface TaskAccessPolicy {
  roles: readonly Role[];
  scopes: readonly ApiKeyScope[];
}

export interface TaskKindDef {
  kind: string;
  read: TaskAccessPolicy;
  write: TaskAccessPolicy;
  /** Why POST /tasks/{id}/update must not cancel this kind (answered as 409), or null when it may. */
  cancelRefusal: string | null;
}

const REPORT_READ: TaskAccessPolicy = { roles: ['admin', 'analyst'], scopes: ['reports:read', 'reports:write'] };
const REPORT_WRITE: TaskAccessPolicy = { roles: ['admin', 'analyst'], scopes: ['reports:write'] };
const INVESTIGATION_READ: TaskAccessPolicy = { roles: ['admin', 'analyst'], scopes: ['investigations:read', 'investigations:write'] };
const INVESTIGATION_WRITE: TaskAccessPolicy = { roles: ['admin', 'analyst'], scopes: ['investigations:write'] };
const ADMIN_ONLY: TaskAccessPolicy = { roles: ['admin'], scopes: [] };
const INTAKE_READ: TaskAccessPolicy = { roles: ['admin', 'analyst', 'reviewer'], scopes: [] };
const INTAKE_WRITE: TaskAccessPolicy = { roles: ['admin', 'analyst'], scopes: [] };
const REVIEW_READ: TaskAccessPolicy = { roles: ['admin', 'analyst', 'reviewer'], scopes: [] };

/**
 * Workflow type -> task kind. Investigations (`ssi-<scan_id>`: investigations:read/write),
 * intakes and dossiers join this table when their workflows exist.
 */
export const PLATFORM_TASK_KINDS = {
  generateReportWorkflow: { kind: 'report', read: REPORT_READ, write: REPORT_WRITE, cancelRefusal: null },
  reportScheduleWorkflow: {
    kind: 'report-schedule',
    read: REPORT_READ,
    write: REPORT_WRITE,
    cancelRefusal: 'a report schedule is stopped with PUT /intelligence/scheduled-reports/{id}/deactivate',
  },
  scheduledReportsJobWorkflow: { kind: 'scheduled-reports-job', read: ADMIN_ONLY, write: ADMIN_ONLY, cancelRefusal: null },
  // The dashboards' materialized-view refresh, started by the `analytics-refresh` Schedule.
  analyticsRefreshWorkflow: { kind: 'analytics-refresh', read: ADMIN_ONLY, write: ADMIN_ONLY, cancelRefusal: null },
  // Watchlist rules evaluated and alerts delivered, started by the `watchlist-alerts` Schedule.
  watchlistAlertsWorkflow: { kind: 'watchlist-alerts', read: ADMIN_ONLY, write: ADMIN_ONLY, cancelRefusal: null },
  // The campaign suggestions' recomputation, started by the `campaign-suggestions` Schedule.
  campaignSuggestionsWorkflow: { kind: 'campaign-suggestions', read: ADMIN_ONLY, write: ADMIN_ONLY, cancelRefusal: null },
  // The same refresh after writes, debounced (`analytics-refresher-<task queue>`, signalled by the API).
  analyticsRefresherWorkflow: { kind: 'analytics-refresh', read: ADMIN_ONLY, write: ADMIN_ONLY, cancelRefusal: null },
  // A takedown's mail to its recipients (`takedown-send-<id>`).
  sendTakedownWorkflow: { kind: 'takedown-send', read: INVESTIGATION_READ, write: ADMIN_ONLY, cancelRefusal: null },
  // Sent takedowns' sites re-checked, started by the `takedown-watch` Schedule.
  takedownWatchWorkflow: { kind: 'takedown-watch', read: ADMIN_ONLY, write: ADMIN_ONLY, cancelRefusal: null },
  intakeProcessingWorkflow: { kind: 'intake', read: INTAKE_READ, write: INTAKE_WRITE, cancelRefusal: null },
  // A dossier (`dossier-<plan_id>`): collected, then sealed; cancelling it leaves the dossier failed.
  dossierWorkflow: { kind: 'dossier', read: REPORT_READ, write: REPORT_WRITE, cancelRefusal: null },
  ssiInvestigationWorkflow: { kind: 'investigation', read: INVESTIGATION_READ, write: INVESTIGATION_WRITE, cancelRefusal: null },
  // A review claim's expiry timer (`review-claim-<review_id>-<claim_seq>`).
  reviewClaimWorkflow: {
    kind: 'review-claim',
    read: REVIEW_READ,
    write: ADMIN_ONLY,
    cancelRefusal: 'a review claim ends by a decision, a renewal (claim again) or its expiry',
  },
} as const satisfies Record<string, TaskKindDef>;

export type PlatformWorkflowType = keyof typeof PLATFORM_TASK_KINDS;
export type TaskKind = (typeof PLATFORM_TASK_KINDS)[PlatformWorkflowType]['kind'];

/** The kind of a workflow type, or null when the workflow is not one of the platform's tasks. */
export function platformTaskKind(workflowType: string): TaskKindDef | null {
  return Object.hasOwn(PLATFORM_TASK_KINDS, workflowType) ? PLATFORM_TASK_KINDS[workflowType as PlatformWorkflowType] : null;
}

/** The union of the policies of every kind: the route-level policy of the /tasks routes. */
export function anyTaskKindPolicy(which: 'read' | 'write'): TaskAccessPolicy {
  const defs: TaskKindDef[] = Object.values(PLATFORM_TASK_KINDS);
  return {
    roles: [...new Set(defs.flatMap((d) => d[which].roles))],
    scopes: [...new Set(defs.flatMap((d) => d[which].scopes))],
  };
}

/**
 * Search attributes (all of type Keyword) on every platform workflow: its kind and the id of the
 * record it serves. Registered on the embedded dev server at start and by `fip setup temporal`.
 */
export const SEARCH_ATTRIBUTE_KIND = 'FipKind';
export const SEARCH_ATTRIBUTE_RECORD_ID = 'FipRecordId';
/** The named state of a task that has one (an investigation's QUEUED, NAVIGATE, ..., COMPLETE). */
export const SEARCH_ATTRIBUTE_STAGE = 'FipStage';
export const PLATFORM_SEARCH_ATTRIBUTES: readonly string[] = [SEARCH_ATTRIBUTE_KIND, SEARCH_ATTRIBUTE_RECORD_ID, SEARCH_ATTRIBUTE_STAGE];
