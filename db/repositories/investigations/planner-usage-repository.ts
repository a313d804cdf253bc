// The LLM planner's usage per investigation, read back from the scan's action log (rows of action
// `llm_plan`, one per Messages API request, written with appendActions): a retried activity or
// another worker sees what earlier requests spent, so the budget holds per investigation.
import type { Knex } from 'knex';

/** What one planner request records in its action's outcome (JSON). */
export interface PlannerRequestRecord {
  step: number;
  input_tokens: number;
  output_tokens: number;
  ms: number;
  prompt_blob: string;
  answer_blob: string;
  /** What the answer was turned into: an action kind, `request_screenshot`, or `invalid: …`. */
  result: string;
}

export interface PlannerUsage {
  steps: number;
  tokens: number;
  ms: number;
  requests: number;
}

export async function plannerUsage(knex: Knex, scanId: string): Promise<PlannerUsage> {
  const rows = (await knex('investigation_actions').where({ scan_id: scanId, action: 'llm_plan' }).select('outcome')) as Array<{ outcome: string }>;
  const steps = new Set<number>();
  let tokens = 0;
  let ms = 0;
  for (const row of rows) {
    let rec: Partial<PlannerRequestRecord>;
    try {
      rec = JSON.parse(row.outcome) as Partial<PlannerRequestRecord>;
    } catch {
      continue;
    }
    if (typeof rec.step === 'number') steps.add(rec.step);
    tokens += (rec.input_tokens ?? 0) + (rec.output_tokens ?? 0);
    ms += rec.ms ?? 0;
  }
  return { steps: steps.size, tokens, ms, requests: rows.length };
}
