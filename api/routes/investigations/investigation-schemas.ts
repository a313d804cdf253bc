// The request and response schemas of scam-site investigations (/investigations/ssi...) and of SSI
// playbooks (/playbooks/ssi...). The investigation request itself and the playbook input are
// domain rules (domain/investigations/), shared with the workflow.
import { PII_EXPOSURE_KINDS } from '../../../domain/investigations/funnel';
import { z } from 'zod';
import { INVESTIGATION_STATUSES } from '../../../domain/investigations/investigation-request';
import { PlaybookStepSchema } from '../../../domain/investigations/playbooks';
import { REVEAL_RECORD_NAME } from '../../../domain/investigations/reveal-record-name';
import { pageQueryShape } from '../../pagination';
import { MailSummarySchema } from './funnel-schemas';
import { ClassificationSchema } from '../classification/classification-schemas';

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
export const RevealParam = z.object({
  scan_id: z.string().uuid(),
  name: z.string().regex(REVEAL_RECORD_NAME, 'an after-reveal record name: reveal-<nnnn>-<step>.png|.html|.har or late-<12 hex>.har').describe('The record name, as in the bundle under reveals/'),
});
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

/** Where a finding was seen: the WARC record of the evidence bundle whose body holds it. */
export const FindingProvenanceSchema = z
  .object({
    warc_record_id: z.string().describe('WARC-Record-ID of the record (`<urn:uuid:…>`), as in archive/data.warc.gz of the evidence bundle'),
    warc_target_uri: z.string().describe('WARC-Target-URI of that record: the URL the site answered, or `urn:fip:<scan_id>:<name>` for a DOM snapshot'),
    warc_record_type: z.enum(['response', 'resource']).describe('`response`: an HTTP answer of the site; `resource`: a DOM snapshot the crawler took'),
    page_url: z.string().describe('The page the record was captured on'),
    state: z.string().describe("The agent's state at that capture"),
    step: z.string().describe('What revealed it: `page capture`, the reveal\'s action (`click_coin_tab: BTC`), or `exchanges after the last capture`'),
    screenshot_uri: z.string().nullable().describe('WARC-Target-URI of the screenshot taken at that capture (after the reveal)'),
    screenshot_path: z.string().nullable().describe("That screenshot's path in the evidence bundle"),
    screenshot_download_path: z.string().nullable().optional().describe('Where the API serves that screenshot (detail only; not in findings.json)'),
  })
  .meta({ id: 'FindingProvenance' });

const ProvenanceFields = {
  provenance: FindingProvenanceSchema.nullable().describe('Null while the scan runs, or when no archived record holds the value (see provenance_reason)'),
  provenance_reason: z.string().nullable().describe('Why provenance is null; null when it is set'),
};

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
      ...ProvenanceFields,
    }),
  ),
  pii: z.array(z.object({ kind: z.string(), value: z.string(), page_url: z.string(), ...ProvenanceFields })),
  pii_exposures: z
    .array(z.object({ kind: z.enum(PII_EXPOSURE_KINDS), page_url: z.string(), state: z.string(), field: z.string().nullable() }))
    .describe('What the site asked the persona for, on which page and in which funnel state (never the value typed)'),
  agent_actions: z.array(z.object({ at: z.string(), state: z.string(), action: z.string(), target: z.string(), outcome: z.string(), wallets_found: z.number().int() })),
  blocked_requests: z.array(z.object({ url: z.string(), resource_type: z.string(), reason: z.string(), category: z.string().nullable(), at: z.string() })),
  mail: z.array(MailSummarySchema).describe('the mail the investigation\'s personas received, oldest first (evidence: download each at its download_path)'),
  classification: ClassificationSchema.nullable().describe('its place in the scam taxonomy (null until classified)'),
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
