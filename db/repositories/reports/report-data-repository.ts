// Reads the records a report shows, per entity kind (wallets, intakes, cases), and the per-status
// counts of intakes and cases. Kinds without a source here give an empty section, never an error.
import type { Knex } from 'knex';
import type { CellValue, ReportSection } from '../../../domain/reports/report-content';
import type { EntityType } from '../../../domain/reports/report-templates';

export interface ReportDataFilter {
  since: Date | null;
  until: Date;
  networks?: string[];
  tokens?: string[];
  minConfidence?: 'low' | 'medium' | 'high';
  /**
   * Only records whose source is one of these. For wallets the source is where on the page the
   * address was found (wallets.source: 'text', 'attr:data-clipboard-text', 'uri:bitcoin', ...). A
   * value ending in ':' is a prefix: 'attr:' takes every attribute source. Other values match exactly.
   */
  sources?: string[];
}

interface SectionSource {
  title: string;
  columns: Array<{ key: string; label: string }>;
  query(knex: Knex, f: ReportDataFilter): Knex.QueryBuilder;
}

const CONFIDENCE_AT_LEAST: Record<string, string[]> = {
  low: ['low', 'medium', 'high'],
  medium: ['medium', 'high'],
  high: ['high'],
};

/** Most rows a section holds; a section cut at it says so (ReportSection.truncation). */
export const DEFAULT_ROW_CAP = 10_000;

