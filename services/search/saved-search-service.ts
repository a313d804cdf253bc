// Saved-search use cases (the API's /reviews/search/saved* and /reviews/search/tag-presets). Saved
// searches belong to people (403 for a service caller); what a caller may do with one is
// domain/search/saved-search-access.ts, and a search the caller cannot see is a 404.
// - createSavedSearch: save a query that runs, under a name unique per owner (422, 409)
// - listSavedSearches: the searches the caller can see, newest first, each with the caller's access
// - getSavedSearch: one search with the caller's access (404)
// - updateSavedSearch: change a search: owners and editors; visibility owners only (403, 404, 409, 422)
// - deleteSavedSearch: owners only (403, 404)
// - shareSavedSearch: grant users or roles viewer or editor, or revoke them: owners only (403, 404)
// - exportSavedSearch: a search to export, with its saved_search.export audit event (404)
// - importSavedSearches: export documents, each validated on its own; a name clash renames
// - bulkTag: tags added and removed on the searches the caller may edit; the rest reported as skipped
// - tagPresets: the configured presets and the tags in use on the searches the caller can see
// A saved search answers through the caller's masking policy (domain/masking/masking-policy.ts): a
// bank detail in its name, query or filters is masked for every caller but an analyst.
import type { Knex } from 'knex';
import type { z } from 'zod';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { maskingFor } from '../../domain/masking/masking-policy';
import {
  changeTags,
  createSavedSearch as insertSavedSearch,
  deleteSavedSearch as deleteSavedSearchRow,
  findSavedSearch,
  listSavedSearches as listSavedSearchRows,
  savedSearchesByIds,
  savedSearchNames,
  shareSavedSearch as writeShares,
  tagCounts,
  updateSavedSearch as updateSavedSearchRow,
  type Caller,
  type SavedSearchWithShares,
} from '../../db/repositories/search/saved-search-repository';
import type { Principal } from '../../domain/accounts/roles';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { canEdit, freeName, savedSearchAccess, type SavedSearchAccess, type SavedSearchVisibility, type SharePermission } from '../../domain/search/saved-search-access';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { buildSearchExpr, SearchQueryError } from './search-service';

export type { SavedSearchRow, SavedSearchWithShares } from '../../db/repositories/search/saved-search-repository';

/** A saved search as one caller sees it. */
export interface VisibleSavedSearch {
  search: SavedSearchWithShares;
  access: Exclude<SavedSearchAccess, null>;
}

export interface SavedSearchInput {
  name: string;
  query: string;
  types: string[];
  filters: Record<string, string | string[]>;
  sort: string;
  tags: string[];
  visibility: SavedSearchVisibility;
}

export type SavedSearchChange = Partial<Omit<SavedSearchInput, 'filters'>> & { filters?: Record<string, string | string[]> };

type Grantee = { user: string } | { role: string };

/** A saved search as the caller may read it (the stored one is unchanged). */
function masked<T extends { search: SavedSearchWithShares }>(v: T, c: Caller): T {
  const policy = maskingFor(c.roles);
  if (policy.sees('bank_account')) return v;
  return { ...v, search: { ...v.search, name: policy.text(v.search.name), query: policy.text(v.search.query), filters: policy.json(v.search.filters) } };
}

function savedSearchCaller(principal: Principal | null): Caller {
  if (!principal || principal.kind !== 'user') throw new ForbiddenError('saved searches belong to people');
  return { email: principal.email, roles: principal.roles };
}

export async function savedSearchFor(knex: Knex, id: string, caller: Caller): Promise<VisibleSavedSearch | null> {
  const search = await findSavedSearch(knex, id);
  if (!search) return null;
  const access = savedSearchAccess(search, search.shares, caller);
  return access ? { search, access } : null;
}

async function visible(knex: Knex, id: string, c: Caller): Promise<VisibleSavedSearch> {
  const found = await savedSearchFor(knex, id, c);
  if (!found) throw new NotFoundError(`no saved search ${id}`);
  return found;
}

/** Filters as stored: every value a list. */
export function normalizeFilters(filters: Record<string, string | string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
}

/** Problems of a saved query (syntax, fields, values), as {path, message}; empty when it runs. */
export function savedQueryProblems(query: string, filters: Record<string, string | string[]>, pathPrefix = ''): Array<{ path: string; message: string }> {
  try {
    buildSearchExpr(query, filters);
    return [];
  } catch (err) {
    if (err instanceof SearchQueryError) return err.problems.map((p) => ({ path: `${pathPrefix}${p.path}`, message: p.message }));
    throw err;
  }
}

function checkQuery(query: string, filters: Record<string, string | string[]>) {
  const problems = savedQueryProblems(query, filters, 'body.');
  if (problems.length > 0) throw new ValidationError(`${problems[0].path}: ${problems[0].message}`, problems);
}

