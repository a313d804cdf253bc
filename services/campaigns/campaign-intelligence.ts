// Campaign views for analysts: risk from the member entities, the taxonomy rollup, the detail with
// members and timeline, and the LEA referral suggestions. Combines the campaign repository with the
// pure rules of domain/campaigns and domain/analytics.
// - listIntelligenceCampaigns: a page of campaigns with member counts, risk and taxonomy lineage,
//   and the taxonomy rollup of all campaigns (GET /intelligence/campaigns)
// - campaignDetail: a campaign with its members (bank accounts masked but for analysts), risk and
//   timeline (GET /intelligence/campaigns/{id}; 404)
// - leaSuggestions: ranked LEA referral suggestions of a campaign (GET /campaigns/{id}/lea-suggestions; 404)
import type { Knex } from 'knex';
import { campaignRisk } from '../../domain/campaigns/campaign-risk';
import { LEA_LINK_TYPES, LEA_LINK_WEIGHTS, leaCandidatesFromHits, rankLeaCandidates } from '../../domain/campaigns/lea-suggestions';
import { maskingFor } from '../../domain/masking/masking-policy';
import { TAXONOMY_ENTRIES, UNCLASSIFIED, rollUpCounts, taxonomyLineage } from '../../domain/analytics/scam-taxonomy';
import {
  campaignCases,
  campaignEntities,
  campaignStats,
  campaignTaxonomyCounts,
  campaignTimeline,
  leaSuggestionHits,
  type CampaignFilters,
  type CampaignRow,
} from '../../db/repositories/campaigns/campaign-repository';
import type { Principal } from '../../domain/accounts/roles';
import type { Keyset } from '../../domain/keyset';
import { rolesOf } from '../intelligence/intelligence-views';
import type { ServiceDeps } from '../service-deps';
import { getCampaign, listCampaigns, maskCampaign } from './campaign-service';
import { campaignInvestigations } from '../../db/repositories/similarity/suggestion-repository';

const lineage = (t: string | null) => (t ? taxonomyLineage(t).filter((p) => p !== UNCLASSIFIED) : []);

export async function withCampaignStats(knex: Knex, rows: CampaignRow[]) {
  const stats = await campaignStats(knex, rows.map((r) => r.id));
  return rows.map((r) => {
    const s = stats.get(r.id)!;
    return { row: r, cases: s.cases, entities: s.entities, risk: campaignRisk(s.risk_scores), taxonomy_lineage: lineage(r.taxonomy) };
  });
}

/** Campaign counts per taxonomy node over every campaign, rolled up to the parents; nodes with none left out. */
export async function campaignTaxonomyRollup(knex: Knex) {
  const rows = await campaignTaxonomyCounts(knex);
  const totals = rollUpCounts(rows.map((r) => ({ taxonomy: r.taxonomy, campaigns: Number(r.n) })), ['campaigns']);
  const out = TAXONOMY_ENTRIES.filter((e) => totals.has(e.path)).map((e) => ({ taxonomy: e.path, label: e.label, depth: e.depth, campaigns: totals.get(e.path)!.campaigns }));
  const u = totals.get(UNCLASSIFIED);
  if (u) out.push({ taxonomy: UNCLASSIFIED, label: 'Unclassified', depth: 1, campaigns: u.campaigns });
  return out;
}

export async function listIntelligenceCampaigns(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, filters: CampaignFilters, page: { limit: number; after?: Keyset }) {
  const campaigns = await listCampaigns(deps, principal, filters, page);
  const [items, rollup] = await Promise.all([withCampaignStats(deps.knex, campaigns.rows), campaignTaxonomyRollup(deps.knex)]);
  return { items, next: campaigns.next, taxonomy_rollup: rollup };
}

export async function campaignDetail(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string) {
  const { knex } = deps;
  const row = maskCampaign(await getCampaign(deps, id), principal);
  const roles = rolesOf(principal);
  const policy = maskingFor(roles);
  const [[withStats], cases, entities, timeline, investigations] = await Promise.all([
    withCampaignStats(knex, [row]),
    campaignCases(knex, row.id),
    campaignEntities(knex, row.id),
    campaignTimeline(knex, row.id),
    campaignInvestigations(knex, row.id),
  ]);
  return {
    ...withStats!,
    member_cases: cases.map((c) => ({
      id: c.id,
      title: policy.text(c.title),
      status: c.status,
      taxonomy: c.taxonomy,
      loss: c.loss_amount !== null && c.loss_currency !== null ? { amount: c.loss_amount, currency: c.loss_currency.trim() } : null,
      referral_status: c.referral_status,
      created_at: c.created_at.toISOString(),
    })),
    member_entities: entities.map((e) => {
      const value = policy.value(e.type, e.value);
      return {
        id: e.id,
        type: e.type,
        value,
        display_value: value === e.value ? e.display_value : value,
        risk_score: e.risk_score,
        first_seen_at: e.first_seen_at.toISOString(),
        last_seen_at: e.last_seen_at.toISOString(),
        via: e.via,
      };
    }),
    member_investigations: investigations.map((i) => ({ scan_id: i.scan_id, url: i.url, domain: i.domain, state: i.state, added_by: i.added_by, added_at: i.added_at.toISOString() })),
    timeline: timeline.map((t) => ({ at: t.at.toISOString(), kind: t.kind, record_type: t.record_type, record_id: t.record_id })),
  };
}

export async function leaSuggestions(deps: Pick<ServiceDeps, 'knex'>, campaignId: string, limit: number) {
  await getCampaign(deps, campaignId);
  const hits = await leaSuggestionHits(deps.knex, campaignId, LEA_LINK_TYPES);
  const candidates = leaCandidatesFromHits(
    campaignId,
    hits.map((h) => ({ ...h, observed_at: h.observed_at.toISOString() })),
  );
  return { campaign_id: campaignId, weights: { ...LEA_LINK_WEIGHTS }, items: rankLeaCandidates(candidates).slice(0, limit) };
}
