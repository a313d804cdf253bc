// The intake state machine. Processing moves an intake received -> processing -> processed (or
// failed); people move it on from there with POST /intakes/{id}/status:
//
//   received   -> processing (system) | rejected | closed
//   processing -> processed (system) | failed (system)
//   failed     -> processing (system, on retry) | rejected | closed
//   processed  -> triaged | linked | rejected | closed
//   triaged    -> linked | rejected | closed
//   linked     -> closed
//   rejected   -> triaged (reopen) | closed
//   closed     -> (final)
//
// `linked` is also reached by attaching the intake to a case (POST /intakes/{id}/case).
export const INTAKE_STATUSES = ['received', 'processing', 'processed', 'failed', 'triaged', 'linked', 'rejected', 'closed'] as const;
export type IntakeStatus = (typeof INTAKE_STATUSES)[number];

/** States only processing sets; people cannot move an intake into them. */
export const SYSTEM_STATUSES: ReadonlySet<IntakeStatus> = new Set(['processing', 'processed', 'failed']);

const TRANSITIONS: Record<IntakeStatus, readonly IntakeStatus[]> = {
  received: ['processing', 'rejected', 'closed'],
  processing: ['processed', 'failed'],
  failed: ['processing', 'rejected', 'closed'],
  processed: ['triaged', 'linked', 'rejected', 'closed'],
  triaged: ['linked', 'rejected', 'closed'],
  linked: ['closed'],
  rejected: ['triaged', 'closed'],
  closed: [],
};

/** Where a person may move an intake from `from`. */
export function allowedUserMoves(from: IntakeStatus): IntakeStatus[] {
  return TRANSITIONS[from].filter((s) => !SYSTEM_STATUSES.has(s));
}

export function canUserMove(from: IntakeStatus, to: IntakeStatus): boolean {
  return allowedUserMoves(from).includes(to);
}

export function canSystemMove(from: IntakeStatus, to: IntakeStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Statuses from which attaching to a case moves the intake to `linked` (others keep theirs). */
export function linksOnAttach(from: IntakeStatus): boolean {
  return canUserMove(from, 'linked');
}
