// The report templates the platform ships. A template picks the sections (entity kinds) a report
// has by default and names the scope keys it understands.

/** Entity kinds a report scope may name (scope.entity_types). */
export const ENTITY_TYPES = ['wallet', 'investigation', 'intake', 'case', 'person', 'organization', 'domain', 'indicator', 'campaign'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface ScopeKey {
  key: string;
  description: string;
}

export interface ReportTemplate {
  name: string;
  title: string;
  description: string;
  defaultEntityTypes: EntityType[];
  /** Kinds whose records of the period are also counted per status, in sections before the lists. */
  statusCounts?: EntityType[];
  scopeKeys: ScopeKey[];
}

const ENTITY_TYPES_KEY: ScopeKey = {
  key: 'entity_types',
  description: `Entity kinds to include, any of: ${ENTITY_TYPES.join(', ')}. Default: the template's own.`,
};
const SINCE_DAYS_KEY: ScopeKey = {
  key: 'since_days',
  description:
    'Only records from the N days before the report\'s due time (1-3650). Default: since the previous due time ' +
    '(the last completed run, or one cadence step back for the first run); all time for one-off reports.',
};

export const REPORT_TEMPLATES: readonly ReportTemplate[] = [
  {
    name: 'threat-overview',
    title: 'Threat overview',
    description: 'Every section the scope names: wallets, investigations, intakes, cases and entities, with counts.',
    defaultEntityTypes: ['wallet', 'investigation', 'intake', 'case'],
    scopeKeys: [ENTITY_TYPES_KEY, SINCE_DAYS_KEY],
  },
  {
    name: 'wallet-activity',
    title: 'Wallet activity',
    description: 'Cryptocurrency wallets found on investigated sites, with token, network, confidence and the sites they were on.',
    defaultEntityTypes: ['wallet'],
    scopeKeys: [
      ENTITY_TYPES_KEY,
      SINCE_DAYS_KEY,
      { key: 'networks', description: 'Only these networks (e.g. ["Ethereum", "Tron"]).' },
      { key: 'tokens', description: 'Only these token symbols (e.g. ["USDT", "BTC"]).' },
      { key: 'min_confidence', description: 'low, medium or high: the lowest confidence to include.' },
      {
        key: 'sources',
        description:
          'Only wallets found at these page locations (the wallet source: "text", "attr:data-clipboard-text", "uri:bitcoin", ...); ' +
          'a value ending in ":" is a prefix ("attr:" = any attribute).',
      },
    ],
  },
  {
    name: 'investigation-summary',
    title: 'Investigation summary',
    description: 'Scam-site investigations of the period with their status, and the wallets they found.',
    defaultEntityTypes: ['investigation', 'wallet'],
    scopeKeys: [ENTITY_TYPES_KEY, SINCE_DAYS_KEY],
  },
  {
    name: 'intake-digest',
    title: 'Intake digest',
    description: 'Victim submissions and cases of the period: counts per status, then each intake and case (never contact data; bank details in their text masked).',
    defaultEntityTypes: ['intake', 'case'],
    statusCounts: ['intake', 'case'],
    // No `sources`: the digest covers every intake of the period, whatever channel it came in by.
    scopeKeys: [ENTITY_TYPES_KEY, SINCE_DAYS_KEY],
  },
];

export function findTemplate(name: string): ReportTemplate | undefined {
  return REPORT_TEMPLATES.find((t) => t.name === name);
}
