// Intelligence search use case, shared by POST /reviews/search/query and the legacy GET
// /reviews/search: parse and validate the query and filters (field registry), run it, apply the
// masking rules of docs/data-model.md for the caller's roles, and record the caller's history.
import type { Knex } from 'knex';
import { countMatches, searchRecords, type SearchCursor, type SearchSort } from '../../db/repositories/search/search-repository';
import { recordSearch } from '../../db/repositories/search/search-history-repository';
import type { Role } from '../../domain/accounts/roles';
import { HIGHLIGHT_END, HIGHLIGHT_START, maskBankAccount, maskBankDetailsInText, seesBankDetails } from '../../domain/search/bank-detail-mask';
import { parseSearchQuery, type QueryProblem, type SearchExpr } from '../../domain/search/parse-query';
import { SEARCH_RECORD_TYPES, type SearchRecordType } from '../../domain/search/search-fields';

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

export interface SearchItem {
  type: SearchRecordType;
  id: string;
  title: string;
  snippet: string;
  score: number;
  matched_fields: string[];
  record: Record<string, unknown>;
}

export interface SearchResponse {
  items: SearchItem[];
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

function maskItem(item: SearchItem): SearchItem {
  const record = { ...item.record };
  const bank = (item.type === 'entity' || item.type === 'indicator') && record.type === 'bank_account';
  for (const key of ['value', 'display_value'] as const) {
    if (bank && typeof record[key] === 'string') record[key] = maskBankAccount(record[key]);
  }
  for (const key of ['title', 'summary', 'label'] as const) {
    if (typeof record[key] === 'string') record[key] = maskBankDetailsInText(record[key]);
  }
  return {
    ...item,
    title: bank ? maskBankAccount(item.title) : maskBankDetailsInText(item.title),
    snippet: bank ? maskBankAccount(item.snippet.replaceAll(HIGHLIGHT_START, '').replaceAll(HIGHLIGHT_END, '')) : maskBankDetailsInText(item.snippet),
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
  const types = req.types && req.types.length > 0 ? [...new Set(req.types)] : [...SEARCH_RECORD_TYPES];
  const history = async (count: number) => {
    if (!req.cursor) await recordSearch(knex, { owner: caller.name, query: req.query, types, filters: req.filters ?? {}, result_count: count });
  };
  if (aggregatesOnly(caller.roles)) {
    const aggregates = await countMatches(knex, expr, types, SEARCH_COUNT_CAP);
    const total = aggregates.reduce((n, a) => n + a.count, 0);
    await history(total);
    return { items: [], next_cursor: null, total_estimate: total, total_capped: aggregates.some((a) => a.capped), aggregates };
  }
  // The count (first page only; later pages carry it in the cursor) runs beside the page query.
  const [counts, page] = await Promise.all([
    req.cursor ? null : countMatches(knex, expr, types, SEARCH_COUNT_CAP),
    searchRecords(knex, { expr, types, sort: req.sort ?? 'relevance', limit: req.limit, after: req.cursor }),
  ]);
  const total = counts ? counts.reduce((n, a) => n + a.count, 0) : (req.cursor?.total ?? 0);
  const capped = counts ? counts.some((a) => a.capped) : (req.cursor?.capped ?? false);
  await history(total);
  const clear = seesBankDetails(caller.roles);
  const items = page.hits.map((h) => (clear ? h : maskItem(h))).map((h) => ({ ...h, snippet: snippetHtml(h.snippet) }));
  return {
    items,
    next_cursor: page.next ? encodeSearchCursor({ ...page.next, total, capped }) : null,
    total_estimate: total,
    total_capped: capped,
  };
}
