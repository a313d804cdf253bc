// The human in the loop: how an answer travels without entering a workflow history. A human's
// answer (a captcha's text, a choice) is sealed in the vault when it is posted; the workflow's
// `guidanceAnswerSignal` carries only a reference to it, and the activity that types it into the
// page resolves the reference (services/investigations/guidance-service.ts, resolveGuidanceText).
import type { GuidanceAnswer } from './funnel';

const REF_PREFIX = 'vault:guidance/';

/** The reference a signalled answer carries in place of the answer itself. */
export function guidanceAnswerRef(requestId: string): string {
  return `${REF_PREFIX}${requestId}`;
}

/** The request whose sealed answer `text` refers to, or null when `text` is no such reference. */
export function guidanceRefRequestId(text: string): string | null {
  const m = /^vault:guidance\/([0-9a-f-]{36})$/.exec(text);
  return m ? m[1]! : null;
}

/** What a request becomes once the workflow stops waiting for it. */
export function closingStatus(answer: GuidanceAnswer | null): 'answered' | 'aborted' | 'expired' {
  if (!answer) return 'expired';
  return 'answer' in answer ? 'answered' : 'aborted';
}

/** Where a request's screenshot is served (GET, the guidance route's access). */
export function guidanceScreenshotUrl(scanId: string, requestId: string): string {
  return `/investigations/ssi/${scanId}/guidance/${requestId}/screenshot`;
}

/** The vault owner and associated data of a request's sealed answer. */
export function guidanceVaultOwner(requestId: string): { kind: string; id: string } {
  return { kind: 'guidance', id: requestId };
}
export function guidanceVaultContext(scanId: string, requestId: string): string {
  return `guidance:${scanId}:${requestId}`;
}
