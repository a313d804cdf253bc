// The case and LEA referral status machines and the decision rules, as pure functions.
import assert from 'node:assert/strict';
import { CASE_STATUSES, canMoveCase, priorityRank } from '../../domain/cases/case-states';
import { LEA_REFERRAL_STATUSES, allowedReferralStatuses, canSetReferralStatus } from '../../domain/cases/lea-referral-states';
import { caseStatusAfterDecision } from '../../domain/reviews/review-rules';

describe('case, review and referral rules', () => {
  it('allows exactly the documented case moves', () => {
    const allowed = CASE_STATUSES.flatMap((from) => CASE_STATUSES.filter((to) => canMoveCase(from, to)).map((to) => `${from}>${to}`));
    assert.deepEqual(allowed, [
      'open>in_review', 'open>referred', 'open>closed',
      'in_review>open', 'in_review>referred', 'in_review>closed',
      'referred>in_review', 'referred>closed',
      'closed>open',
    ]);
  });

  it('allows exactly the documented referral moves, same-status updates except when closed, and only draft to create', () => {
    const allowed = LEA_REFERRAL_STATUSES.flatMap((from) => LEA_REFERRAL_STATUSES.filter((to) => canSetReferralStatus(from, to)).map((to) => `${from}>${to}`));
    assert.deepEqual(allowed, [
      'draft>draft', 'draft>submitted', 'draft>closed',
      'submitted>submitted', 'submitted>acknowledged', 'submitted>closed',
      'acknowledged>acknowledged', 'acknowledged>closed',
    ]);
    assert.deepEqual(allowedReferralStatuses(null), ['draft']);
    assert.deepEqual(LEA_REFERRAL_STATUSES.filter((to) => canSetReferralStatus(null, to)), ['draft']);
  });

  it('orders priorities critical > high > medium > low and maps decisions to case statuses', () => {
    assert.deepEqual(['low', 'medium', 'high', 'critical'].map((p) => priorityRank(p as 'low')), [1, 2, 3, 4]);
    assert.deepEqual(
      (['escalate', 'refer_to_lea', 'close_no_action', 'needs_more_info'] as const).map(caseStatusAfterDecision),
      [null, 'referred', 'closed', 'open'],
    );
  });
});
