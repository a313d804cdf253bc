// Intelligence search execution: a validated search expression (domain/search/parse-query.ts)
// compiled to one parameterized SQL query per record type, using the field registry's column
// expressions (domain/search/search-fields.ts). User values only ever travel as bindings.
//
// Two phases: (1) a UNION ALL of (type, id, score) over the record types, each branch ordered and
// limited on its own, keyset-paginated on (score, type:id); (2) titles, highlighted snippets
// (ts_headline), matched fields and records for just the page's rows.
//
// A caller who sees bank details only masked searches the masked view: `search_tsv_masked`
// (every bank detail taken out, db/migrations/20261126100000_search_masked_tsv.ts) for matching,
// ranking and counting, and snippets highlighted over the text as that caller's masking shows it,
// so no match, rank, count or highlight depends on a hidden character.
import type { Knex } from 'knex';
import { textAsUuid } from '../../text-uuid';
import { FRAGMENT_DELIMITER, HIGHLIGHT_END, HIGHLIGHT_START } from '../../../domain/masking/bank-details';
import { likePattern, type SearchExpr } from '../../../domain/search/parse-query';
import { findSearchField, TEXT_FIELD, type FieldSource, type SearchRecordType } from '../../../domain/search/search-fields';

interface Sql {
  sql: string;
  bindings: unknown[];
}

const sql = (text: string, ...bindings: unknown[]): Sql => ({ sql: text, bindings });
const join = (parts: Sql[], sep: string): Sql => ({ sql: parts.map((p) => p.sql).join(sep), bindings: parts.flatMap((p) => p.bindings) });

interface RecordTable {
  from: string;
  id: string;
  created: string;
  tsv: string;
  /** The same document with every bank detail taken out (the masked view). */
  maskedTsv: string;
  /** The text ts_headline highlights. */
  document: string;
  /** Fallback snippet when the query has no free-text terms. */
  plain: string;
  title: string;
  /** The columns of `record` (a jsonb_build_object argument list). */
  record: string;
  /** Which table `id = ANY(?)` filters in phase 2, with the id column's type. */
  idFilter: string;
}

