// Which task failures callers may read verbatim. Activities and workflows raise an
// ApplicationFailure with one of these types on purpose, with a message written for the user
// (invalid input, a missing dependency the operator must install). Every other failure (a driver
// error quoting SQL, a file path, a stack) is internal: callers see only the failing step and the
// request id under which the API logged the full error. Add a type here when you raise a new one.
export const PUBLIC_FAILURE_TYPES: ReadonlySet<string> = new Set([
  'InvalidReportRequest',
  'InvalidScheduleOptions',
  'ChromiumUnavailable',
  'IntakeNotFound',
  'IntakeStepOrder',
  'IntakeStepAbandoned',
  'InvestigationTargetBlocked',
  'DossierSourceMissing',
]);

export function isPublicFailureType(type: string | null | undefined): boolean {
  return type != null && PUBLIC_FAILURE_TYPES.has(type);
}

/** The message a caller sees for a failure of `step` (an activity or workflow type). */
export function publicFailureMessage(step: string, type: string | null | undefined, message: string, requestId: string): string {
  return isPublicFailureType(type) ? message : `${step} failed: internal error; quote request id ${requestId}`;
}
