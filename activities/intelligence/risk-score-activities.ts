// The risk-score recomputation as activities: run at the end of the intake and investigation
// workflows, after their sources recorded their entities (services/intelligence/risk-score-service.ts).
import type { Knex } from 'knex';
import type { SourceKind } from '../../domain/intelligence/entity-types';
import { recomputeEntityRisk, recomputeSourceRisk } from '../../services/intelligence/risk-score-service';

export function createRiskScoreActivities(deps: { knex: Knex }) {
  return {
    /** Recomputes loss and risk of these entities. */
    async recomputeRiskScores(input: { entityIds: string[] }): Promise<{ updated: number }> {
      return { updated: (await recomputeEntityRisk(deps.knex, input.entityIds)).size };
    },
    /** Recomputes loss and risk of every entity a source mentions (after it recorded them). */
    async recomputeSourceRiskScores(input: { kind: SourceKind; id: string }): Promise<{ updated: number }> {
      return { updated: (await recomputeSourceRisk(deps.knex, input)).size };
    },
  };
}
