// Saved searches: create, list (what the caller can see), read, change (owners and editors),
// delete (owners), share (owners; users or roles as viewer or editor), export as a versioned
// JSON document, import many such documents, bulk tags, and tag presets.
// Access rules: domain/search/saved-search-access.ts.
import { z } from 'zod';
import type { Keyset } from '../../../domain/keyset';
import { recordAuditEvent } from '../../../db/repositories/audit/audit-event-repository';
import { createSavedSearch, deleteSavedSearch, listSavedSearches, savedSearchesByIds, shareSavedSearch, tagCounts, updateSavedSearch, type Caller } from '../../../db/repositories/search/saved-search-repository';
import type { Principal } from '../../../domain/accounts/roles';
import { canEdit, savedSearchAccess } from '../../../domain/search/saved-search-access';
import { bulkTag, importSavedSearches, normalizeFilters, savedQueryProblems, savedSearchFor } from '../../../services/search/saved-search-service';
import type { AppDeps } from '../../app-deps';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import { encodeCursor, pageQueryShape, pageSchema } from '../../pagination';
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
  SavedSearchPatchSchema,
  SavedSearchSchema,
  savedSearchView,
  ShareRequestSchema,
  TagPresetsSchema,
} from './search-schemas';

export const SAVED_SEARCH_ROLES = ['admin', 'analyst', 'reviewer'] as const;

function caller(principal: Principal | null): Caller {
  if (!principal || principal.kind !== 'user') throw new ForbiddenError('saved searches belong to people');
  return { email: principal.email, roles: principal.roles };
}

async function visible(deps: AppDeps, id: string, c: Caller) {
  const found = await savedSearchFor(deps.knex, id, c);
  if (!found) throw new NotFoundError(`no saved search ${id}`);
  return found;
}

function checkQuery(query: string, filters: Record<string, string | string[]>) {
  const problems = savedQueryProblems(query, filters, 'body.');
  if (problems.length > 0) throw new ValidationError(`${problems[0].path}: ${problems[0].message}`, problems);
}

const ListQuery = z.object({
  tag: z.string().max(50).optional().describe('only searches with this tag'),
  owner: z.string().max(320).optional().describe('only searches of this owner'),
  ...pageQueryShape,
});

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
      const c = caller(principal);
      checkQuery(body.query, body.filters);
      const row = await createSavedSearch(deps.knex, { owner: c.email, name: body.name, query: body.query, types: [...new Set(body.types)], filters: normalizeFilters(body.filters), sort: body.sort, tags: [...new Set(body.tags)].sort(), visibility: body.visibility });
      if (!row) throw new ConflictError(`you already have a saved search named "${body.name}"`);
      return { status: 201, body: savedSearchView({ ...row, shares: [] }, 'owner') };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof ListQuery> & { cursor?: Keyset }>({
    method: 'get',
    path: '/reviews/search/saved',
    summary: 'Saved searches the caller can see (own, shared with them or their roles, public; admins: all), newest first',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { query: ListQuery },
    responses: { 200: { description: 'A page of saved searches', schema: pageSchema(SavedSearchSchema, 'SavedSearchPage') } },
    handler: async ({ query, principal, deps }) => {
      const c = caller(principal);
      const page = await listSavedSearches(deps.knex, c, { tag: query.tag, owner: query.owner, limit: query.limit, after: query.cursor });
      const withShares = new Map((await savedSearchesByIds(deps.knex, page.rows.map((r) => r.id))).map((r) => [r.id, r]));
      const items = page.rows.map((r) => {
        const full = withShares.get(r.id) ?? { ...r, shares: [] };
        return savedSearchView(full, savedSearchAccess(full, full.shares, c) ?? 'viewer');
      });
      return { body: { items, next_cursor: encodeCursor(page.next) } };
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
      const { search, access } = await visible(deps, params.id, caller(principal));
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
      const c = caller(principal);
      const { search, access } = await visible(deps, params.id, c);
      if (!canEdit(access)) throw new ForbiddenError('only the owner and editors change a saved search');
      if (body.visibility !== undefined && access !== 'owner') throw new ForbiddenError('only the owner changes the visibility');
      checkQuery(body.query ?? search.query, body.filters ?? search.filters);
      const { filters, ...rest } = body;
      const result = await updateSavedSearch(deps.knex, params.id, {
        ...rest,
        ...(filters ? { filters: normalizeFilters(filters) } : {}),
        ...(body.tags ? { tags: [...new Set(body.tags)].sort() } : {}),
        ...(body.types ? { types: [...new Set(body.types)] } : {}),
      });
      if (result === 'conflict') throw new ConflictError(`the owner already has a saved search named "${body.name}"`);
      if (!result) throw new NotFoundError(`no saved search ${params.id}`);
      return { body: savedSearchView({ ...result, shares: search.shares }, access) };
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
      const { access } = await visible(deps, params.id, caller(principal));
      if (access !== 'owner') throw new ForbiddenError('only the owner deletes a saved search');
      await deleteSavedSearch(deps.knex, params.id);
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
      const c = caller(principal);
      const { access } = await visible(deps, params.id, c);
      if (access !== 'owner') throw new ForbiddenError('only the owner shares a saved search');
      const grantee = (g: { user: string } | { role: string }) => ('user' in g ? { grantee_kind: 'user' as const, grantee: g.user } : { grantee_kind: 'role' as const, grantee: g.role });
      await shareSavedSearch(deps.knex, params.id, body.grant.map((g) => ({ ...grantee(g), permission: g.permission })), body.revoke.map(grantee), c.email);
      const { search } = await visible(deps, params.id, c);
      return { body: savedSearchView(search, 'owner') };
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
      const c = caller(principal);
      const { search } = await visible(deps, params.id, c);
      await recordAuditEvent(deps.knex, { actor: c.email, action: 'saved_search.export', target_type: 'saved_search', target_id: search.id, details: { name: search.name } });
      const safe = search.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'saved-search';
      ctx.set('Content-Disposition', `attachment; filename="${safe}.fip-search.json"`);
      return {
        body: {
          format: SAVED_SEARCH_FORMAT,
          version: SAVED_SEARCH_FORMAT_VERSION,
          exported_at: new Date().toISOString(),
          exported_by: c.email,
          saved_search: { name: search.name, query: search.query, types: search.types, filters: search.filters, sort: search.sort, tags: search.tags },
        },
      };
    },
  }),
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof ImportRequestSchema>>({
    method: 'post',
    path: '/reviews/search/saved/import',
    summary: 'Import export documents (each validated on its own): created, renamed on a name clash ("name (2)"), or rejected with the reasons',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    request: { body: ImportRequestSchema },
    responses: { 200: { description: 'One result per document, in order', schema: ImportResultSchema } },
    handler: async ({ body, principal, deps }) => {
      const c = caller(principal);
      const results = await importSavedSearches(deps.knex, c.email, body.documents, SavedSearchDocumentSchema);
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
    handler: async ({ body, principal, deps }) => ({ body: await bulkTag(deps.knex, caller(principal), body.ids, body.add, body.remove) }),
  }),
  defineRoute({
    method: 'get',
    path: '/reviews/search/tag-presets',
    summary: 'Tag presets (SVC_SEARCH__TAG_PRESETS) and the tags in use on the saved searches the caller can see, with counts',
    tags: ['search'],
    access: { roles: SAVED_SEARCH_ROLES },
    responses: { 200: { description: 'Presets and tags in use', schema: TagPresetsSchema } },
    handler: async ({ principal, deps }) => ({ body: { presets: deps.config.search.tag_presets, in_use: await tagCounts(deps.knex, caller(principal)) } }),
  }),
];
