// Cases: statuses, priorities and the status machine (pure; the repository and routes enforce it).
//
//   open ──> in_review ──> referred ──> closed
//     │  <──     │             │          │
//     └──────────┴─────────────┴──> closed │
//   closed ──> open            (reopen: the only way out of closed)
//
// open → in_review | referred | closed; in_review → open | referred | closed;
// referred → in_review | closed; closed → open.
export const CASE_STATUSES = ['open', 'in_review', 'referred', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const CASE_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type CasePriority = (typeof CASE_PRIORITIES)[number];

export const CASE_LINK_TYPES = ['intake', 'investigation', 'entity'] as const;
export type CaseLinkType = (typeof CASE_LINK_TYPES)[number];

export const CASE_TRANSITIONS: Readonly<Record<CaseStatus, readonly CaseStatus[]>> = {
  open: ['in_review', 'referred', 'closed'],
  in_review: ['open', 'referred', 'closed'],
  referred: ['in_review', 'closed'],
  closed: ['open'],
};

/** The statuses a case in `from` may move to. */
export function allowedCaseTransitions(from: CaseStatus): readonly CaseStatus[] {
  return CASE_TRANSITIONS[from];
}

/** True when `from` may move to `to` (staying in the same status is not a move). */
export function canMoveCase(from: CaseStatus, to: CaseStatus): boolean {
  return CASE_TRANSITIONS[from].includes(to);
}

/** Higher is more urgent: critical 4 … low 1 (the review queue's first ordering key). */
export function priorityRank(p: CasePriority): number {
  return CASE_PRIORITIES.indexOf(p) + 1;
}
