// The risk score of a graph entity: 0-100, a pure function of what the graph knows about it, with
// the points each factor earned so that the explorer can explain the number field by field.
//
//   factor          input                                            points (max)
//   loss            loss_max: largest per-currency loss total        30 · min(1, log10(1 + loss) / 6)      (30; 1,000,000 → 30)
//   victims         distinct intakes (victim reports) mentioning it  5 per victim                          (20)
//   recency         days since last sighting                         15 · max(0, 1 − days / 180)            (15)
//   high_risk_links neighbours (any edge) scoring ≥ 70               5 per neighbour                        (15)
//   campaigns       campaigns it belongs to (campaign_entities) or   10 when at least one                   (10)
//                   whose cases mention it (cases.campaign_id)
//   confidence      best confidence of its sightings: the indicator  10 · confidence / 100                  (10)
//                   confidence, else 40 + 15 per further source (≤ 95)
//
// The score is the sum of the factors' points, rounded to an integer (each factor is rounded to one
// decimal in the explanation). A neighbour's score is read as stored: scores do not cascade.
import { confidenceFromSightings } from './indicators';

export const HIGH_RISK_THRESHOLD = 70;

export interface RiskInputs {
  /** Largest per-currency loss total (major units). */
  lossMax: number;
  victims: number;
  lastSeenAt: Date;
  /** Neighbours scoring at least HIGH_RISK_THRESHOLD. */
  highRiskNeighbours: number;
  campaigns: number;
  sightingCount: number;
  /** The indicator's confidence, when the entity is an indicator. */
  indicatorConfidence: number | null;
}

export const RISK_FACTORS = ['loss', 'victims', 'recency', 'high_risk_links', 'campaigns', 'confidence'] as const;
export type RiskFactor = (typeof RISK_FACTORS)[number];

export interface RiskFactorExplanation {
  factor: RiskFactor;
  /** What the factor read (a number). */
  input: number;
  points: number;
  max: number;
  rule: string;
}

export interface RiskScore {
  score: number;
  factors: RiskFactorExplanation[];
}

const DAY_MS = 86_400_000;
const round1 = (n: number) => Math.round(n * 10) / 10;

export function computeRiskScore(inputs: RiskInputs, now: Date): RiskScore {
  const loss = Math.max(0, inputs.lossMax);
  const days = Math.max(0, (now.getTime() - inputs.lastSeenAt.getTime()) / DAY_MS);
  const confidence = inputs.indicatorConfidence ?? confidenceFromSightings(inputs.sightingCount);
  const factors: RiskFactorExplanation[] = [
    { factor: 'loss', input: loss, points: round1(30 * Math.min(1, Math.log10(1 + loss) / 6)), max: 30, rule: '30 × min(1, log10(1 + loss) / 6): a loss of 1,000,000 or more scores 30' },
    { factor: 'victims', input: inputs.victims, points: Math.min(20, 5 * inputs.victims), max: 20, rule: '5 per distinct intake (victim report), at most 20' },
    { factor: 'recency', input: round1(days), points: round1(15 * Math.max(0, 1 - days / 180)), max: 15, rule: '15 × max(0, 1 − days since last sighting / 180)' },
    { factor: 'high_risk_links', input: inputs.highRiskNeighbours, points: Math.min(15, 5 * inputs.highRiskNeighbours), max: 15, rule: `5 per neighbour scoring ≥ ${HIGH_RISK_THRESHOLD}, at most 15` },
    { factor: 'campaigns', input: inputs.campaigns, points: inputs.campaigns > 0 ? 10 : 0, max: 10, rule: '10 when the entity or a case mentioning it is in a campaign' },
    { factor: 'confidence', input: confidence, points: round1((10 * confidence) / 100), max: 10, rule: '10 × confidence / 100 (indicator confidence, else from the number of sources)' },
  ];
  const score = Math.max(0, Math.min(100, Math.round(factors.reduce((s, f) => s + f.points, 0))));
  return { score, factors };
}
