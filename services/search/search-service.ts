// Intelligence search use cases (the API's /reviews/search, /reviews/search/query, /schema and
// /history). A search parses and validates the query and filters (field registry), runs it through
// the caller's masking policy (domain/masking/masking-policy.ts: a caller who sees bank details only
// masked searches the masked view, and every title, snippet and record text is masked), and records
// the caller's history. Search is for people (403 for a service caller).
// - searchRecordsAs: run a search for the caller (400 query_syntax or invalid_query)
// - queryRecords: the same with the cursor as the client sent it (400 for one not from this API)
// - searchFieldRegistry: the fields, their types and operators, the record types, the syntax
// - listOwnSearchHistory / deleteOwnSearchHistoryEntry (404) / clearOwnSearchHistory: the caller's history
// runSearch is the engine behind them (also run by the benchmark).
import type { Knex } from 'knex';
import { countMatches, searchRecords, type SearchCursor, type SearchHit, type SearchSort } from '../../db/repositories/search/search-repository';
import { clearSearchHistory, deleteSearchHistoryEntry, listSearchHistory, recordSearch, type SearchHistoryRow } from '../../db/repositories/search/search-history-repository';
import type { Principal, Role } from '../../domain/accounts/roles';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { HIGHLIGHT_END, HIGHLIGHT_START, maskingFor, type MaskingPolicy } from '../../domain/masking/masking-policy';
import { valueTermsOf } from '../../domain/search/search-visibility';
import { parseSearchQuery, type QueryProblem, type SearchExpr } from '../../domain/search/parse-query';
import { operatorsOf, SEARCH_FIELDS, SEARCH_RECORD_TYPES, type SearchRecordType } from '../../domain/search/search-fields';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import type { ServiceDeps } from '../service-deps';

export type { SearchHistoryRow } from '../../db/repositories/search/search-history-repository';

/** Counts (total_estimate, researcher aggregates) are exact up to this many per record type. */
export const SEARCH_COUNT_CAP = 1000;

export interface SearchRequest {
  query: string;
  types?: readonly SearchRecordType[];
  filters?: Record<string, string | string[]>;
  sort?: SearchSort;
  limit: number;
  cursor?: SearchPageCursor;
}

export interface SearchPageCursor extends SearchCursor {
  total: number;
  capped: boolean;
}

export interface SearchResponse {
  /** Snippets as HTML (snippetHtml), values masked per role. */
  items: SearchHit[];
  next_cursor: string | null;
  total_estimate: number;
  total_capped: boolean;
  aggregates?: Array<{ type: SearchRecordType; count: number; capped: boolean }>;
}

export class SearchQueryError extends Error {
  constructor(
    readonly kind: 'syntax' | 'invalid',
    readonly problems: Array<QueryProblem & { path: string }>,
  ) {
    super(problems[0]?.message ?? 'invalid query');
  }
}

export function encodeSearchCursor(c: SearchPageCursor): string {
  return Buffer.from(JSON.stringify([c.score, c.key, c.total, c.capped]), 'utf8').toString('base64url');
}

export function decodeSearchCursor(cursor: string): SearchPageCursor | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 4 && typeof v[0] === 'number' && Number.isFinite(v[0]) && typeof v[1] === 'string' && /^[a-z]+:[0-9a-f-]{36}$/.test(v[1]) && Number.isInteger(v[2]) && typeof v[3] === 'boolean') {
      return { score: v[0], key: v[1], total: v[2] as number, capped: v[3] };
    }
  } catch {
    // fall through
  }
  return null;
}

