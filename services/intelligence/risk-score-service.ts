// Keeps the graph's derived figures current when sightings change: an entity's loss
// (db/repositories/intelligence/intel-entity-repository.ts refreshEntityLoss) and its risk score
// (domain/intelligence/risk-score.ts). Idempotent: both are recomputed from the sightings, so a
// retry writes the same values.
//   recomputeEntityRisk      these entities
//   recomputeSourceRisk      every entity a source mentions (after it recorded them)
import type { Knex } from 'knex';
import { listSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { refreshEntityLoss } from '../../db/repositories/intelligence/intel-entity-repository';
import { loadRiskInputs, saveRiskScores } from '../../db/repositories/intelligence/risk-score-repository';
import type { SourceKind } from '../../domain/intelligence/entity-types';
import { computeRiskScore, type RiskScore } from '../../domain/intelligence/risk-score';

export async function recomputeEntityRisk(knex: Knex, entityIds: string[], now = new Date()): Promise<Map<string, RiskScore>> {
  const ids = [...new Set(entityIds)];
  const scores = new Map<string, RiskScore>();
  for (let i = 0; i < ids.length; i += 1000) {
    const part = ids.slice(i, i + 1000);
    await refreshEntityLoss(knex, part);
    const inputs = await loadRiskInputs(knex, part);
    const computed = new Map<string, RiskScore>();
    for (const [id, input] of inputs) computed.set(id, computeRiskScore(input, now));
    await saveRiskScores(knex, computed, now);
    for (const [id, s] of computed) scores.set(id, s);
  }
  return scores;
}

export async function recomputeSourceRisk(knex: Knex, source: { kind: SourceKind; id: string }): Promise<Map<string, RiskScore>> {
  const ids = (await listSourceEntities(knex, source.kind, source.id)).map((e) => e.id);
  return recomputeEntityRisk(knex, ids);
}
