// Campaign views for analysts: risk from the member entities, the taxonomy rollup, the detail with
// members and timeline, and the LEA referral suggestions. Combines the campaign repository with the
// pure rules of domain/analytics.
import type { Knex } from 'knex';
import { campaignRisk } from '../../domain/campaigns/campaign-risk';
import { LEA_LINK_TYPES, LEA_LINK_WEIGHTS, leaCandidatesFromHits, rankLeaCandidates } from '../../domain/campaigns/lea-suggestions';
import { visibleEntityValue } from '../../domain/intelligence/entity-masking';
import { TAXONOMY_ENTRIES, UNCLASSIFIED, rollUpCounts, taxonomyLineage } from '../../domain/analytics/scam-taxonomy';
import {
  campaignCases,
  campaignEntities,
  campaignStats,
  campaignTimeline,
  leaSuggestionHits,
  type CampaignRow,
} from '../../db/repositories/campaigns/campaign-repository';
import type { Viewer } from '../analytics/analytics-widgets';

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
  const rows = (await knex('campaigns').select('taxonomy').count({ n: '*' }).groupBy('taxonomy')) as Array<{ taxonomy: string | null; n: string }>;
  const totals = rollUpCounts(rows.map((r) => ({ taxonomy: r.taxonomy, campaigns: Number(r.n) })), ['campaigns']);
  const out = TAXONOMY_ENTRIES.filter((e) => totals.has(e.path)).map((e) => ({ taxonomy: e.path, label: e.label, depth: e.depth, campaigns: totals.get(e.path)!.campaigns }));
  const u = totals.get(UNCLASSIFIED);
  if (u) out.push({ taxonomy: UNCLASSIFIED, label: 'Unclassified', depth: 1, campaigns: u.campaigns });
  return out;
}

export async function campaignDetail(knex: Knex, row: CampaignRow, viewer: Viewer) {
  const [[withStats], cases, entities, timeline] = await Promise.all([
    withCampaignStats(knex, [row]),
    campaignCases(knex, row.id),
    campaignEntities(knex, row.id),
    campaignTimeline(knex, row.id),
  ]);
  return {
    ...withStats!,
    member_cases: cases.map((c) => ({
      id: c.id,
      title: c.title,
      status: c.status,
      taxonomy: c.taxonomy,
      loss: c.loss_amount !== null && c.loss_currency !== null ? { amount: c.loss_amount, currency: c.loss_currency.trim() } : null,
      referral_status: c.referral_status,
      created_at: c.created_at.toISOString(),
    })),
    member_entities: entities.map((e) => {
      const value = visibleEntityValue(e.type, e.value, viewer.roles);
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
    timeline: timeline.map((t) => ({ at: t.at.toISOString(), kind: t.kind, record_type: t.record_type, record_id: t.record_id })),
  };
}

export async function leaSuggestions(knex: Knex, campaignId: string, limit: number) {
  const hits = await leaSuggestionHits(knex, campaignId, LEA_LINK_TYPES);
  const candidates = leaCandidatesFromHits(
    campaignId,
    hits.map((h) => ({ ...h, observed_at: h.observed_at.toISOString() })),
  );
  return { campaign_id: campaignId, weights: { ...LEA_LINK_WEIGHTS }, items: rankLeaCandidates(candidates).slice(0, limit) };
}
