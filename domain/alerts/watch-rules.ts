// Watch rules (pure): what a watchlist alerts on, judged by comparing the watched figures now with
// the figures when it was last evaluated (its baseline).
//   new_sightings     the watched thing was sighted again (a saved search: it matches more records)
//   new_linked_sites  more URL or domain entities are linked to it (relationships, campaign members)
//   loss_threshold    the reported loss in `currency` reached `amount` (alerts once, when crossed)
//   risk_change       the risk score moved by `min_delta` points or more (either way)
export const WATCH_TARGET_KINDS = ['entity', 'saved_search', 'campaign'] as const;
export type WatchTargetKind = (typeof WATCH_TARGET_KINDS)[number];

export const WATCH_RULE_KINDS = ['new_sightings', 'new_linked_sites', 'loss_threshold', 'risk_change'] as const;
export type WatchRuleKind = (typeof WATCH_RULE_KINDS)[number];

export type WatchRule =
  | { kind: 'new_sightings' }
  | { kind: 'new_linked_sites' }
  | { kind: 'loss_threshold'; currency: string; amount: number }
  | { kind: 'risk_change'; min_delta: number };

/** The watched figures at one moment. */
export interface WatchFigures {
  sightings: number;
  linked_sites: string[];
  loss_by_currency: Record<string, number>;
  risk: number | null;
}

export const EMPTY_FIGURES: WatchFigures = { sightings: 0, linked_sites: [], loss_by_currency: {}, risk: null };

/** One alert a rule raises: its kind, a title, details, and a key that makes it raised once. */
export interface RuleHit {
  kind: WatchRuleKind;
  title: string;
  detail: Record<string, unknown>;
  dedupeKey: string;
}

export function evaluateRules(rules: readonly WatchRule[], before: WatchFigures, now: WatchFigures, label: string): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of rules) {
    switch (rule.kind) {
      case 'new_sightings': {
        if (now.sightings > before.sightings) {
          hits.push({
            kind: rule.kind,
            title: `${label}: ${now.sightings - before.sightings} new sighting(s)`,
            detail: { before: before.sightings, now: now.sightings },
            dedupeKey: `new_sightings:${now.sightings}`,
          });
        }
        break;
      }
      case 'new_linked_sites': {
        const known = new Set(before.linked_sites);
        const fresh = now.linked_sites.filter((s) => !known.has(s)).sort();
        if (fresh.length > 0) {
          hits.push({
            kind: rule.kind,
            title: `${label}: ${fresh.length} new linked site(s)`,
            detail: { sites: fresh.slice(0, 50), count: fresh.length },
            dedupeKey: `new_linked_sites:${fresh.join(',').slice(0, 400)}`,
          });
        }
        break;
      }
      case 'loss_threshold': {
        const was = before.loss_by_currency[rule.currency] ?? 0;
        const is = now.loss_by_currency[rule.currency] ?? 0;
        if (is >= rule.amount && was < rule.amount) {
          hits.push({
            kind: rule.kind,
            title: `${label}: loss reached ${rule.amount} ${rule.currency}`,
            detail: { currency: rule.currency, threshold: rule.amount, before: was, now: is },
            dedupeKey: `loss_threshold:${rule.currency}:${rule.amount}`,
          });
        }
        break;
      }
      case 'risk_change': {
        const was = before.risk ?? 0;
        const is = now.risk ?? 0;
        if (Math.abs(is - was) >= rule.min_delta && before.risk !== now.risk) {
          hits.push({
            kind: rule.kind,
            title: `${label}: risk ${was} → ${is}`,
            detail: { before: before.risk, now: now.risk, min_delta: rule.min_delta },
            dedupeKey: `risk_change:${was}:${is}`,
          });
        }
        break;
      }
    }
  }
  return hits;
}

/**
 * The baseline to keep after an evaluation. A risk change is measured from the last score that
 * alerted (or the first), so slow drift still alerts once it adds up to min_delta.
 */
export function nextBaseline(rules: readonly WatchRule[], before: WatchFigures, now: WatchFigures, hits: readonly RuleHit[]): WatchFigures {
  const riskRule = rules.some((r) => r.kind === 'risk_change');
  const riskAlerted = hits.some((h) => h.kind === 'risk_change');
  return { ...now, risk: riskRule && !riskAlerted ? before.risk ?? now.risk : now.risk };
}

/** When the retry after `attempts` failed attempts is due: base · 2^(attempts-1) seconds, at most a day. */
export function retryDelaySeconds(baseSeconds: number, attempts: number): number {
  return Math.min(86_400, baseSeconds * 2 ** Math.max(0, attempts - 1));
}
