// Intelligence search: the query (POST /reviews/search/query and the legacy GET
// /reviews/search, one engine), the field registry, and the caller's own history. Literal
// /reviews/search/... paths win over /reviews/{id} (api/register-routes.ts, exclusive specificity).
import { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import { clearSearchHistory, deleteSearchHistoryEntry, listSearchHistory } from '../../../db/repositories/search/search-history-repository';
import type { Principal, Role } from '../../../domain/accounts/roles';
import { operatorsOf, SEARCH_FIELDS, SEARCH_RECORD_TYPES, type SearchRecordType } from '../../../domain/search/search-fields';
import { decodeSearchCursor, runSearch, SearchQueryError, type SearchPageCursor } from '../../../services/search/search-service';
import type { AppDeps } from '../../app-deps';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors';
import { cursorParam, encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import {
  FiltersSchema,
  QueryTextSchema,
  SearchHistoryEntrySchema,
  SearchRecordTypeSchema,
  SearchResultSchema,
  SearchSchemaSchema,
  SearchSortSchema,
} from './search-schemas';

/** Who may search: researchers get aggregates only (counts per record type, no records). */
export const SEARCH_ROLES = ['admin', 'analyst', 'reviewer', 'researcher'] as const;

const QueryBody = z
  .object({
    query: QueryTextSchema,
    types: z.array(SearchRecordTypeSchema).max(SEARCH_RECORD_TYPES.length).optional().describe('record types to search (default: all)'),
    filters: FiltersSchema.optional(),
    sort: SearchSortSchema.default('relevance'),
    limit: z.number().int().min(1).max(500).default(50),
    cursor: z.string().max(1000).optional().describe('next_cursor of the previous page (same query)'),
  })
  .strict();

const LegacyQuery = z.object({
  q: QueryTextSchema.default(''),
  type: z
    .string()
    .max(200)
    .optional()
    .describe('a record type or a comma list (case, intake, investigation, entity, wallet, indicator)')
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const types = v.split(',').map((t) => t.trim());
      const bad = types.find((t) => !(SEARCH_RECORD_TYPES as readonly string[]).includes(t));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `unknown record type "${bad}"; one of ${SEARCH_RECORD_TYPES.join(', ')}` });
        return z.NEVER;
      }
      return types as SearchRecordType[];
    }),
  limit: pageQueryShape.limit,
  cursor: cursorParam(decodeSearchCursor),
});

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

function caller(principal: Principal | null): { name: string; roles: Role[] } {
  if (!principal || principal.kind !== 'user') throw new ForbiddenError('search is for people');
  return { name: principal.email, roles: principal.roles };
}

async function search(deps: AppDeps, principal: Principal | null, req: Parameters<typeof runSearch>[2]) {
  try {
    return await runSearch(deps.knex, caller(principal), req);
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
    handler: async ({ body, principal, deps }) => {
      let cursor: SearchPageCursor | undefined;
      if (body.cursor !== undefined && body.cursor !== '') {
        cursor = decodeSearchCursor(body.cursor) ?? undefined;
        if (!cursor) throw new BadRequestError('validation_failed', 'body.cursor: not a cursor from this API', [{ path: 'body.cursor', message: 'not a cursor from this API' }]);
      }
      const result = await search(deps, principal, { query: body.query, types: body.types, filters: body.filters, sort: body.sort, limit: body.limit, cursor });
      return { body: result };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof LegacyQuery>>({
    method: 'get',
    path: '/reviews/search',
    summary: 'Legacy search form: q (the same query language), type, limit, cursor; the same engine and answer as POST /reviews/search/query',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    request: { query: LegacyQuery },
    responses: { 200: { description: 'A page of results', schema: SearchResultSchema }, ...queryErrors },
    handler: async ({ query, principal, deps }) => ({ body: await search(deps, principal, { query: query.q, types: query.type, limit: query.limit, cursor: query.cursor }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/reviews/search/schema',
    summary: 'The search field registry: fields, types, operators, record types, examples, and the syntax',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    responses: { 200: { description: 'The registry', schema: SearchSchemaSchema } },
    handler: async () => ({
      body: {
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
      },
    }),
  }),
  defineRoute<Record<string, never>, { limit: number; cursor?: Keyset }>({
    method: 'get',
    path: '/reviews/search/history',
    summary: 'The caller\'s own recent searches (first pages), newest first, with time and result count',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    request: { query: z.object(pageQueryShape) },
    responses: { 200: { description: 'A page of history entries', schema: pageSchema(SearchHistoryEntrySchema, 'SearchHistoryPage') } },
    handler: async ({ query, principal, deps }) => {
      const page = await listSearchHistory(deps.knex, caller(principal).name, { limit: query.limit, after: query.cursor });
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
      if (!(await deleteSearchHistoryEntry(deps.knex, caller(principal).name, params.id))) throw new NotFoundError(`no entry ${params.id} in your search history`);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/reviews/search/history',
    summary: 'Clear the caller\'s own search history',
    tags: ['search'],
    access: { roles: SEARCH_ROLES },
    responses: { 200: { description: 'How many entries were deleted', schema: z.object({ deleted: z.number().int() }) } },
    handler: async ({ principal, deps }) => ({ body: { deleted: await clearSearchHistory(deps.knex, caller(principal).name) } }),
  }),
];