const loss = (a: string) => `CASE WHEN ${a}.loss_amount IS NULL THEN NULL ELSE jsonb_build_object('amount', ${a}.loss_amount::text, 'currency', trim(${a}.loss_currency)) END`;
const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const SEARCH_TABLES: Record<SearchRecordType, RecordTable> = {
  case: {
    from: 'cases r',
    id: 'r.id::text',
    created: 'r.created_at',
    tsv: 'r.search_tsv',
    maskedTsv: 'r.search_tsv_masked',
    document: "r.title || ' — ' || r.description",
    plain: 'left(r.description, 240)',
    title: 'r.title',
    record: `'id', r.id, 'title', r.title, 'status', r.status, 'priority', r.priority, 'assignee', r.assignee, 'taxonomy', r.taxonomy, 'loss', ${loss('r')}, 'created_at', ${iso('r.created_at')}`,
    idFilter: 'r.id = ANY(?::uuid[])',
  },
  intake: {
    from: 'intakes r',
    id: 'r.id::text',
    created: 'r.created_at',
    tsv: 'r.search_tsv',
    maskedTsv: 'r.search_tsv_masked',
    document: "r.summary || ' — ' || r.details",
    plain: 'left(r.details, 240)',
    title: 'left(r.summary, 200)',
    // Never contact fields: they live in the vault, and this list names every column shown.
    record: `'id', r.id, 'status', r.status, 'source', r.source, 'summary', r.summary, 'case_id', r.case_id, 'loss', ${loss('r')}, 'created_at', ${iso('r.created_at')}`,
    idFilter: 'r.id = ANY(?::uuid[])',
  },
  investigation: {
    from: 'investigations r',
    id: 'r.scan_id::text',
    created: 'r.created_at',
    tsv: 'r.search_tsv',
    maskedTsv: 'r.search_tsv_masked',
    document: "coalesce(r.label, '') || ' ' || r.domain || ' ' || r.url",
    plain: 'r.url',
    title: 'coalesce(r.label, r.domain)',
    record: `'scan_id', r.scan_id, 'url', r.url, 'domain', r.domain, 'status', r.status, 'label', r.label, 'wallet_count', r.wallet_count, 'created_at', ${iso('r.created_at')}`,
    idFilter: 'r.scan_id = ANY(?::uuid[])',
  },
  entity: {
    from: 'entities r',
    id: 'r.id::text',
    created: 'r.first_seen_at',
    tsv: 'r.search_tsv',
    maskedTsv: 'r.search_tsv_masked',
    document: 'r.display_value',
    plain: 'r.display_value',
    title: 'r.display_value',
    record: `'id', r.id, 'type', r.type, 'value', r.value, 'display_value', r.display_value, 'risk_score', r.risk_score, 'sighting_count', r.sighting_count, 'first_seen_at', ${iso('r.first_seen_at')}, 'last_seen_at', ${iso('r.last_seen_at')}`,
    idFilter: 'r.id = ANY(?::uuid[])',
  },
  wallet: {
    from: 'wallets r',
    id: 'r.id::text',
    created: 'r.found_at',
    tsv: 'r.search_tsv',
    maskedTsv: 'r.search_tsv_masked',
    document: "r.address || ' ' || r.network || ' ' || r.token || ' ' || r.context",
    plain: 'left(r.context, 240)',
    title: 'r.address',
    record: `'id', r.id, 'scan_id', r.scan_id, 'address', r.address, 'network', r.network, 'token', r.token, 'confidence', r.confidence, 'page_url', r.page_url, 'found_at', ${iso('r.found_at')}`,
    idFilter: 'r.id = ANY(?::uuid[])',
  },
  indicator: {
    from: 'indicators i JOIN entities e ON e.id = i.entity_id',
    id: 'i.entity_id::text',
    created: 'i.created_at',
    tsv: 'e.search_tsv',
    maskedTsv: 'e.search_tsv_masked',
    document: 'e.display_value',
    plain: 'e.display_value',
    title: 'e.display_value',
    record: `'entity_id', i.entity_id, 'type', e.type, 'value', e.value, 'category', i.category, 'confidence', i.confidence, 'tlp', i.tlp, 'valid_from', ${iso('i.valid_from')}, 'revision', i.revision::text`,
    idFilter: 'i.entity_id = ANY(?::uuid[])',
  },
};

function tsquery(expr: Extract<SearchExpr, { kind: 'text' }>): Sql {
  switch (expr.mode) {
    case 'phrase':
      return sql("phraseto_tsquery('english', ?)", expr.value);
    case 'prefix':
      // The stem holds only letters and digits (parse-query.ts), so it is a valid lexeme here.
      return sql("to_tsquery('english', ?)", `${expr.value.toLowerCase()}:*`);
    default:
      return sql("plainto_tsquery('english', ?)", expr.value);
  }
}

const tsvOf = (type: SearchRecordType, masked: boolean) => (masked ? SEARCH_TABLES[type].maskedTsv : SEARCH_TABLES[type].tsv);

/** Records of `type` whose linked graph entities of `entityType` have a value matching `match`. */
function linkedIds(type: SearchRecordType, entityType: string, match: Sql): Sql | null {
  const entityMatch = (alias: string) => join([sql(`${alias}.type = ?`, entityType), { sql: match.sql.replaceAll('{v}', `${alias}.value`), bindings: match.bindings }], ' AND ');
  const m = entityMatch('e');
  if (type === 'case') {
    return join(
      [
        sql(`r.id IN (SELECT ${textAsUuid('s.source_id')} FROM entities e JOIN sightings s ON s.entity_id = e.id AND s.source_kind = 'case' WHERE `),
        m,
        sql(" UNION SELECT cl.case_id FROM entities e JOIN case_links cl ON cl.target_type = 'entity' AND cl.target_id = e.id::text WHERE "),
        m,
        sql(" UNION SELECT cl.case_id FROM entities e JOIN sightings s ON s.entity_id = e.id AND s.source_kind IN ('intake', 'investigation') JOIN case_links cl ON cl.target_type = s.source_kind AND cl.target_id = s.source_id WHERE "),
        m,
        sql(')'),
      ],
      '',
    );
  }
  if (type === 'intake' || type === 'investigation') {
    const idCol = type === 'intake' ? 'r.id' : 'r.scan_id';
    const parts = [sql(`${idCol} IN (SELECT ${textAsUuid('s.source_id')} FROM entities e JOIN sightings s ON s.entity_id = e.id AND s.source_kind = '${type}' WHERE `), m];
    if (type === 'investigation' && entityType === 'wallet') {
      parts.push(sql(' UNION SELECT w.scan_id::uuid FROM wallets w WHERE '), { sql: match.sql.replaceAll('{v}', 'w.address'), bindings: match.bindings });
    }
    parts.push(sql(')'));
    return join(parts, '');
  }
  return null;
}

