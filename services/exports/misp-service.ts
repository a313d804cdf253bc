// MISP use cases (the event format: domain/exports/misp-event.ts):
// - exportMispEvent: the MISP event of one case or one campaign (its entities and its cases'),
//   bank details as the caller may see them, audited as `export.misp`
// - mispFeedManifest, mispFeedHashes, mispFeedEvent: a feed in the layout MISP's "Add feed" (format
//   "MISP Feed") fetches: manifest.json, hashes.csv and one <uuid>.json per event; one event per
//   campaign (a campaign is what the same actors run: the unit partners act on; cases are victims'
//   files and stay inside). Each answer is audited as `feed.misp`.
// The feed builds every campaign's event on each request (campaigns are few): the manifest, the
// hashes and the event files always agree, because they are made by the same code from the same rows.
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { findCampaign } from '../../db/repositories/campaigns/campaign-repository';
import { findCase } from '../../db/repositories/cases/case-repository';
import {
  allCampaignIds,
  campaignCasesUpdatedAt,
  campaignSubjectEntities,
  campaignTaxonomies,
  caseSubjectEntities,
} from '../../db/repositories/exports/subject-entities-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { maskingFor, type MaskingPolicy } from '../../domain/masking/masking-policy';
import { mispAttributeCount, mispEvent, mispEventUuid, mispHashLines, mispManifestEntry, type MispEvent } from '../../domain/exports/misp-event';
import { BadRequestError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

type Deps = Pick<ServiceDeps, 'knex'>;

export interface MispExportInput {
  case_id?: string;
  campaign_id?: string;
}

async function caseEvent(deps: Deps, caseId: string, policy: MaskingPolicy): Promise<MispEvent | null> {
  const c = await findCase(deps.knex, caseId);
  if (!c) return null;
  const entities = await caseSubjectEntities(deps.knex, c.id);
  const subject = { kind: 'case' as const, id: c.id, name: policy.text(c.title), status: c.status, priority: c.priority, taxonomies: c.taxonomy ? [c.taxonomy] : [], created_at: c.created_at, updated_at: c.updated_at };
  return mispEvent(subject, entities, { clearBankDetails: policy.sees('bank_account') });
}

async function campaignEvent(deps: Deps, campaignId: string, policy: MaskingPolicy): Promise<MispEvent | null> {
  const c = await findCampaign(deps.knex, campaignId);
  if (!c) return null;
  const [entities, taxonomies, casesAt] = await Promise.all([campaignSubjectEntities(deps.knex, c.id), campaignTaxonomies(deps.knex, c.id), campaignCasesUpdatedAt(deps.knex, c.id)]);
  const updated = casesAt && casesAt > c.updated_at ? casesAt : c.updated_at;
  const subject = { kind: 'campaign' as const, id: c.id, name: policy.text(c.name), status: c.status, priority: null, taxonomies, created_at: c.created_at, updated_at: updated };
  return mispEvent(subject, entities, { clearBankDetails: policy.sees('bank_account') });
}

async function audit(deps: Deps, principal: Principal | null, action: string, targetType: string, targetId: string, details: Record<string, unknown>): Promise<void> {
  await recordAuditEvent(deps.knex, { actor: principalName(principal), action, target_type: targetType, target_id: targetId, details: { ...details, outcome: 'complete' } });
}

/** The MISP event of a case or a campaign (exactly one of them: 400 otherwise; 404 when unknown). */
export async function exportMispEvent(deps: Deps, principal: Principal | null, input: MispExportInput): Promise<MispEvent> {
  if (Boolean(input.case_id) === Boolean(input.campaign_id)) {
    throw new BadRequestError('invalid_query', 'give exactly one of case_id and campaign_id', [{ path: input.case_id ? 'query.campaign_id' : 'query.case_id', message: input.case_id ? 'not with case_id' : 'case_id or campaign_id is required' }]);
  }
  const policy = maskingFor(principal);
  const clear = policy.sees('bank_account');
  const event = input.case_id ? await caseEvent(deps, input.case_id, policy) : await campaignEvent(deps, input.campaign_id!, policy);
  if (!event) throw new NotFoundError(input.case_id ? `no case ${input.case_id}` : `no campaign ${input.campaign_id}`);
  await audit(deps, principal, 'export.misp', 'export', event.Event.uuid, {
    format: 'misp',
    filters: { case_id: input.case_id ?? null, campaign_id: input.campaign_id ?? null, bank_details: clear ? 'clear' : 'masked' },
    rows: mispAttributeCount(event),
  });
  return event;
}

/** Every campaign's event, as this caller may see it. */
async function feedEvents(deps: Deps, principal: Principal | null): Promise<MispEvent[]> {
  const policy = maskingFor(principal);
  const events: MispEvent[] = [];
  for (const id of await allCampaignIds(deps.knex)) {
    const e = await campaignEvent(deps, id, policy);
    if (e) events.push(e);
  }
  return events;
}

/** manifest.json: event uuid → Orgc, Tag, info, date, analysis, threat_level_id, timestamp. */
export async function mispFeedManifest(deps: Deps, principal: Principal | null): Promise<Record<string, unknown>> {
  const events = await feedEvents(deps, principal);
  await audit(deps, principal, 'feed.misp', 'feed', 'misp/manifest.json', { rows: events.length });
  return Object.assign({}, ...events.map(mispManifestEntry)) as Record<string, unknown>;
}

/** hashes.csv: `md5(value),event_uuid` per attribute value of every event, no header. */
export async function mispFeedHashes(deps: Deps, principal: Principal | null): Promise<string> {
  const lines = (await feedEvents(deps, principal)).flatMap(mispHashLines);
  await audit(deps, principal, 'feed.misp', 'feed', 'misp/hashes.csv', { rows: lines.length });
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** One event of the feed by its uuid (404 when no campaign has it). */
export async function mispFeedEvent(deps: Deps, principal: Principal | null, uuid: string): Promise<MispEvent> {
  const wanted = uuid.toLowerCase();
  const id = (await allCampaignIds(deps.knex)).find((c) => mispEventUuid({ kind: 'campaign', id: c }) === wanted);
  const event = id ? await campaignEvent(deps, id, maskingFor(principal)) : null;
  if (!event) throw new NotFoundError(`no MISP feed event ${uuid}`);
  await audit(deps, principal, 'feed.misp', 'feed', `misp/${event.Event.uuid}.json`, { rows: mispAttributeCount(event) });
  return event;
}
