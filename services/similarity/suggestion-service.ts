// Campaign suggestions (GET /campaigns/suggestions, POST /campaigns/suggestions/{id}/accept and
// /dismiss):
// - linkScan: after an investigation's fingerprints, its linked sites (score ≥ the link threshold)
//   replace its rows in site_links
// - recomputeSuggestions: the clusters of site_links become the open suggestions (after each
//   investigation and on the `campaign-suggestions` Temporal Schedule); decided clusters stay out
// - listCampaignSuggestions, acceptSuggestion (creates the campaign with the cluster's
//   investigations, cases and shared entities; audited), dismissSuggestion (audited; stays dismissed)
import type { Knex } from 'knex';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { applyCampaignPatch, insertCampaign, isCampaignNameClash, type CampaignRow, type MemberRef } from '../../db/repositories/campaigns/campaign-repository';
import { siteProfiles } from '../../db/repositories/similarity/fingerprint-repository';
import {
  addCampaignInvestigations,
  casesOfScans,
  decideSuggestion,
  decidedScanSets,
  entitiesSharedByScans,
  findSuggestion,
  listSiteLinks,
  listSuggestions,
  lockSuggestions,
  replaceScanLinks,
  syncOpenSuggestions,
  type OpenSuggestion,
  type SuggestionRow,
  type SuggestionStatus,
} from '../../db/repositories/similarity/suggestion-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import { clusterSites, isDecided } from '../../domain/similarity/site-clusters';
import { findSimilarSites, type SimilarSite } from '../../domain/similarity/similar-sites';
import { LINK_THRESHOLD } from '../../domain/similarity/site-similarity';
import { ConflictError, NotFoundError } from '../errors';
import { postgresBucketIndex } from './similar-sites-service';

export type { SuggestionRow } from '../../db/repositories/similarity/suggestion-repository';

/** Writes the scan's links to the sites it is linked to; answers how many. */
/** Stores the scan's links and answers the linked sites (score ≥ the link threshold), best first. */
export async function linkScan(deps: { knex: Knex }, scanId: string): Promise<SimilarSite[]> {
  const [site] = await siteProfiles(deps.knex, [scanId]);
  if (!site) return [];
  const similar = await findSimilarSites(site, postgresBucketIndex(deps.knex), { limit: 200 });
  const linked = similar.filter((s) => s.score >= LINK_THRESHOLD);
  await replaceScanLinks(deps.knex, scanId, linked.map((s) => ({ other: s.scanId, score: s.score, reasons: s.reasons })));
  return linked;
}

export async function recomputeSuggestions(deps: { knex: Knex }): Promise<{ open: number }> {
  return deps.knex.transaction(async (trx) => {
    await lockSuggestions(trx);
    const decided = await decidedScanSets(trx);
    const clusters = clusterSites(await listSiteLinks(trx, LINK_THRESHOLD)).filter((c) => !isDecided(c, decided));
    const open: OpenSuggestion[] = [];
    for (const c of clusters) {
      const [cases, entities] = await Promise.all([casesOfScans(trx, c.scanIds), entitiesSharedByScans(trx, c.scanIds)]);
      open.push({
        key: c.key, scanIds: c.scanIds, score: c.score, reasons: c.reasons,
        members: [
          ...c.scanIds.map((scan_id) => ({ kind: 'investigation' as const, scan_id })),
          ...cases.map((case_id) => ({ kind: 'case' as const, case_id })),
          ...entities.map((e) => ({ kind: 'entity' as const, entity_id: e.id })),
        ],
      });
    }
    await syncOpenSuggestions(trx, open);
    return { open: open.length };
  });
}

export async function listCampaignSuggestions(deps: { knex: Knex }, status: SuggestionStatus, limit: number): Promise<SuggestionRow[]> {
  return listSuggestions(deps.knex, status, limit);
}

async function openSuggestion(trx: Knex.Transaction, id: string): Promise<SuggestionRow> {
  const s = await findSuggestion(trx, id, true);
  if (!s) throw new NotFoundError(`no campaign suggestion ${id}`);
  if (s.status !== 'open') throw new ConflictError(`the suggestion is already ${s.status}`, { status: s.status, campaign_id: s.campaign_id });
  return s;
}

export async function acceptSuggestion(deps: { knex: Knex }, principal: Principal | null, id: string, input: { name?: string; description?: string }): Promise<{ suggestion: SuggestionRow; campaign: CampaignRow }> {
  const by = principalName(principal);
  const name = input.name ?? `Suggested operation ${id.slice(0, 8)}`;
  try {
    return await deps.knex.transaction(async (trx) => {
      const s = await openSuggestion(trx, id);
      const created = await insertCampaign(trx, { name, description: input.description ?? `Accepted from a campaign suggestion: ${s.reasons.map((r) => r.kind).join(', ')}` }, by);
      await recordAuditEvent(trx, { actor: by, action: 'campaign.create', target_type: 'campaign', target_id: created.id, details: { name: created.name, status: created.status, taxonomy: created.taxonomy, suggestion_id: id } });
      const add = s.members.flatMap((m): MemberRef[] => (m.kind === 'case' ? [{ type: 'case' as const, id: m.case_id }] : m.kind === 'entity' ? [{ type: 'entity' as const, id: m.entity_id }] : []));
      const patched = await applyCampaignPatch(trx, created.id, { add }, by);
      if (!patched.ok) {
        throw new ConflictError(
          patched.reason === 'case_in_other_campaign' ? `case ${patched.ref.id} is in campaign ${patched.campaign_id}` : `a member of the suggestion is gone (${patched.reason})`,
          { reason: patched.reason },
        );
      }
      const scanIds = s.members.flatMap((m) => (m.kind === 'investigation' ? [m.scan_id] : []));
      await addCampaignInvestigations(trx, created.id, scanIds, by);
      const suggestion = await decideSuggestion(trx, id, 'accepted', by, created.id);
      await recordAuditEvent(trx, { actor: by, action: 'campaign_suggestion.accept', target_type: 'campaign_suggestion', target_id: id, details: { campaign_id: created.id, investigations: scanIds, members: s.members.length } });
      return { suggestion, campaign: patched.row };
    });
  } catch (err) {
    if (isCampaignNameClash(err)) throw new ConflictError(`a campaign named "${name}" exists`, { field: 'body.name' });
    throw err;
  }
}

export async function dismissSuggestion(deps: { knex: Knex }, principal: Principal | null, id: string): Promise<SuggestionRow> {
  const by = principalName(principal);
  return deps.knex.transaction(async (trx) => {
    await openSuggestion(trx, id);
    const row = await decideSuggestion(trx, id, 'dismissed', by, null);
    await recordAuditEvent(trx, { actor: by, action: 'campaign_suggestion.dismiss', target_type: 'campaign_suggestion', target_id: id, details: { investigations: row.scan_ids } });
    return row;
  });
}
