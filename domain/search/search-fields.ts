// The search field registry: the one list of fields the query language knows. It drives the
// parser's validation (domain/search/parse-query.ts), the SQL builder (db/repositories/
// search-repository.ts) and GET /reviews/search/schema. Each field names its type, the record
// types that have it, the operators it takes, examples, and per record type where its value lives:
// a SQL column expression (constant text, never user input) or the graph entities linked to the
// record (`linked`: a case's linked and sighted entities, an intake's sightings, an
// investigation's sightings).

export const SEARCH_RECORD_TYPES = ['case', 'intake', 'investigation', 'entity', 'wallet', 'indicator'] as const;
export type SearchRecordType = (typeof SEARCH_RECORD_TYPES)[number];

export const SEARCH_FIELD_TYPES = ['text', 'keyword', 'number', 'date', 'money'] as const;
export type SearchFieldType = (typeof SEARCH_FIELD_TYPES)[number];

export const SEARCH_OPERATORS = [':', '=', '>', '>=', '<', '<=', 'range', 'wildcard', 'phrase'] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

/** Where a field's value lives for one record type. */
export type FieldSource =
  /**
   * A SQL expression over the record type's row alias (`r`; indicators: `i` and their entity `e`),
   * constant text from this registry; `when` limits it to rows of one kind (entity type).
   */
  | { column: string; when?: string }
  /** The values of graph entities of this type linked to the record. */
  | { linked: 'wallet' | 'domain' | 'url' | 'email' | 'ip' | 'phone' | 'bank_account' };

export interface SearchField {
  name: string;
  type: SearchFieldType;
  description: string;
  /** Per record type that has the field. */
  sources: Partial<Record<SearchRecordType, FieldSource>>;
  examples: string[];
  /** Allowed values (keyword fields with a closed set). */
  values?: readonly string[];
}

const OPERATORS_BY_TYPE: Record<SearchFieldType, readonly SearchOperator[]> = {
  text: [':', 'phrase', 'wildcard'],
  keyword: [':', '=', 'wildcard', 'phrase'],
  number: [':', '=', '>', '>=', '<', '<=', 'range'],
  money: [':', '=', '>', '>=', '<', '<=', 'range'],
  date: [':', '=', '>', '>=', '<', '<=', 'range'],
};

export function operatorsOf(type: SearchFieldType): readonly SearchOperator[] {
  return OPERATORS_BY_TYPE[type];
}

/** The free-text pseudo-field: bare words and phrases search it. */
export const TEXT_FIELD = 'text';