function fieldPredicate(type: SearchRecordType, fieldName: string, match: Sql): Sql {
  const field = findSearchField(fieldName);
  const source: FieldSource | undefined = field?.sources[type];
  if (!source) return sql('FALSE');
  if ('linked' in source) return linkedIds(type, source.linked, match) ?? sql('FALSE');
  const m = { sql: match.sql.replaceAll('{v}', source.column), bindings: match.bindings };
  return source.when ? join([sql(`(${source.when})`), m], ' AND ') : m;
}

/**
 * The SQL condition of `expr` for rows of `type` (a field the type lacks is FALSE, so NOT of it is
 * TRUE); `masked`: free text matches the masked view.
 */
export function compileExpr(expr: SearchExpr, type: SearchRecordType, masked = false): Sql {
  switch (expr.kind) {
    case 'all':
      return sql('TRUE');
    case 'and':
    case 'or': {
      const parts = expr.children.map((c) => compileExpr(c, type, masked));
      const j = join(parts, expr.kind === 'and' ? ' AND ' : ' OR ');
      return { sql: `(${j.sql})`, bindings: j.bindings };
    }
    case 'not': {
      // NULL (a record without the value) counts as false, so NOT of it is true. The COALESCE sits
      // here, not on every leaf: a wrapped leaf could not use its index.
      const c = compileExpr(expr.child, type, masked);
      return { sql: `NOT COALESCE((${c.sql}), FALSE)`, bindings: c.bindings };
    }
    case 'text': {
      const q = tsquery(expr);
      return { sql: `(${tsvOf(type, masked)} @@ ${q.sql})`, bindings: q.bindings };
    }
    case 'keyword': {
      const pattern = expr.like ? expr.value : likePattern(expr.value);
      const p = fieldPredicate(type, expr.field, sql("{v} ILIKE ? ESCAPE '\\'", pattern));
      return { sql: `(${p.sql})`, bindings: p.bindings };
    }
    case 'bounds': {
      const field = findSearchField(expr.field);
      const cast = field?.type === 'date' ? 'timestamptz' : 'numeric';
      const conds: Sql[] = [];
      if (expr.from) conds.push(sql(`{v} ${expr.from.inclusive ? '>=' : '>'} ?::${cast}`, expr.from.value));
      if (expr.to) conds.push(sql(`{v} ${expr.to.inclusive ? '<=' : '<'} ?::${cast}`, expr.to.value));
      const p = fieldPredicate(type, expr.field, conds.length ? join(conds, ' AND ') : sql('{v} IS NOT NULL'));
      return { sql: `(${p.sql})`, bindings: p.bindings };
    }
  }
}

/** Free-text terms outside NOT: what ranking and highlighting use. */
function positiveText(expr: SearchExpr, negated = false, out: Array<Extract<SearchExpr, { kind: 'text' }>> = []) {
  if (expr.kind === 'and' || expr.kind === 'or') for (const c of expr.children) positiveText(c, negated, out);
  else if (expr.kind === 'not') positiveText(expr.child, !negated, out);
  else if (expr.kind === 'text' && !negated) out.push(expr);
  return out;
}

