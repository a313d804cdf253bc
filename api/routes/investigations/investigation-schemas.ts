// The request and response schemas of scam-site investigations (/investigations/ssi...) and of SSI
// playbooks (/playbooks/ssi...). The investigation request itself and the playbook input are
// domain rules (domain/investigations/), shared with the workflow.
import { PII_EXPOSURE_KINDS } from '../../../domain/investigations/funnel';
import { z } from 'zod';
import { INVESTIGATION_STATUSES } from '../../../domain/investigations/investigation-request';
import { PlaybookStepSchema } from '../../../domain/investigations/playbooks';
import { pageQueryShape } from '../../pagination';
import { MailSummarySchema } from './funnel-schemas';

// ---------------------------------------------------------------------------------------------
// Investigations

export const PersonaQuery = z.object({ purpose: z.string().trim().min(3).max(500).describe('Why you read it (recorded in the audit log)') });
export type PersonaQueryT = z.infer<typeof PersonaQuery>;

export const PersonaSchema = z
  .object({
    scan_id: z.string().uuid(),
    site: z.string().describe('The site the persona belongs to (registrable domain, or host:port)'),
    reused: z.boolean().describe('The site\'s persona from an earlier investigation'),
    registered: z.boolean().describe('It has registered on the site'),
    values: z.object({
      first_name: z.string(), last_name: z.string(), full_name: z.string(), username: z.string(), email: z.string(), password: z.string(), phone: z.string(),
      birth_date: z.string(), address_line: z.string(), city: z.string(), postcode: z.string(), country: z.string(),
    }),
  })
  .meta({ id: 'InvestigationPersona' });

export const ScanParam = z.object({ scan_id: z.string().uuid() });
export const ArtifactParam = z.object({ scan_id: z.string().uuid(), page_id: z.string().uuid(), artifact: z.enum(['screenshot', 'dom', 'har']) });


export const AcceptedSchema = z
  .object({ scan_id: z.string().uuid(), task_id: z.string(), status_url: z.string(), status: z.literal('queued'), detail_url: z.string() })
  .meta({ id: 'InvestigationAccepted' });

const ArtifactSchema = z.object({ download_path: z.string(), sha256: z.string(), size_bytes: z.number().int() });

/** The fields every view of a scan has (lists and detail). */
const ScanFields = z.object({
  scan_id: z.string().uuid(),
  url: z.string(),
  final_url: z.string().nullable(),
  label: z.string().nullable(),
  status: z.enum(INVESTIGATION_STATUSES),
  state: z.string(),
  requested_by: z.string(),
  case_id: z.string().nullable(),
  wallet_count: z.number().int().describe('wallets stored for this scan (counted when it ended)'),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  task_id: z.string(),
});

export const DetailSchema = ScanFields.extend({
  error: z.string().nullable(),
  playbook_id: z.string().nullable(),
  options: z.record(z.string(), z.unknown()),
  redirect_chain: z.array(z.object({ url: z.string(), status: z.number().int().nullable(), kind: z.string() })),
  pages: z.array(
    z.object({
      id: z.string().uuid(),
      url: z.string(),
      title: z.string().nullable(),
      http_status: z.number().int().nullable(),
      server_ip: z.string().nullable(),
      tls: z.record(z.string(), z.unknown()).nullable(),
      response_headers: z.record(z.string(), z.string()),
      found_in_state: z.string(),
      captured_at: z.string(),
      artifacts: z.object({ screenshot: ArtifactSchema, dom: ArtifactSchema, har: ArtifactSchema }),
    }),
  ),
  wallets: z.array(
    z.object({
      address: z.string(), token: z.string(), network: z.string(), confidence: z.string(), source: z.string(),
      page_url: z.string().nullable(), found_in_state: z.string().nullable(), first_seen_at: z.string(),
    }),
  ),
  pii: z.array(z.object({ kind: z.string(), value: z.string(), page_url: z.string() })),
  pii_exposures: z
    .array(z.object({ kind: z.enum(PII_EXPOSURE_KINDS), page_url: z.string(), state: z.string(), field: z.string().nullable() }))
    .describe('What the site asked the persona for, on which page and in which funnel state (never the value typed)'),
  agent_actions: z.array(z.object({ at: z.string(), state: z.string(), action: z.string(), target: z.string(), outcome: z.string(), wallets_found: z.number().int() })),
  blocked_requests: z.array(z.object({ url: z.string(), resource_type: z.string(), reason: z.string(), category: z.string().nullable(), at: z.string() })),
  mail: z.array(MailSummarySchema).describe('the mail the investigation\'s personas received, oldest first (evidence: download each at its download_path)'),
}).meta({ id: 'InvestigationDetail' });

export const SummarySchema = ScanFields.extend({
  progress: z.object({ stage: z.string(), percent: z.number().nullable(), detail: z.record(z.string(), z.unknown()) }).nullable().optional(),
}).meta({ id: 'InvestigationSummary' });

export const ListQuery = z
  .object({
    status: z.enum(INVESTIGATION_STATUSES).optional(),
    domain: z.string().min(1).max(253).optional().describe('Substring of the host name'),
    requested_by: z.string().min(1).max(320).optional(),
    since: z.iso.datetime({ offset: true }).optional().describe('Created at or after (ISO 8601)'),
    until: z.iso.datetime({ offset: true }).optional().describe('Created before (ISO 8601)'),
    token: z.string().min(1).max(20).optional(),
    network: z.string().min(1).max(50).optional(),
    has_wallets: z.enum(['true', 'false']).optional(),
    ...pageQueryShape,
  })
  .strict();
export type ListQueryT = z.infer<typeof ListQuery>;

// ---------------------------------------------------------------------------------------------
// Playbooks

export const PlaybookSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    url_patterns: z.array(z.string()),
    steps: z.array(PlaybookStepSchema),
    enabled: z.boolean(),
    created_by: z.string(),
    created_at: z.string().describe('ISO 8601 UTC'),
    updated_by: z.string(),
    updated_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'Playbook' });

export const PlaybookListQuery = z.object({
  enabled: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true'))
    .describe('Only enabled (true) or disabled (false) playbooks'),
  ...pageQueryShape,
});

export const TestMatchSchema = z
  .strictObject({ url: z.url({ protocol: /^https?$/ }).max(2048).describe('An http(s) URL') })
  .meta({ id: 'PlaybookTestMatchInput' });

export const TestMatchResultSchema = z
  .object({
    url: z.string(),
    subject: z.string().describe('What the patterns were matched against: host + path, lower case'),
    matches: z.array(z.object({ playbook: PlaybookSchema, pattern: z.string().describe('The first pattern of this playbook that matched') })),
    selected_playbook_id: z
      .string()
      .uuid()
      .nullable()
      .describe('The playbook an investigation of this URL without playbook_id would use (the oldest enabled match)'),
  })
  .meta({ id: 'PlaybookTestMatchResult' });
