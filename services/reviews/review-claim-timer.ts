// Starts and cancels the expiry timer of a review claim (workflows/reviews/review-claim-workflow.ts).
// One workflow per claim, `review-claim-<review_id>-<claim_seq>`, so a renewal never collides with
// the timer it replaces.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { startPlatformWorkflow } from '../tasks/platform-workflows';
import { reviewClaimWorkflow } from '../../workflows/reviews/review-claim-workflow';

export function reviewClaimWorkflowId(reviewId: string, claimSeq: number): string {
  return `review-claim-${reviewId}-${claimSeq}`;
}

export async function startReviewClaimTimer(
  temporal: Client,
  taskQueue: string,
  claim: { reviewId: string; claimSeq: number; expiresAt: Date; claimedBy: string },
): Promise<string> {
  const workflowId = reviewClaimWorkflowId(claim.reviewId, claim.claimSeq);
  await startPlatformWorkflow(temporal, {
    workflow: reviewClaimWorkflow,
    workflowId,
    taskQueue,
    args: [{ reviewId: claim.reviewId, claimSeq: claim.claimSeq, expiresAt: claim.expiresAt.toISOString() }],
    recordId: claim.reviewId,
    title: `Review claim expiry: review ${claim.reviewId} (claim ${claim.claimSeq}, ${claim.claimedBy})`,
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  return workflowId;
}

/**
 * Cancels the timer of claim `claimSeq`. Best effort: a timer already finished (or never started)
 * answers false, and a timer that survives changes nothing (the release checks the claim number).
 */
export async function cancelReviewClaimTimer(temporal: Client, reviewId: string, claimSeq: number): Promise<boolean> {
  if (claimSeq < 1) return false;
  try {
    await temporal.workflow.getHandle(reviewClaimWorkflowId(reviewId, claimSeq)).cancel();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