/** A filter value as query text: `>5000`, `[a TO b]` and plain tokens as they are, anything else quoted. */
function filterText(field: string, value: string): string {
  if (/^(>=|<=|>|<|=)[^\s()"]+$/.test(value) || /^\[[^\]]*\]$/.test(value)) return `${field}:${value}`;
  if (/^[^\s()"[\]]+$/.test(value)) return `${field}:${value}`;
  return `${field}:"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** The query and its filters as one validated expression (filters AND-ed, values of one filter OR-ed). */
export function buildSearchExpr(query: string, filters: Record<string, string | string[]> = {}): SearchExpr {
  const parsed = parseSearchQuery(query);
  if (!parsed.ok) throw new SearchQueryError(parsed.kind, parsed.problems.map((p) => ({ ...p, path: 'query' })));
  const parts: SearchExpr[] = parsed.expr.kind === 'all' ? [] : [parsed.expr];
  for (const [field, raw] of Object.entries(filters)) {
    const values = Array.isArray(raw) ? raw : [raw];
    const alternatives: SearchExpr[] = [];
    for (const value of values) {
      const f = parseSearchQuery(filterText(field, value));
      if (!f.ok) throw new SearchQueryError('invalid', f.problems.map((p) => ({ ...p, path: `filters.${field}` })));
      alternatives.push(f.expr);
    }
    if (alternatives.length === 1) parts.push(alternatives[0]);
    else if (alternatives.length > 1) parts.push({ kind: 'or', children: alternatives });
  }
  if (parts.length === 0) return { kind: 'all' };
  return parts.length === 1 ? parts[0] : { kind: 'and', children: parts };
}

/** Escapes HTML and turns the highlight markers into <mark> elements. */
export function snippetHtml(text: string): string {
  return text
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)
    .replaceAll(HIGHLIGHT_START, '<mark>')
    .replaceAll(HIGHLIGHT_END, '</mark>');
}

/** A hit as the caller may see it: entity values, record text, the title and the (possibly cut) snippet. */
function maskItem(item: SearchHit, policy: MaskingPolicy): SearchHit {
  const entityType = (item.type === 'entity' || item.type === 'indicator') && typeof item.record.type === 'string' ? item.record.type : null;
  const record = entityType ? policy.entity({ ...item.record, type: entityType, value: String(item.record.value ?? '') }) : policy.json(item.record);
  const unmarked = (t: string) => t.replaceAll(HIGHLIGHT_START, '').replaceAll(HIGHLIGHT_END, '');
  const valueMasked = entityType !== null && policy.value(entityType, 'x1') !== 'x1';
  return {
    ...item,
    title: entityType ? policy.value(entityType, item.title) : policy.text(item.title),
    // A masked value has nothing to highlight: its snippet is the mask itself.
    snippet: valueMasked && entityType ? policy.value(entityType, unmarked(item.snippet)) : policy.snippet(item.snippet),
    record,
  };
}

export interface SearchCaller {
  name: string;
  roles: readonly Role[];
}

/** Researchers get aggregates only: counts per record type, no records. */
export const aggregatesOnly = (roles: readonly Role[]) => !roles.some((r) => r === 'admin' || r === 'analyst' || r === 'reviewer');

export async function runSearch(knex: Knex, caller: SearchCaller, req: SearchRequest): Promise<SearchResponse> {
  const expr = buildSearchExpr(req.query, req.filters);
  const policy = maskingFor(caller.roles);
  const masked = !policy.sees('bank_account');
  const types = req.types && req.types.length > 0 ? [...new Set(req.types)] : [...SEARCH_RECORD_TYPES];
  const history = async (count: number) => {
    if (!req.cursor) await recordSearch(knex, { owner: caller.name, query: req.query, types, filters: req.filters ?? {}, result_count: count });
  };
  if (aggregatesOnly(caller.roles)) {
    // Every value is masked for this caller: a count by value fields or word prefixes would read
    // values character by character (domain/search/search-visibility.ts).
    const terms = valueTermsOf(expr);
    if (terms.length > 0) {
      const problems = terms.map((t) => ({ path: 'query', message: `${t} is not for researchers: count by whole words and non-value fields (status, type, dates, amounts)`, offset: 0, line: 1, column: 1 }));
      throw new SearchQueryError('invalid', problems);
    }
    const aggregates = await countMatches(knex, expr, types, SEARCH_COUNT_CAP, true);
    const total = aggregates.reduce((n, a) => n + a.count, 0);
    await history(total);
    return { items: [], next_cursor: null, total_estimate: total, total_capped: aggregates.some((a) => a.capped), aggregates };
  }
  // The count (first page only; later pages carry it in the cursor) runs beside the page query.
  const [counts, page] = await Promise.all([
    req.cursor ? null : countMatches(knex, expr, types, SEARCH_COUNT_CAP, masked),
    searchRecords(knex, { expr, types, sort: req.sort ?? 'relevance', limit: req.limit, after: req.cursor, ...(masked ? { mask: (t: string) => policy.text(t) } : {}) }),
  ]);
  const total = counts ? counts.reduce((n, a) => n + a.count, 0) : (req.cursor?.total ?? 0);
  const capped = counts ? counts.some((a) => a.capped) : (req.cursor?.capped ?? false);
  await history(total);
  const items = page.hits.map((h) => (masked ? maskItem(h, policy) : h)).map((h) => ({ ...h, snippet: snippetHtml(h.snippet) }));
  return {
    items,
    next_cursor: page.next ? encodeSearchCursor({ ...page.next, total, capped }) : null,
    total_estimate: total,
    total_capped: capped,
  };
}

function searchCaller(principal: Principal | null): SearchCaller {
  if (!principal || principal.kind !== 'user') throw new ForbiddenError('search is for people');
  return { name: principal.email, roles: principal.roles };
}

/** runSearch for the caller, a query it refuses answered as a 400 naming where and why. */
export async function searchRecordsAs(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, req: SearchRequest): Promise<SearchResponse> {
  try {
    return await runSearch(deps.knex, searchCaller(principal), req);
  } catch (err) {
    if (err instanceof SearchQueryError) {
      const first = err.problems[0];
      throw new BadRequestError(
        err.kind === 'syntax' ? 'query_syntax' : 'invalid_query',
        err.kind === 'syntax' ? `${first.path}: ${first.message}` : `${first.path}: ${first.message} (at line ${first.line}, column ${first.column})`,
        err.problems.map((p) => ({ path: p.path, message: p.message, offset: p.offset, line: p.line, column: p.column, ...(p.expected ? { expected: p.expected } : {}), ...(p.field ? { field: p.field } : {}) })),
      );
    }
    throw err;
  }
}

/** searchRecordsAs with the request body's cursor (next_cursor of the previous page) still encoded. */
export async function queryRecords(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, req: Omit<SearchRequest, 'cursor'> & { cursor?: string }): Promise<SearchResponse> {
  let cursor: SearchPageCursor | undefined;
  if (req.cursor !== undefined && req.cursor !== '') {
    cursor = decodeSearchCursor(req.cursor) ?? undefined;
    if (!cursor) throw new BadRequestError('validation_failed', 'body.cursor: not a cursor from this API', [{ path: 'body.cursor', message: 'not a cursor from this API' }]);
  }
  return searchRecordsAs(deps, principal, { query: req.query, types: req.types, filters: req.filters, sort: req.sort, limit: req.limit, cursor });
}

/** The query language's forms, for GET /reviews/search/schema. */
const SYNTAX = [
  { form: 'word', meaning: 'full text (English stemming) over every record type', example: 'romance' },
  { form: '"a phrase"', meaning: 'the words in this order', example: '"pig butchering"' },
  { form: 'word*', meaning: 'full-text prefix', example: 'invest*' },
  { form: 'field:value', meaning: 'field equals value (keywords: case-insensitive; numbers and dates: equality, a bare date is that day)', example: 'status:open' },
  { form: 'field:"a phrase"', meaning: 'keyword field equals the quoted value', example: 'url:"https://example-invest.com/deposit"' },
  { form: 'field:val*, field:*val*', meaning: 'keyword wildcard: * matches any characters (trigram index)', example: 'wallet:TQ*' },
  { form: 'field>n, field>=n, field<n, field<=n (or field:>=n)', meaning: 'comparison on number, money and date fields', example: 'loss>5000, created:>=2026-01-01' },
  { form: 'field:[a TO b]', meaning: 'inclusive range; * leaves a side open', example: 'loss:[1000 TO 5000], created:[2026-01-01 TO *]' },
  { form: 'a AND b, a b', meaning: 'both (whitespace is AND)', example: 'wallet:TQ* AND loss>5000' },
  { form: 'a OR b', meaning: 'either; AND binds tighter: a OR b AND c is a OR (b AND c)', example: 'romance OR investment' },
  { form: 'NOT a, -a', meaning: 'not; binds tighter than AND', example: 'NOT status:closed' },
  { form: '( ... )', meaning: 'grouping', example: '(romance OR dating) AND loss>1000' },
];

/** The field registry as clients read it: fields with their record types and operators, and the syntax. */
export function searchFieldRegistry() {
  return {
    record_types: [...SEARCH_RECORD_TYPES],
    fields: SEARCH_FIELDS.map((f) => ({
      name: f.name,
      type: f.type,
      description: f.description,
      record_types: SEARCH_RECORD_TYPES.filter((t) => f.sources[t]),
      operators: [...operatorsOf(f.type)],
      ...(f.values ? { values: [...f.values] } : {}),
      examples: f.examples,
    })),
    syntax: SYNTAX,
  };
}

export async function listOwnSearchHistory(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, page: { limit: number; after?: Keyset }): Promise<KeysetPage<SearchHistoryRow>> {
  return listSearchHistory(deps.knex, searchCaller(principal).name, page);
}

export async function deleteOwnSearchHistoryEntry(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string): Promise<void> {
  if (!(await deleteSearchHistoryEntry(deps.knex, searchCaller(principal).name, id))) throw new NotFoundError(`no entry ${id} in your search history`);
}

/** How many entries were deleted. */
export async function clearOwnSearchHistory(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null): Promise<number> {
  return clearSearchHistory(deps.knex, searchCaller(principal).name);
}
