// Saved searches: create, list (what the caller can see), read, change (owners and editors),
// delete (owners), share (owners; users or roles as viewer or editor), export as a versioned
// JSON document, import many such documents, bulk tags, and tag presets.
// Access rules: domain/search/saved-search-access.ts; the use cases: services/search/saved-search-service.ts.
import type { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import {
  bulkTag,
  createSavedSearch,
  deleteSavedSearch,
  exportSavedSearch,
  getSavedSearch,
  importSavedSearches,
  listSavedSearches,
  shareSavedSearch,
  tagPresets,
  updateSavedSearch,
} from '../../../services/search/saved-search-service';
import { searchPresets } from '../../../domain/search/search-presets';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import {
  BulkTagsRequestSchema,
  BulkTagsResultSchema,
  ImportRequestSchema,
  ImportResultSchema,
  SAVED_SEARCH_FORMAT,
  SAVED_SEARCH_FORMAT_VERSION,
  SavedSearchDocumentSchema,
  SavedSearchInputSchema,
  SavedSearchListQuery,
  SavedSearchPatchSchema,
  SavedSearchSchema,
  savedSearchView,
  ShareRequestSchema,
  SearchPresetsSchema,
  TagPresetsSchema,
} from './search-schemas';

export const SAVED_SEARCH_ROLES = ['admin', 'analyst', 'reviewer'] as const;

const notFound = { 404: { description: 'No such saved search (or not visible to you)', schema: ErrorSchema } };

export const savedSearchRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof SavedSearchInputSchema>>({
    method: 'post',
    path: '/reviews/search/saved',
    summary: 'Save a search (the query and filters must be valid); names are unique per owner',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { body: SavedSearchInputSchema },
    responses: {
      201: { description: 'The saved search', schema: SavedSearchSchema },
      409: { description: 'You already have a saved search of that name', schema: ErrorSchema },
    },
    handler: async ({ body, principal, deps }) => {
      const { search, access } = await createSavedSearch(deps, principal, body);
      return { status: 201, body: savedSearchView(search, access) };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof SavedSearchListQuery> & { cursor?: Keyset }>({
    method: 'get',
    path: '/reviews/search/saved',
    summary: 'Saved searches the caller can see (own, shared with them or their roles, public; admins: all), newest first',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { query: SavedSearchListQuery },
    responses: { 200: { description: 'A page of saved searches', schema: pageSchema(SavedSearchSchema, 'SavedSearchPage') } },
    handler: async ({ query, principal, deps }) => {
      const page = await listSavedSearches(deps, principal, { tag: query.tag, owner: query.owner, limit: query.limit, after: query.cursor });
      return { body: { items: page.rows.map((r) => savedSearchView(r.search, r.access)), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path: '/reviews/search/saved/{id}',
    summary: 'One saved search (shares listed for its owner)',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { params: UuidParam },
    responses: { 200: { description: 'The saved search', schema: SavedSearchSchema }, ...notFound },
    handler: async ({ params, principal, deps }) => {
      const { search, access } = await getSavedSearch(deps, principal, params.id);
      return { body: savedSearchView(search, access) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof SavedSearchPatchSchema>>({
    method: 'patch',
    path: '/reviews/search/saved/{id}',
    summary: 'Change a saved search (owners and editors; visibility: owners only)',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { params: UuidParam, body: SavedSearchPatchSchema },
    responses: {
      200: { description: 'The saved search', schema: SavedSearchSchema },
      403: { description: 'You may view but not change it (or change visibility without owning it)', schema: ErrorSchema },
      409: { description: 'The owner already has a saved search of that name', schema: ErrorSchema },
      ...notFound,
    },
    handler: async ({ params, body, principal, deps }) => {
      const { search, access } = await updateSavedSearch(deps, principal, params.id, body);
      return { body: savedSearchView(search, access) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'delete',
    path: '/reviews/search/saved/{id}',
    summary: 'Delete a saved search (owner only)',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { params: UuidParam },
    responses: { 204: { description: 'Deleted' }, 403: { description: 'Not the owner', schema: ErrorSchema }, ...notFound },
    handler: async ({ params, principal, deps }) => {
      await deleteSavedSearch(deps, principal, params.id);
      return { status: 204 };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof ShareRequestSchema>>({
    method: 'post',
    path: '/reviews/search/saved/{id}/share',
    summary: 'Share with users or roles as viewer or editor, or revoke shares (owner only)',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { params: UuidParam, body: ShareRequestSchema },
    responses: { 200: { description: 'The saved search with its shares', schema: SavedSearchSchema }, 403: { description: 'Not the owner', schema: ErrorSchema }, ...notFound },
    handler: async ({ params, body, principal, deps }) => {
      const { search, access } = await shareSavedSearch(deps, principal, params.id, body.grant, body.revoke);
      return { body: savedSearchView(search, access) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path: '/reviews/search/saved/{id}/export',
    summary: 'Export a saved search as a versioned JSON document ({"format": "fip-saved-search", "version": 1, ...}) for POST /reviews/search/saved/import elsewhere',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { params: UuidParam },
    responses: { 200: { description: 'The export document', schema: SavedSearchDocumentSchema }, ...notFound },
    handler: async ({ params, principal, deps, ctx }) => {
      const { search, exportedBy } = await exportSavedSearch(deps, principal, params.id);
      const safe = search.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'saved-search';
      ctx.set('Content-Disposition', `attachment; filename="${safe}.fip-search.json"`);
      return {
        body: {
          format: SAVED_SEARCH_FORMAT,
          version: SAVED_SEARCH_FORMAT_VERSION,
          exported_at: new Date().toISOString(),
          exported_by: exportedBy,
          saved_search: { name: search.name, query: search.query, types: search.types, filters: search.filters, sort: search.sort, tags: search.tags },
        },
      };
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof ImportRequestSchema>>({
    method: 'post',
    path: '/reviews/search/saved/import',
    summary: 'Import export documents (each validated on its own): created, renamed on a name clash ("name (2)"), or rejected with the reasons; atomic: true writes all or none',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { body: ImportRequestSchema },
    responses: { 200: { description: 'One result per document, in order', schema: ImportResultSchema }, 400: { description: 'atomic: some document is invalid, nothing was written (details name each problem)', schema: ErrorSchema }, 409: { description: 'atomic: a name was taken meanwhile, nothing was written', schema: ErrorSchema } },
    handler: async ({ body, principal, deps }) => {
      const results = await importSavedSearches(deps, principal, body.documents, SavedSearchDocumentSchema, { atomic: body.atomic });
      const count = (s: string) => results.filter((r) => r.status === s).length;
      return { body: { results, created: count('created'), renamed: count('renamed'), rejected: count('rejected') } };
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof BulkTagsRequestSchema>>({
    method: 'post',
    path: '/reviews/search/saved/bulk-tags',
    summary: 'Add and remove tags on many saved searches; only those the caller may edit change, the answer lists the skipped ones',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { body: BulkTagsRequestSchema },
    responses: { 200: { description: 'Updated and skipped ids', schema: BulkTagsResultSchema } },
    handler: async ({ body, principal, deps }) => ({ body: await bulkTag(deps, principal, body.ids, body.add, body.remove) }),
  }),
  defineRoute({
    method: 'get',
    path: '/reviews/search/presets',
    summary: 'Built-in one-click searches shipped with the platform (domain/search/search-presets.ts), their relative dates resolved now',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    responses: { 200: { description: 'The presets', schema: SearchPresetsSchema } },
    handler: async () => ({ body: { items: searchPresets(new Date()) } }),
  }),
  defineRoute({
    method: 'get',
    path: '/reviews/search/tag-presets',
    summary: 'Tag presets (SVC_SEARCH__TAG_PRESETS) and the tags in use on the saved searches the caller can see, with counts',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    responses: { 200: { description: 'Presets and tags in use', schema: TagPresetsSchema } },
    handler: async ({ principal, deps }) => ({ body: await tagPresets(deps, principal) }),
  }),
];
