// The risk score's pure function: each factor's points against hand-computed values.
import assert from 'node:assert/strict';
import { computeRiskScore } from '../../domain/intelligence/risk-score';

const now = new Date('2026-11-22T00:00:00Z');

describe('risk score (domain)', () => {
  it('explains each factor: loss on a log scale, victims, recency, high-risk links, campaigns, confidence', () => {
    const r = computeRiskScore(
      { lossMax: 999, victims: 2, lastSeenAt: new Date('2026-10-23T00:00:00Z'), highRiskNeighbours: 1, campaigns: 1, sightingCount: 3, indicatorConfidence: null },
      now,
    );
    const points = Object.fromEntries(r.factors.map((f) => [f.factor, f.points]));
    // log10(1000) / 6 = 0.5 → 15; 2 victims → 10; 30 days → 15 × 150/180 = 12.5; one neighbour → 5;
    // a campaign → 10; 3 sources → confidence 70 → 7.
    assert.deepEqual(points, { loss: 15, victims: 10, recency: 12.5, high_risk_links: 5, campaigns: 10, confidence: 7 });
    assert.equal(r.score, 60);
    assert.equal(r.factors.find((f) => f.factor === 'recency')!.input, 30);
  });

  it('caps every factor and the total at 100, and scores an old, lossless, lone entity near zero', () => {
    const max = computeRiskScore({ lossMax: 5e9, victims: 40, lastSeenAt: now, highRiskNeighbours: 9, campaigns: 3, sightingCount: 9, indicatorConfidence: 100 }, now);
    assert.equal(max.score, 100);
    assert.deepEqual(max.factors.map((f) => f.points), max.factors.map((f) => f.max));
    const min = computeRiskScore({ lossMax: 0, victims: 0, lastSeenAt: new Date('2025-01-01T00:00:00Z'), highRiskNeighbours: 0, campaigns: 0, sightingCount: 1, indicatorConfidence: null }, now);
    assert.equal(min.score, 4);
  });
});
