// A campaign's risk from its member entities' risk scores (entities.risk_score, 0-100, kept by the
// graph's scoring): `max` is the riskiest member, `mean` the average over the scored members;
// `score` (the figure lists sort by) is the max, because one high-risk wallet is enough to act on.
// Members without a score do not count; no scored member -> all null.
export interface CampaignRisk {
  score: number | null;
  max: number | null;
  mean: number | null;
  scored_entities: number;
}

export function campaignRisk(scores: ReadonlyArray<number | null>): CampaignRisk {
  const s = scores.filter((x): x is number => typeof x === 'number');
  if (s.length === 0) return { score: null, max: null, mean: null, scored_entities: 0 };
  const max = Math.max(...s);
  const mean = Math.round((s.reduce((a, b) => a + b, 0) / s.length) * 10) / 10;
  return { score: max, max, mean, scored_entities: s.length };
}