export async function createSavedSearch(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, input: SavedSearchInput): Promise<VisibleSavedSearch> {
  const c = savedSearchCaller(principal);
  checkQuery(input.query, input.filters);
  const row = await insertSavedSearch(deps.knex, {
    owner: c.email,
    name: input.name,
    query: input.query,
    types: [...new Set(input.types)],
    filters: normalizeFilters(input.filters),
    sort: input.sort,
    tags: [...new Set(input.tags)].sort(),
    visibility: input.visibility,
  });
  if (!row) throw new ConflictError(`you already have a saved search named "${input.name}"`);
  return masked({ search: { ...row, shares: [] }, access: 'owner' as const }, c);
}

export async function listSavedSearches(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  q: { tag?: string; owner?: string; limit: number; after?: Keyset },
): Promise<KeysetPage<VisibleSavedSearch>> {
  const c = savedSearchCaller(principal);
  const page = await listSavedSearchRows(deps.knex, c, q);
  const withShares = new Map((await savedSearchesByIds(deps.knex, page.rows.map((r) => r.id))).map((r) => [r.id, r]));
  const rows = page.rows.map((r) => {
    const full = withShares.get(r.id) ?? { ...r, shares: [] };
    return masked({ search: full, access: savedSearchAccess(full, full.shares, c) ?? 'viewer' }, c);
  });
  return { rows, next: page.next };
}

export async function getSavedSearch(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string): Promise<VisibleSavedSearch> {
  const c = savedSearchCaller(principal);
  return masked(await visible(deps.knex, id, c), c);
}

export async function updateSavedSearch(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string, change: SavedSearchChange): Promise<VisibleSavedSearch> {
  const c = savedSearchCaller(principal);
  const { search, access } = await visible(deps.knex, id, c);
  if (!canEdit(access)) throw new ForbiddenError('only the owner and editors change a saved search');
  if (change.visibility !== undefined && access !== 'owner') throw new ForbiddenError('only the owner changes the visibility');
  checkQuery(change.query ?? search.query, change.filters ?? search.filters);
  const { filters, ...rest } = change;
  const result = await updateSavedSearchRow(deps.knex, id, {
    ...rest,
    ...(filters ? { filters: normalizeFilters(filters) } : {}),
    ...(change.tags ? { tags: [...new Set(change.tags)].sort() } : {}),
    ...(change.types ? { types: [...new Set(change.types)] } : {}),
  });
  if (result === 'conflict') throw new ConflictError(`the owner already has a saved search named "${change.name}"`);
  if (!result) throw new NotFoundError(`no saved search ${id}`);
  return masked({ search: { ...result, shares: search.shares }, access }, c);
}

export async function deleteSavedSearch(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string): Promise<void> {
  const { access } = await visible(deps.knex, id, savedSearchCaller(principal));
  if (access !== 'owner') throw new ForbiddenError('only the owner deletes a saved search');
  await deleteSavedSearchRow(deps.knex, id);
}

export async function shareSavedSearch(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  id: string,
  grant: ReadonlyArray<Grantee & { permission: SharePermission }>,
  revoke: readonly Grantee[],
): Promise<VisibleSavedSearch> {
  const c = savedSearchCaller(principal);
  const { access } = await visible(deps.knex, id, c);
  if (access !== 'owner') throw new ForbiddenError('only the owner shares a saved search');
  const grantee = (g: Grantee) => ('user' in g ? { grantee_kind: 'user' as const, grantee: g.user } : { grantee_kind: 'role' as const, grantee: g.role });
  await writeShares(deps.knex, id, grant.map((g) => ({ ...grantee(g), permission: g.permission })), revoke.map(grantee), c.email);
  const { search } = await visible(deps.knex, id, c);
  return masked({ search, access: 'owner' as const }, c);
}

/** The search to export and who exports it; records the saved_search.export audit event. */
export async function exportSavedSearch(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string): Promise<{ search: SavedSearchWithShares; exportedBy: string }> {
  const c = savedSearchCaller(principal);
  const { search } = await visible(deps.knex, id, c);
  await recordAuditEvent(deps.knex, { actor: c.email, action: 'saved_search.export', target_type: 'saved_search', target_id: search.id, details: { name: search.name } });
  return masked({ search, exportedBy: c.email }, c);
}

export interface ImportOutcome {
  index: number;
  status: 'created' | 'renamed' | 'rejected';
  id?: string;
  name?: string;
  original_name?: string;
  errors?: Array<{ path: string; message: string }>;
}

type ImportedSearch = { name: string; query: string; types: string[]; filters: Record<string, string | string[]>; sort: string; tags: string[] };

/** Each document checked on its own: the saved search it holds, or why it is rejected. */
function checkImportDocuments(documents: readonly unknown[], schema: z.ZodType<{ saved_search: ImportedSearch }>): Array<{ index: number; search: ImportedSearch } | ImportOutcome> {
  return documents.map((doc, index) => {
    const parsed = schema.safeParse(doc);
    if (!parsed.success) {
      return { index, status: 'rejected' as const, errors: parsed.error.issues.map((i) => ({ path: [`documents[${index}]`, ...i.path.map(String)].join('.'), message: i.message })) };
    }
    const s = parsed.data.saved_search;
    const problems = savedQueryProblems(s.query, s.filters, `documents[${index}].saved_search.`);
    if (problems.length > 0) return { index, status: 'rejected' as const, original_name: s.name, errors: problems };
    return { index, search: s };
  });
}

