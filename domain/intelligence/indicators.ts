// Indicators (docs/data-model.md): the shareable view of the graph's url, domain, ip, email and
// wallet entities, with a category, a confidence (0-100), a valid_from and a TLP marking. The upsert
// path (db/repositories/intelligence/entity-repository.ts) keeps one indicator row per such entity; this module
// is the pure part: which entity types are indicators, and the confidence a number of independent
// sightings earns.

export const INDICATOR_ENTITY_TYPES = ['url', 'domain', 'ip', 'email', 'wallet'] as const;
export type IndicatorEntityType = (typeof INDICATOR_ENTITY_TYPES)[number];

/** TLP 2.0 labels (FIRST): what a recipient may do with the indicator. */
export const TLP_LABELS = ['clear', 'green', 'amber', 'amber+strict', 'red'] as const;
export type TlpLabel = (typeof TLP_LABELS)[number];

/** New indicators are shareable with partners' organisations and their clients, not publicly. */
export const DEFAULT_TLP: TlpLabel = 'amber';
/** Until an analyst or a campaign classifies it. */
export const UNCLASSIFIED_CATEGORY = 'unclassified';

export function isIndicatorType(type: string): type is IndicatorEntityType {
  return (INDICATOR_ENTITY_TYPES as readonly string[]).includes(type);
}

/**
 * Confidence from corroboration: one source's sighting is 40, each further independent source adds
 * 15, capped at 95 (100 is kept for an analyst's explicit confirmation).
 */
export function confidenceFromSightings(sightingCount: number): number {
  if (sightingCount <= 0) return 0;
  return Math.min(95, 40 + 15 * (sightingCount - 1));
}
