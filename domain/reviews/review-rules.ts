// Reviews: statuses, decisions, actions, and what a decision does to its case (pure).
//
// A review is `queued` until a reviewer claims it; `claimed` until it is decided or its claim
// expires (then `queued` again, logged as a `release`); `decided` is final (a decision is recorded
// once). The claimer may claim again to renew the claim.
import type { CaseStatus } from '../cases/case-states';

export const REVIEW_STATUSES = ['queued', 'claimed', 'decided'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_DECISIONS = ['escalate', 'refer_to_lea', 'close_no_action', 'needs_more_info'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const REVIEW_ACTIONS = ['enqueue', 'claim', 'release', 'annotate', 'feedback', 'decision'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export const ANNOTATION_TARGET_TYPES = ['case', 'intake', 'investigation', 'entity', 'file'] as const;

/** The status a decision moves its case to (when the case machine allows it), or null to leave it. */
export function caseStatusAfterDecision(decision: ReviewDecision): CaseStatus | null {
  switch (decision) {
    case 'refer_to_lea':
      return 'referred';
    case 'close_no_action':
      return 'closed';
    case 'needs_more_info':
      return 'open';
    case 'escalate':
      return null;
  }
}
