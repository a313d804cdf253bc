// Saved-search use cases beyond one row: the caller's access to a search, import of export
// documents (each validated on its own; a name clash renames), bulk tagging (only what the caller
// may edit; the rest is reported as skipped).
import type { Knex } from 'knex';
import type { z } from 'zod';
import {
  changeTags,
  createSavedSearch,
  findSavedSearch,
  savedSearchesByIds,
  savedSearchNames,
  type Caller,
  type SavedSearchWithShares,
} from '../../db/repositories/search/saved-search-repository';
import { canEdit, freeName, savedSearchAccess, type SavedSearchAccess } from '../../domain/search/saved-search-access';
import { buildSearchExpr, SearchQueryError } from './search-service';

export async function savedSearchFor(knex: Knex, id: string, caller: Caller): Promise<{ search: SavedSearchWithShares; access: Exclude<SavedSearchAccess, null> } | null> {
  const search = await findSavedSearch(knex, id);
  if (!search) return null;
  const access = savedSearchAccess(search, search.shares, caller);
  return access ? { search, access } : null;
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

export interface ImportOutcome {
  index: number;
  status: 'created' | 'renamed' | 'rejected';
  id?: string;
  name?: string;
  original_name?: string;
  errors?: Array<{ path: string; message: string }>;
}

export async function importSavedSearches(
  knex: Knex,
  owner: string,
  documents: readonly unknown[],
  schema: z.ZodType<{ saved_search: { name: string; query: string; types: string[]; filters: Record<string, string | string[]>; sort: string; tags: string[] } }>,
): Promise<ImportOutcome[]> {
  const taken = await savedSearchNames(knex, owner);
  const results: ImportOutcome[] = [];
  for (const [index, doc] of documents.entries()) {
    const parsed = schema.safeParse(doc);
    if (!parsed.success) {
      results.push({ index, status: 'rejected', errors: parsed.error.issues.map((i) => ({ path: [`documents[${index}]`, ...i.path.map(String)].join('.'), message: i.message })) });
      continue;
    }
    const s = parsed.data.saved_search;
    const problems = savedQueryProblems(s.query, s.filters, `documents[${index}].saved_search.`);
    if (problems.length > 0) {
      results.push({ index, status: 'rejected', original_name: s.name, errors: problems });
      continue;
    }
    // A concurrent create can take the name between the check and the insert: try the next free one.
    for (let attempt = 0; attempt < 5; attempt++) {
      const name = freeName(s.name, taken);
      const row = await createSavedSearch(knex, { owner, name, query: s.query, types: s.types, filters: normalizeFilters(s.filters), sort: s.sort, tags: [...new Set(s.tags)].sort(), visibility: 'private' });
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
  knex: Knex,
  caller: Caller,
  ids: readonly string[],
  add: readonly string[],
  remove: readonly string[],
): Promise<{ updated: string[]; skipped: Array<{ id: string; reason: 'not_found' | 'not_editable' }> }> {
  const unique = [...new Set(ids)];
  const found = new Map((await savedSearchesByIds(knex, unique)).map((s) => [s.id, s]));
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
  await changeTags(knex, updated, add, remove);
  return { updated, skipped };
}
