// The classification activities: place an investigation (after its fingerprints) or an intake (after
// its entities) in the scam taxonomy (services/classification/classification-service.ts).
// Idempotent: one row per subject, rewritten by a retry; an analyst's correction is never overwritten.
import type { Knex } from 'knex';
import type { BlobStore } from '../../infra/blob-store';
import { classifyIntake, classifyInvestigation } from '../../services/classification/classification-service';
import type { LlmClassifier } from '../../services/classification/llm-classifier';

export interface ClassificationOutcome {
  taxonomy: string;
  confidence: number;
  source: string;
}

export function createClassificationActivities(deps: { knex: Knex; blobs: BlobStore; llm?: LlmClassifier }) {
  return {
    async classifyInvestigation(input: { scanId: string }): Promise<ClassificationOutcome> {
      const c = await classifyInvestigation(deps, input.scanId);
      return { taxonomy: c.taxonomy, confidence: c.confidence, source: c.source };
    },
    async classifyIntake(input: { intakeId: string }): Promise<ClassificationOutcome> {
      const c = await classifyIntake(deps, input.intakeId);
      return { taxonomy: c.taxonomy, confidence: c.confidence, source: c.source };
    },
  };
}
