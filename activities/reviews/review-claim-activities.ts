// The database step of a review claim's expiry timer: return an expired claim to the queue.
import type { Knex } from 'knex';
import { releaseExpiredClaim, type ReleaseResult } from '../../db/repositories/reviews/review-repository';

export function createReviewClaimActivities(deps: { knex: Knex }) {
  return {
    /** Idempotent: releases only claim number `claimSeq`, and only once it has expired. */
    async releaseExpiredReviewClaim(input: { reviewId: string; claimSeq: number }): Promise<ReleaseResult> {
      return releaseExpiredClaim(deps.knex, input.reviewId, input.claimSeq);
    },
  };
}
