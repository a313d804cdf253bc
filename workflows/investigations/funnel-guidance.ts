// The human in the loop, for the funnel's workflow: askHuman opens a guidance request, enters
// AWAITING_GUIDANCE, waits durably (a workflow condition with a timeout) for `guidanceAnswerSignal`
// with its request id, closes the request (answered, aborted, expired) and answers the reply.
// An answer arrives as a reference to the sealed answer (domain/investigations/guidance.ts), never the
// answer itself, so the history holds no answer; the activity that types it resolves the reference.
import { CancellationScope, condition, isCancellation, proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { PlatformActivities } from '../../activities';
import { AWAITING_GUIDANCE, type GuidanceAnswer, type GuidanceKind } from '../../domain/investigations/funnel';
import { closingStatus } from '../../domain/investigations/guidance';
import { guidanceAnswerSignal } from './funnel-signals';

const guidance = proxyActivities<PlatformActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 10 },
});

export interface AskHumanRequest {
  kind: GuidanceKind;
  question: string;
  /** The field the answer is typed into (a selector the agent chose), when there is one. */
  field?: string;
  /** The blob key of the screenshot the human is shown (the page as the agent saw it). */
  screenshotKey: string | null;
}

export interface AskHumanOptions {
  /** How long to wait; default SVC_SSI__GUIDANCE_TIMEOUT_MINUTES (answered by the opening activity). */
  timeoutMs?: number;
  /** Moves the scan to a state (it is called with AWAITING_GUIDANCE); the caller re-enters its own state after. */
  enter: (state: typeof AWAITING_GUIDANCE) => Promise<void>;
}

/**
 * Asks a human and waits. Answers `{request_id, answer}` (answer: a reference to resolve with
 * resolveGuidanceText in the activity that types it), `{request_id, action: 'abort'}`, or null
 * when nobody answered in time. A cancelled workflow closes the request as aborted.
 */
export async function askHuman(scanId: string, req: AskHumanRequest, opts: AskHumanOptions): Promise<GuidanceAnswer | null> {
  const requestId = uuid4();
  let reply: GuidanceAnswer | null = null;
  // Replies to earlier (closed) questions may still be buffered; only this request's counts.
  setHandler(guidanceAnswerSignal, (a) => {
    if (a.request_id === requestId && reply === null) reply = a;
  });
  const opened = await guidance.openGuidanceRequest({ scanId, requestId, kind: req.kind, question: req.question, ...(req.field ? { field: req.field } : {}), screenshotKey: req.screenshotKey });
  await opts.enter(AWAITING_GUIDANCE);
  try {
    await condition(() => reply !== null, opts.timeoutMs ?? opened.timeout_ms);
  } catch (err) {
    if (isCancellation(err)) await CancellationScope.nonCancellable(() => guidance.closeGuidanceRequest({ scanId, requestId, status: 'aborted' }));
    throw err;
  }
  const answer = reply as GuidanceAnswer | null;
  await guidance.closeGuidanceRequest({ scanId, requestId, status: closingStatus(answer) });
  return answer;
}