/**
 * Creates the caller's saved searches from export documents, each validated by `schema` on its own.
 * Atomic: every document is checked first; one rejected document writes nothing (a ValidationError
 * whose details name every problem as body.documents.<index>...), else all are created in one
 * transaction. Otherwise the valid documents are created and the rest reported as rejected.
 */
export async function importSavedSearches(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  documents: readonly unknown[],
  schema: z.ZodType<{ saved_search: ImportedSearch }>,
  options: { atomic?: boolean } = {},
): Promise<ImportOutcome[]> {
  const owner = savedSearchCaller(principal).email;
  const checked = checkImportDocuments(documents, schema);
  if (options.atomic) {
    const problems = checked.flatMap((c) => ('errors' in c && c.errors ? c.errors : []));
    if (problems.length > 0) {
      const details = problems.map((p) => ({ path: `body.${p.path.replace(/^documents\[(\d+)\]/, 'documents.$1')}`, message: p.message }));
      const bad = checked.filter((c) => 'status' in c).length;
      throw new ValidationError(`${bad} of ${documents.length} documents cannot be imported, so none was: ${details[0].path}: ${details[0].message}`, details);
    }
    return deps.knex.transaction(async (trx) => {
      const taken = await savedSearchNames(trx, owner);
      const results: ImportOutcome[] = [];
      for (const c of checked) {
        if (!('search' in c)) continue;
        const s = c.search;
        const name = freeName(s.name, taken);
        const row = await insertSavedSearch(trx, { owner, name, query: s.query, types: s.types, filters: normalizeFilters(s.filters), sort: s.sort, tags: [...new Set(s.tags)].sort(), visibility: 'private' });
        // A name taken concurrently aborts the transaction: nothing is written, the caller retries.
        if (!row) throw new ConflictError(`the name "${name}" was taken while importing; nothing was imported, try again`);
        taken.add(name);
        results.push(name === s.name ? { index: c.index, status: 'created', id: row.id, name } : { index: c.index, status: 'renamed', id: row.id, name, original_name: s.name });
      }
      await recordAuditEvent(trx, { actor: owner, action: 'saved_search.import', target_type: 'saved_search', target_id: results[0]?.id ?? owner, details: { count: results.length, ids: results.map((r) => r.id) } });
      return results;
    });
  }
  const { knex } = deps;
  const taken = await savedSearchNames(knex, owner);
  const results: ImportOutcome[] = [];
  for (const c of checked) {
    if (!('search' in c)) {
      results.push(c);
      continue;
    }
    const { index, search: s } = c;
    // A concurrent create can take the name between the check and the insert: try the next free one.
    for (let attempt = 0; attempt < 5; attempt++) {
      const name = freeName(s.name, taken);
      const row = await insertSavedSearch(knex, { owner, name, query: s.query, types: s.types, filters: normalizeFilters(s.filters), sort: s.sort, tags: [...new Set(s.tags)].sort(), visibility: 'private' });
      taken.add(name);
      if (row) {
        results.push(name === s.name ? { index, status: 'created', id: row.id, name } : { index, status: 'renamed', id: row.id, name, original_name: s.name });
        break;
      }
    }
  }
  return results;
}

export async function bulkTag(
  deps: Pick<ServiceDeps, 'knex'>,
  principal: Principal | null,
  ids: readonly string[],
  add: readonly string[],
  remove: readonly string[],
): Promise<{ updated: string[]; skipped: Array<{ id: string; reason: 'not_found' | 'not_editable' }> }> {
  const caller = savedSearchCaller(principal);
  const unique = [...new Set(ids)];
  const found = new Map((await savedSearchesByIds(deps.knex, unique)).map((s) => [s.id, s]));
  const updated: string[] = [];
  const skipped: Array<{ id: string; reason: 'not_found' | 'not_editable' }> = [];
  for (const id of unique) {
    const s = found.get(id);
    const access = s ? savedSearchAccess(s, s.shares, caller) : null;
    // A search the caller cannot even see is "not_found", as for GET.
    if (!s || !access) skipped.push({ id, reason: 'not_found' });
    else if (!canEdit(access)) skipped.push({ id, reason: 'not_editable' });
    else updated.push(id);
  }
  await changeTags(deps.knex, updated, add, remove);
  return { updated, skipped };
}

export async function tagPresets(deps: Pick<ServiceDeps, 'knex' | 'config'>, principal: Principal | null): Promise<{ presets: string[]; in_use: Array<{ tag: string; count: number }> }> {
  return { presets: deps.config.search.tag_presets, in_use: await tagCounts(deps.knex, savedSearchCaller(principal)) };
}
