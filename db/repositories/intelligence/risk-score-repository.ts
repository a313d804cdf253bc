// What the risk score (domain/intelligence/risk-score.ts) reads for a set of entities, and where it
// is written (entities.risk_score, risk_explanation, risk_computed_at).
import type { Knex } from 'knex';
import { HIGH_RISK_THRESHOLD, type RiskInputs, type RiskScore } from '../../../domain/intelligence/risk-score';
import { textAsUuid } from '../../text-uuid';

export async function loadRiskInputs(knex: Knex, entityIds: string[]): Promise<Map<string, RiskInputs>> {
  const out = new Map<string, RiskInputs>();
  if (entityIds.length === 0) return out;
  const rows = (
    await knex.raw(
      `SELECT e.id, e.loss_max::float8 AS loss_max, e.victim_count, e.last_seen_at, e.sighting_count,
              i.confidence AS indicator_confidence,
              (SELECT COUNT(DISTINCT n.id)::int FROM (
                 SELECT r.dst_entity_id AS id FROM relationships r WHERE r.src_entity_id = e.id
                 UNION SELECT r.src_entity_id FROM relationships r WHERE r.dst_entity_id = e.id) nb
                 JOIN entities n ON n.id = nb.id AND n.risk_score >= ${HIGH_RISK_THRESHOLD}) AS high_risk_neighbours,
              (SELECT COUNT(*)::int FROM (
                 SELECT ce.campaign_id FROM campaign_entities ce WHERE ce.entity_id = e.id
                 UNION
                 SELECT c.campaign_id FROM sightings s
                   JOIN cases c ON s.source_kind = 'case' AND c.id = ${textAsUuid('s.source_id')}
                  WHERE s.entity_id = e.id AND c.campaign_id IS NOT NULL) cs) AS campaigns
         FROM entities e LEFT JOIN indicators i ON i.entity_id = e.id
        WHERE e.id = ANY(?::uuid[])`,
      [entityIds],
    )
  ).rows as Array<{ id: string; loss_max: number; victim_count: number; last_seen_at: Date; sighting_count: number; indicator_confidence: number | null; high_risk_neighbours: number; campaigns: number }>;
  for (const r of rows) {
    out.set(r.id, {
      lossMax: r.loss_max,
      victims: r.victim_count,
      lastSeenAt: r.last_seen_at,
      highRiskNeighbours: r.high_risk_neighbours,
      campaigns: r.campaigns,
      sightingCount: r.sighting_count,
      indicatorConfidence: r.indicator_confidence,
    });
  }
  return out;
}

/** Writes each entity's score and explanation (a repeat with the same result writes the same values). */
export async function saveRiskScores(knex: Knex, scores: Map<string, RiskScore>, computedAt: Date): Promise<void> {
  const rows = [...scores.entries()].map(([id, s]) => ({ id, score: s.score, explanation: JSON.stringify(s.factors) }));
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    await knex.raw(
      `UPDATE entities e SET risk_score = v.score, risk_explanation = v.explanation, risk_computed_at = ?
         FROM jsonb_to_recordset(?::jsonb) AS v(id uuid, score smallint, explanation jsonb)
        WHERE e.id = v.id`,
      [computedAt, JSON.stringify(part.map((r) => ({ id: r.id, score: r.score, explanation: JSON.parse(r.explanation) as unknown })))],
    );
  }
}
