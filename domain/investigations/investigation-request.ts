// What an investigation is asked to do (POST /investigations/ssi), its named states and statuses,
// and the workflow's input. Pure: shared by the API, the workflow and the activities.
import { z } from 'zod';
import { nameText } from '../text-safety';

export const INVESTIGATION_STATES = ['QUEUED', 'NAVIGATE', 'CAPTURE', 'EXPLORE', 'REGISTER', 'VERIFY_CONTACT', 'LOGIN', 'NAVIGATE_DEPOSIT', 'AWAITING_GUIDANCE', 'DISCOVER_COIN_TABS', 'EXTRACT_WALLETS', 'COMPLETE', 'FAILED', 'CANCELLED'] as const;
export type InvestigationState = (typeof INVESTIGATION_STATES)[number];

/** Where a scan is in its life: the first two are active, the others ended. */
export const INVESTIGATION_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type InvestigationStatus = (typeof INVESTIGATION_STATUSES)[number];

export const InvestigationOptionsSchema = z
  .object({
    max_pages: z.number().int().min(1).max(200).default(20).describe('Pages to capture at most (1-200, default 20)'),
    coin_tabs: z.boolean().default(true).describe('Click coin buttons and tabs (BTC, ETH, USDT, ...) and extract after each'),
    page_timeout_s: z.number().int().min(5).max(120).default(30).describe('Seconds per page load (5-120, default 30)'),
  })
  .strict()
  .prefault({});
export type InvestigationOptions = z.infer<typeof InvestigationOptionsSchema>;

export const AgentOptionsSchema = z
  .object({
    register: z.boolean().default(true).describe('Walk a gated site\'s funnel with a synthetic persona (sign up, verify, log in, open the deposit page); false: an anonymous visitor only, no form submitted'),
  })
  .strict()
  .prefault({});
export type AgentOptions = z.infer<typeof AgentOptionsSchema>;

export const InvestigationRequestSchema = z
  .object({
    url: z
      .string()
      .max(2048)
      .refine((u) => {
        try {
          const parsed = new URL(u);
          return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
        } catch {
          return false;
        }
      }, 'an absolute http(s) URL')
      .describe('The site to investigate (http or https)'),
    playbook_id: z
      .string()
      .uuid()
      .nullable()
      .optional()
      .describe('The playbook to follow; absent: the first enabled playbook whose URL pattern matches; null: none'),
    case_id: z.string().uuid().optional(),
    label: nameText(200).optional(),
    options: InvestigationOptionsSchema,
    agent: AgentOptionsSchema,
  })
  .strict();
export type InvestigationRequest = z.infer<typeof InvestigationRequestSchema>;

export interface InvestigationWorkflowInput {
  scanId: string;
  url: string;
  playbookId: string | null;
  /** No playbook_id in the request: follow the first matching playbook (null in the request: none). */
  autoPlaybook: boolean;
  options: InvestigationOptions;
  /** Absent in runs started before the funnel: register as the default says. */
  agent?: AgentOptions;
}

export function investigationTaskId(scanId: string): string {
  return `ssi-${scanId}`;
}

/** A playbook step as the agent runs it (domain/investigations/playbooks.ts validates them). */
export type { PlaybookStep as PlaybookStepInput } from './playbooks';