/** WHERE <column> matches one of the sources: exact, or a prefix when the value ends in ':'. */
function whereSource(q: Knex.QueryBuilder, column: string, sources: string[]): void {
  const exact = sources.filter((x) => !x.endsWith(':'));
  const prefixes = sources.filter((x) => x.endsWith(':'));
  q.where((w) => {
    if (exact.length) w.orWhereIn(column, exact);
    for (const p of prefixes) w.orWhere(column, 'like', `${p.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  });
}

function period(q: Knex.QueryBuilder, column: string, f: ReportDataFilter): Knex.QueryBuilder {
  q.where(column, '<', f.until);
  if (f.since) q.where(column, '>=', f.since);
  return q;
}

const SOURCES: Partial<Record<EntityType, SectionSource>> = {
  wallet: {
    title: 'Wallets',
    columns: [
      { key: 'address', label: 'Address' },
      { key: 'token', label: 'Token' },
      { key: 'network', label: 'Network' },
      { key: 'confidence', label: 'Confidence' },
      { key: 'source', label: 'Source' },
      { key: 'sites', label: 'Investigations' },
      { key: 'first_seen', label: 'First seen (UTC)' },
    ],
    query: (knex, f) => {
      const q = knex('wallets')
        .select('address', 'token', 'network')
        .select(knex.raw(`(array_agg(confidence ORDER BY CASE confidence WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END))[1] AS confidence`))
        .select(knex.raw(`string_agg(DISTINCT source, ', ') AS source`))
        .select(knex.raw('count(DISTINCT scan_id)::int AS sites'))
        .select(knex.raw(`to_char(min(found_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS first_seen`))
        .groupBy('address', 'token', 'network')
        .orderBy([{ column: 'sites', order: 'desc' }, { column: 'address', order: 'asc' }]);
      period(q, 'found_at', f);
      if (f.networks?.length) q.whereIn('network', f.networks);
      if (f.tokens?.length) q.whereIn('token', f.tokens);
      if (f.minConfidence) q.whereIn('confidence', CONFIDENCE_AT_LEAST[f.minConfidence]);
      if (f.sources?.length) whereSource(q, 'source', f.sources);
      return q;
    },
  },
};

/** `1234.50 EUR`, or null without a loss. */
const LOSS_CELL = (table: string) => `CASE WHEN ${table}.loss_amount IS NULL THEN NULL ELSE ${table}.loss_amount::text || ' ' || ${table}.loss_currency::text END AS loss`;
const UTC_MINUTE = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')`;

SOURCES.intake = {
  title: 'Intakes',
  // Never contact data: it is sealed in the vault, not in the intakes table.
  columns: [
    { key: 'received', label: 'Received (UTC)' },
    { key: 'id', label: 'Intake' },
    { key: 'source', label: 'Source' },
    { key: 'status', label: 'Status' },
    { key: 'summary', label: 'Summary' },
    { key: 'loss', label: 'Loss' },
    { key: 'case_id', label: 'Case' },
  ],
  query: (knex, f) =>
    period(
      knex('intakes as i')
        .select(knex.raw(`${UTC_MINUTE('i.created_at')} AS received`), knex.raw('i.id::text AS id'), 'i.source', 'i.status', 'i.summary', knex.raw(LOSS_CELL('i')), knex.raw('i.case_id::text AS case_id'))
        .orderBy([{ column: 'i.created_at', order: 'desc' }, { column: 'i.id', order: 'asc' }]),
      'i.created_at',
      f,
    ),
};

SOURCES.case = {
  title: 'Cases',
  columns: [
    { key: 'opened', label: 'Opened (UTC)' },
    { key: 'id', label: 'Case' },
    { key: 'title', label: 'Title' },
    { key: 'status', label: 'Status' },
    { key: 'priority', label: 'Priority' },
    { key: 'taxonomy', label: 'Taxonomy' },
    { key: 'loss', label: 'Loss' },
  ],
  query: (knex, f) =>
    period(
      knex('cases as c')
        .select(knex.raw(`${UTC_MINUTE('c.created_at')} AS opened`), knex.raw('c.id::text AS id'), 'c.title', 'c.status', 'c.priority', 'c.taxonomy', knex.raw(LOSS_CELL('c')))
        .orderBy([{ column: 'c.created_at', order: 'desc' }, { column: 'c.id', order: 'asc' }]),
      'c.created_at',
      f,
    ),
};

/** The tables whose records a status-count section counts (created in the period), by entity kind. */
const STATUS_TABLES: Partial<Record<EntityType, string>> = { intake: 'intakes', case: 'cases' };

/**
 * "<Kind> by status": how many records of the kind were created in the period, per status (most
 * first), with a total row. Kinds without a status table are left out.
 */
export async function loadStatusCountSections(knex: Knex, types: EntityType[], filter: ReportDataFilter): Promise<ReportSection[]> {
  const sections: ReportSection[] = [];
  for (const type of types) {
    const table = STATUS_TABLES[type];
    if (!table) continue;
    const q = period(knex(table).select('status').count({ count: '*' }).groupBy('status').orderBy([{ column: 'count', order: 'desc' }, { column: 'status' }]), 'created_at', filter);
    const rows = ((await q) as Array<{ status: string; count: string | number }>).map((r) => ({ status: r.status, count: Number(r.count) }));
    const total = rows.reduce((n, r) => n + r.count, 0);
    sections.push({
      entityType: `${type}_status`,
      title: `${TITLES[type]} by status`,
      columns: [
        { key: 'status', label: 'Status' },
        { key: 'count', label: 'Count' },
      ],
      rows: rows.length ? [...rows, { status: 'total', count: total }] : [],
      emptyNote: `No ${TITLES[type].toLowerCase()} in this period.`,
    });
  }
  return sections;
}

const TITLES: Record<EntityType, string> = {
  wallet: 'Wallets', investigation: 'Investigations', intake: 'Intakes', case: 'Cases', person: 'Persons',
  organization: 'Organizations', domain: 'Domains', indicator: 'Indicators', campaign: 'Campaigns',
};

export async function loadReportSections(
  knex: Knex,
  types: EntityType[],
  filter: ReportDataFilter,
  opts: { rowCap?: number } = {},
): Promise<ReportSection[]> {
  const rowCap = opts.rowCap ?? DEFAULT_ROW_CAP;
  const sections: ReportSection[] = [];
  for (const type of types) {
    const source = SOURCES[type];
    const emptyNote = `No ${TITLES[type].toLowerCase()} in this period.`;
    if (!source) {
      sections.push({ entityType: type, title: TITLES[type], columns: [], rows: [], emptyNote });
      continue;
    }
    // One row over the cap tells whether the section was cut; only then are all rows counted.
    const rows = (await source.query(knex, filter).limit(rowCap + 1)) as Array<Record<string, CellValue>>;
    if (rows.length <= rowCap) {
      sections.push({ entityType: type, title: source.title, columns: source.columns, rows, emptyNote });
      continue;
    }
    const [{ n }] = (await knex.count({ n: '*' }).from(source.query(knex, filter).clearOrder().as('s'))) as Array<{ n: number | string }>;
    sections.push({
      entityType: type,
      title: source.title,
      columns: source.columns,
      rows: rows.slice(0, rowCap),
      emptyNote,
      truncation: { rowCap, totalRows: Number(n) },
    });
  }
  return sections;
}
