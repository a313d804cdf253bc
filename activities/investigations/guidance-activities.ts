// The human in the loop, seen from the workflow (workflows/investigations/funnel-guidance.ts,
// askHuman): open a question (idempotent on its request id, which the workflow makes), close it when
// the wait ends. The answer itself never passes through here.
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import type { GuidanceKind } from '../../domain/investigations/funnel';
import { closeGuidance, openGuidance } from '../../services/investigations/guidance-service';

export interface OpenGuidanceRequestInput {
  scanId: string;
  /** Made by the workflow (deterministic), so a retried activity opens the same request. */
  requestId: string;
  kind: GuidanceKind;
  question: string;
  field?: string;
  /** The blob key of the page's screenshot when the agent got stuck. */
  screenshotKey: string | null;
}

export interface OpenGuidanceRequestResult {
  request_id: string;
  screenshot_url: string;
  /** How long to wait for a human (SVC_SSI__GUIDANCE_TIMEOUT_MINUTES). */
  timeout_ms: number;
}

export interface CloseGuidanceRequestInput {
  scanId: string;
  requestId: string;
  status: 'answered' | 'aborted' | 'expired';
}

export function createGuidanceActivities(deps: { knex: Knex; config: AppConfig }) {
  return {
    async openGuidanceRequest(input: OpenGuidanceRequestInput): Promise<OpenGuidanceRequestResult> {
      return openGuidance(deps, { ...input, field: input.field ?? null });
    },
    async closeGuidanceRequest(input: CloseGuidanceRequestInput): Promise<{ status: string }> {
      return { status: await closeGuidance(deps, input) };
    },
  };
}
