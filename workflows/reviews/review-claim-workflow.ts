// A review claim's expiry timer (`review-claim-<review_id>-<claim_seq>`): sleeps until the claim
// expires, then returns the review to the queue (a `release` action) unless the claim was renewed
// or decided meanwhile. Renewing or deciding cancels this workflow; the release is also guarded by
// the claim number, so a timer that outlives its claim changes nothing.
import { isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import { trackProgress } from '../tasks/task-progress';

const activities = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export interface ReviewClaimTimerInput {
  reviewId: string;
  claimSeq: number;
  /** ISO 8601: when the claim expires. */
  expiresAt: string;
}

export type ReviewClaimTimerResult = 'released' | 'superseded' | 'cancelled';

export async function reviewClaimWorkflow(input: ReviewClaimTimerInput): Promise<ReviewClaimTimerResult> {
  const progress = trackProgress('waiting for the claim to expire');
  progress.set('waiting for the claim to expire', null, { review_id: input.reviewId, claim_seq: input.claimSeq, expires_at: input.expiresAt });
  try {
    let wait = Math.max(0, Date.parse(input.expiresAt) - Date.now());
    for (;;) {
      await sleep(wait);
      const result = await activities.releaseExpiredReviewClaim({ reviewId: input.reviewId, claimSeq: input.claimSeq });
      if (result.released) {
        progress.set('released', 100, { review_id: input.reviewId });
        return 'released';
      }
      if (result.reason === 'superseded') {
        progress.set('superseded', 100, { review_id: input.reviewId });
        return 'superseded';
      }
      // The database clock says not yet (clock skew between the workers and PostgreSQL).
      wait = Math.max(100, result.remaining_ms);
    }
  } catch (err) {
    if (isCancellation(err)) {
      progress.set('cancelled: the claim was renewed or decided', 100, { review_id: input.reviewId });
      return 'cancelled';
    }
    throw err;
  }
}