/** Field leaves outside NOT (for matched_fields). */
function positiveLeaves(expr: SearchExpr, negated = false, out: Array<{ field: string; expr: SearchExpr }> = []) {
  if (expr.kind === 'and' || expr.kind === 'or') for (const c of expr.children) positiveLeaves(c, negated, out);
  else if (expr.kind === 'not') positiveLeaves(expr.child, !negated, out);
  else if (!negated && expr.kind === 'text') out.push({ field: TEXT_FIELD, expr });
  else if (!negated && (expr.kind === 'keyword' || expr.kind === 'bounds')) out.push({ field: expr.field, expr });
  return out;
}

function combinedTsquery(expr: SearchExpr): Sql | null {
  const terms = positiveText(expr);
  if (terms.length === 0) return null;
  const j = join(terms.map(tsquery), ' || ');
  return { sql: `(${j.sql})`, bindings: j.bindings };
}

export type SearchSort = 'relevance' | 'newest';

export interface SearchCursor {
  score: number;
  key: string;
}

export interface SearchQuery {
  expr: SearchExpr;
  types: readonly SearchRecordType[];
  sort: SearchSort;
  limit: number;
  after?: SearchCursor;
  /**
   * The caller's masking of free text, when it sees bank details only masked: matching, ranking
   * and counting use the masked view, and snippets are highlighted over the masked text.
   */
  mask?: (text: string) => string;
}

/** One record (of any record type) found by the intelligence search: the API answers it as `SearchHit`. */
export interface SearchHit {
  type: SearchRecordType;
  id: string;
  title: string;
  /** Plain text with highlights between \u0002 and \u0003 (the API escapes and marks them up). */
  snippet: string;
  score: number;
  matched_fields: string[];
  record: Record<string, unknown>;
}

function scoreExpr(type: SearchRecordType, sort: SearchSort, q: Sql | null, masked: boolean): Sql {
  if (sort === 'newest') return sql(`extract(epoch FROM ${SEARCH_TABLES[type].created})::float8`);
  if (!q) return sql('0::float8');
  return { sql: `ts_rank_cd(${tsvOf(type, masked)}, ${q.sql})::float8`, bindings: q.bindings };
}

function branch(type: SearchRecordType, s: SearchQuery, q: Sql | null, limit: number): Sql {
  const t = SEARCH_TABLES[type];
  const masked = Boolean(s.mask);
  const where = compileExpr(s.expr, type, masked);
  const score = scoreExpr(type, s.sort, q, masked);
  const key = `'${type}:' || ${t.id}`;
  const parts: Sql[] = [
    { sql: `SELECT '${type}'::text AS type, ${t.id} AS id, ${score.sql} AS score, (${key}) COLLATE "C" AS key FROM ${t.from} WHERE `, bindings: score.bindings },
    where,
  ];
  if (s.after) {
    parts.push({ sql: ` AND (${score.sql}, (${key}) COLLATE "C") < (?::float8, ?::text COLLATE "C")`, bindings: [...score.bindings, s.after.score, s.after.key] });
  }
  parts.push(sql(` ORDER BY 3 DESC, 4 DESC LIMIT ${limit}`));
  const j = join(parts, '');
  return { sql: `(${j.sql})`, bindings: j.bindings };
}

interface RankedRow {
  type: SearchRecordType;
  id: string;
  score: number;
  key: string;
}

export interface SearchPage {
  hits: SearchHit[];
  next: SearchCursor | null;
}

