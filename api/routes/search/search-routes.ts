// Intelligence search: the query (POST /reviews/search/query and the legacy GET
// /reviews/search, one engine), the field registry, and the caller's own history. Literal
// /reviews/search/... paths win over /reviews/{id} (api/register-routes.ts, exclusive specificity).
// The use cases: services/search/search-service.ts.
import type { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import {
  clearOwnSearchHistory,
  deleteOwnSearchHistoryEntry,
  listOwnSearchHistory,
  queryRecords,
  searchFieldRegistry,
  searchRecordsAs,
} from '../../../services/search/search-service';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import {
  LegacyQuery,
  QueryBody,
  SearchHistoryClearedSchema,
  SearchHistoryEntrySchema,
  SearchHistoryQuery,
  SearchResultSchema,
  SearchSchemaSchema,
} from './search-schemas';

/** Who may search: researchers get aggregates only (counts per record type, no records). */
export const SEARCH_ROLES = ['admin', 'analyst', 'reviewer', 'researcher'] as const;

const queryErrors = {
  400: { description: 'Invalid query: code query_syntax (details: offset, line, column, expected) or invalid_query (unknown field, wrong operator or value; details name field and position)', schema: ErrorSchema },
};

export const searchRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof QueryBody>>({
    method: 'post',
    path: '/reviews/search/query',
    summary: 'Intelligence search over cases, intakes, investigations, entities, wallets and indicators: ranked, highlighted, keyset-paginated (researchers: counts per type only)',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    request: { body: QueryBody },
    responses: { 200: { description: 'A page of results', schema: SearchResultSchema }, ...queryErrors },
    handler: async ({ body, principal, deps }) => ({ body: await queryRecords(deps, principal, body) }),
  }),
  defineRoute<Record<string, never>, z.infer<typeof LegacyQuery>>({
    method: 'get',
    path: '/reviews/search',
    summary: 'Legacy search form: q (the same query language), type, limit, cursor; the same engine and answer as POST /reviews/search/query',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    request: { query: LegacyQuery },
    responses: { 200: { description: 'A page of results', schema: SearchResultSchema }, ...queryErrors },
    handler: async ({ query, principal, deps }) => ({ body: await searchRecordsAs(deps, principal, { query: query.q, types: query.type, limit: query.limit, cursor: query.cursor }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/reviews/search/schema',
    summary: 'The search field registry: fields, types, operators, record types, examples, and the syntax',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    responses: { 200: { description: 'The registry', schema: SearchSchemaSchema } },
    handler: async () => ({ body: searchFieldRegistry() }),
  }),
  defineRoute<Record<string, never>, { limit: number; cursor?: Keyset }>({
    method: 'get',
    path: '/reviews/search/history',
    summary: 'The caller\'s own recent searches (first pages), newest first, with time and result count',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    request: { query: SearchHistoryQuery },
    responses: { 200: { description: 'A page of history entries', schema: pageSchema(SearchHistoryEntrySchema, 'SearchHistoryPage') } },
    handler: async ({ query, principal, deps }) => {
      const page = await listOwnSearchHistory(deps, principal, { limit: query.limit, after: query.cursor });
      return {
        body: {
          items: page.rows.map((r) => ({ id: r.id, query: r.query, types: r.types, filters: r.filters, result_count: r.result_count, searched_at: r.searched_at.toISOString() })),
          next_cursor: encodeCursor(page.next),
        },
      };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'delete',
    path: '/reviews/search/history/{id}',
    summary: 'Delete one entry of the caller\'s own search history (404 for anyone else\'s)',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    request: { params: UuidParam },
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such entry in your history', schema: ErrorSchema } },
    handler: async ({ params, principal, deps }) => {
      await deleteOwnSearchHistoryEntry(deps, principal, params.id);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/reviews/search/history',
    summary: 'Clear the caller\'s own search history',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    responses: { 200: { description: 'How many entries were deleted', schema: SearchHistoryClearedSchema } },
    handler: async ({ principal, deps }) => ({ body: { deleted: await clearOwnSearchHistory(deps, principal) } }),
  }),
];