export const SEARCH_FIELDS: readonly SearchField[] = [
  {
    name: TEXT_FIELD,
    type: 'text',
    description: 'Full text (English stemming): case title, description and taxonomy; intake summary and details; investigation URL, domain, label and page titles; entity and wallet values. Bare words and "phrases" search this field.',
    sources: {
      case: { column: 'r.search_tsv' },
      intake: { column: 'r.search_tsv' },
      investigation: { column: 'r.search_tsv' },
      entity: { column: 'r.search_tsv' },
      wallet: { column: 'r.search_tsv' },
      indicator: { column: 'e.search_tsv' },
    },
    examples: ['romance', '"pig butchering"', 'invest*', 'text:"recovery scam"'],
  },
  {
    name: 'wallet',
    type: 'keyword',
    description: 'A wallet address: of the wallet or wallet entity itself, or of wallet entities linked to the case, intake or investigation. `*` matches any characters (substring search uses trigram indexes).',
    sources: {
      case: { linked: 'wallet' },
      intake: { linked: 'wallet' },
      investigation: { linked: 'wallet' },
      entity: { column: 'r.value', when: "r.type = 'wallet'" },
      wallet: { column: 'lower(r.address)' },
      indicator: { column: 'e.value', when: "e.type = 'wallet'" },
    },
    examples: ['wallet:TQ*', 'wallet:*5KcbLSE', 'wallet:0x52908400098527886e0f7030069857d2e4169ee7'],
  },
  {
    name: 'domain',
    type: 'keyword',
    description: 'A domain: of the investigation, of a domain entity or indicator, or of domain entities linked to a case or intake.',
    sources: {
      case: { linked: 'domain' },
      intake: { linked: 'domain' },
      investigation: { column: 'r.domain' },
      entity: { column: 'r.value', when: "r.type = 'domain'" },
      indicator: { column: 'e.value', when: "e.type = 'domain'" },
    },
    examples: ['domain:example-invest.com', 'domain:*invest*'],
  },
  {
    name: 'url',
    type: 'keyword',
    description: 'A URL: the investigation URL, a URL entity or indicator, or URL entities linked to a case or intake; the wallet\'s page URL.',
    sources: {
      case: { linked: 'url' },
      intake: { linked: 'url' },
      investigation: { column: 'r.url' },
      entity: { column: 'r.value', when: "r.type = 'url'" },
      wallet: { column: 'r.page_url' },
      indicator: { column: 'e.value', when: "e.type = 'url'" },
    },
    examples: ['url:*login*', 'url:"https://example-invest.com/deposit"'],
  },
  {
    name: 'status',
    type: 'keyword',
    description: 'Status of a case, intake or investigation.',
    sources: { case: { column: 'r.status' }, intake: { column: 'r.status' }, investigation: { column: 'r.status' } },
    examples: ['status:open', 'NOT status:closed'],
  },
  {
    name: 'priority',
    type: 'keyword',
    description: 'Case priority.',
    sources: { case: { column: 'r.priority' } },
    values: ['low', 'medium', 'high', 'critical'],
    examples: ['priority:high'],
  },
  {
    name: 'assignee',
    type: 'keyword',
    description: 'Case assignee (e-mail).',
    sources: { case: { column: 'r.assignee' } },
    examples: ['assignee:ana@example.org', 'assignee:ana*'],
  },
  {
    name: 'taxonomy',
    type: 'keyword',
    description: 'Scam-taxonomy path of a case; `investment/*` matches a subtree.',
    sources: { case: { column: 'r.taxonomy' } },
    examples: ['taxonomy:investment/crypto/*'],
  },
  {
    name: 'loss',
    type: 'money',
    description: 'Recorded loss amount of a case or intake (numeric, any currency; combine with currency:).',
    sources: { case: { column: 'r.loss_amount' }, intake: { column: 'r.loss_amount' } },
    examples: ['loss>5000', 'loss:[1000 TO 5000]', 'loss<=250.50'],
  },
  {
    name: 'currency',
    type: 'keyword',
    description: 'ISO 4217 currency of the recorded loss.',
    sources: { case: { column: 'r.loss_currency' }, intake: { column: 'r.loss_currency' } },
    examples: ['currency:EUR'],
  },
  {
    name: 'created',
    type: 'date',
    description: 'When the record was created (entities: first seen; wallets: found). A bare date is that whole UTC day.',
    sources: {
      case: { column: 'r.created_at' },
      intake: { column: 'r.created_at' },
      investigation: { column: 'r.created_at' },
      entity: { column: 'r.first_seen_at' },
      wallet: { column: 'r.found_at' },
      indicator: { column: 'i.created_at' },
    },
    examples: ['created:>=2026-01-01', 'created:[2026-01-01 TO 2026-03-31]', 'created:2026-02-14'],
  },
  {
    name: 'type',
    type: 'keyword',
    description: 'Entity type of an entity or indicator.',
    sources: { entity: { column: 'r.type' }, indicator: { column: 'e.type' } },
    values: ['wallet', 'domain', 'url', 'ip', 'email', 'phone', 'bank_account', 'person', 'organization', 'social_handle'],
    examples: ['type:wallet'],
  },
  {
    name: 'network',
    type: 'keyword',
    description: 'Blockchain network of a wallet finding.',
    sources: { wallet: { column: 'r.network' } },
    examples: ['network:tron'],
  },
  {
    name: 'token',
    type: 'keyword',
    description: 'Token of a wallet finding.',
    sources: { wallet: { column: 'r.token' } },
    examples: ['token:USDT'],
  },
  {
    name: 'source',
    type: 'keyword',
    description: 'Where an intake came from.',
    sources: { intake: { column: 'r.source' } },
    examples: ['source:web'],
  },
  {
    name: 'category',
    type: 'keyword',
    description: 'Indicator category.',
    sources: { indicator: { column: 'i.category' } },
    examples: ['category:phishing'],
  },
  {
    name: 'tlp',
    type: 'keyword',
    description: 'Indicator TLP marking.',
    sources: { indicator: { column: 'i.tlp' } },
    values: ['clear', 'green', 'amber', 'amber+strict', 'red'],
    examples: ['tlp:amber'],
  },
  {
    name: 'confidence',
    type: 'number',
    description: 'Indicator confidence (0-100).',
    sources: { indicator: { column: 'i.confidence' } },
    examples: ['confidence>=70'],
  },
  {
    name: 'risk',
    type: 'number',
    description: 'Entity risk score.',
    sources: { entity: { column: 'r.risk_score' } },
    examples: ['risk>50'],
  },
  {
    name: 'sightings',
    type: 'number',
    description: 'How many sources mentioned the entity.',
    sources: { entity: { column: 'r.sighting_count' } },
    examples: ['sightings>=3'],
  },
];

const BY_NAME = new Map(SEARCH_FIELDS.map((f) => [f.name, f]));

export function findSearchField(name: string): SearchField | undefined {
  return BY_NAME.get(name.toLowerCase());
}