const SNIPPET_OPTIONS = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_END}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter="${FRAGMENT_DELIMITER}"`;

export async function searchRecords(knex: Knex, s: SearchQuery): Promise<SearchPage> {
  const q = combinedTsquery(s.expr);
  const branches = s.types.map((type) => branch(type, s, q, s.limit + 1));
  const union = join(branches, ' UNION ALL ');
  const ranked = await knex.raw<{ rows: RankedRow[] }>(`SELECT type, id, score, key FROM (${union.sql}) u ORDER BY score DESC, key COLLATE "C" DESC LIMIT ${s.limit + 1}`, union.bindings as Knex.RawBinding[]);
  const rows = ranked.rows.slice(0, s.limit);
  const more = ranked.rows.length > s.limit;
  const byType = new Map<SearchRecordType, string[]>();
  for (const r of rows) byType.set(r.type, [...(byType.get(r.type) ?? []), r.id]);

  const details = new Map<string, Omit<SearchHit, 'type' | 'id' | 'score'>>();
  const leaves = positiveLeaves(s.expr);
  const masked = Boolean(s.mask);
  for (const [type, ids] of byType) {
    const t = SEARCH_TABLES[type];
    // The markers are control characters no record should hold: any stored ones are dropped first.
    const clean = (text: string) => `translate(${text}, chr(2) || chr(3), '')`;
    // The masked view highlights the masked text (below), so the row brings the document itself.
    const snippet = q && !masked ? { sql: `ts_headline('english', ${clean(t.document)}, ${q.sql}, '${SNIPPET_OPTIONS}')`, bindings: q.bindings } : sql(clean(q ? t.document : t.plain));
    const applicable = leaves.filter((l) => l.field === TEXT_FIELD || findSearchField(l.field)?.sources[type]);
    const flags = applicable.map((l, i) => {
      const c = compileExpr(l.expr, type, masked);
      return { sql: `, (${c.sql}) AS m${i}`, bindings: c.bindings };
    });
    const select = join([{ sql: `SELECT ${t.id} AS id, ${t.title} AS title, coalesce(`, bindings: [] }, snippet, sql(`, '') AS snippet, jsonb_build_object(${t.record}) AS record`), ...flags], '');
    const found = await knex.raw<{ rows: Array<Record<string, unknown> & { id: string; title: string; snippet: string; record: Record<string, unknown> }> }>(
      `${select.sql} FROM ${t.from} WHERE ${t.idFilter}`,
      [...select.bindings, ids] as Knex.RawBinding[],
    );
    const snippets = q && s.mask ? await headlines(knex, found.rows.map((row) => s.mask!(row.snippet)), q) : found.rows.map((row) => row.snippet);
    found.rows.forEach((row, i) => {
      const matched = [...new Set(applicable.filter((_, j) => row[`m${j}`] === true).map((l) => l.field))];
      details.set(`${type}:${row.id}`, { title: row.title, snippet: snippets[i], matched_fields: matched, record: row.record });
    });
  }
  const hits: SearchHit[] = [];
  for (const r of rows) {
    const d = details.get(`${r.type}:${r.id}`);
    if (d) hits.push({ type: r.type, id: r.id, score: r.score, ...d });
  }
  const last = rows[rows.length - 1];
  return { hits, next: more && last ? { score: last.score, key: last.key } : null };
}

/** ts_headline over texts given by the caller (the masked view's documents), in their order. */
async function headlines(knex: Knex, texts: string[], q: Sql): Promise<string[]> {
  if (texts.length === 0) return [];
  const result = await knex.raw<{ rows: Array<{ snippet: string }> }>(
    `SELECT coalesce(ts_headline('english', x.d, ${q.sql}, '${SNIPPET_OPTIONS}'), '') AS snippet FROM unnest(?::text[]) WITH ORDINALITY AS x(d, n) ORDER BY x.n`,
    [...q.bindings, texts] as Knex.RawBinding[],
  );
  return result.rows.map((r) => r.snippet);
}

/** How many records of each type match, each count capped at `cap` (capped: true when it reached it). */
export async function countMatches(
  knex: Knex,
  expr: SearchExpr,
  types: readonly SearchRecordType[],
  cap: number,
  masked = false,
): Promise<Array<{ type: SearchRecordType; count: number; capped: boolean }>> {
  const branches = types.map((type) => {
    const t = SEARCH_TABLES[type];
    const where = compileExpr(expr, type, masked);
    return { sql: `SELECT '${type}'::text AS type, (SELECT count(*)::int FROM (SELECT 1 FROM ${t.from} WHERE ${where.sql} LIMIT ${cap}) c) AS count`, bindings: where.bindings };
  });
  const j = join(branches, ' UNION ALL ');
  const result = await knex.raw<{ rows: Array<{ type: SearchRecordType; count: number }> }>(j.sql, j.bindings as Knex.RawBinding[]);
  return result.rows.map((r) => ({ type: r.type, count: r.count, capped: r.count >= cap }));
}
