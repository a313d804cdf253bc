// Saved searches and their shares. Visibility in SQL mirrors domain/search/saved-search-access.ts:
// the owner, anyone for public searches, users and roles it is shared with, and admins.
import type { Knex } from 'knex';
import type { Role } from '../../../domain/accounts/roles';
import type { SavedSearchShare, SavedSearchVisibility, SharePermission } from '../../../domain/search/saved-search-access';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface SavedSearchRow {
  id: string;
  owner: string;
  name: string;
  query: string;
  types: string[];
  filters: Record<string, string[]>;
  sort: string;
  tags: string[];
  visibility: SavedSearchVisibility;
  created_at: Date;
  updated_at: Date;
}

export interface SavedSearchWithShares extends SavedSearchRow {
  shares: Array<SavedSearchShare & { shared_by: string; shared_at: Date }>;
}

export type NewSavedSearch = Pick<SavedSearchRow, 'owner' | 'name' | 'query' | 'types' | 'filters' | 'sort' | 'tags' | 'visibility'>;

const COLUMNS = ['id', 'owner', 'name', 'query', 'types', 'filters', 'sort', 'tags', 'visibility', 'created_at', 'updated_at'];

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/** Creates a saved search; null when the owner already has one of that name (case-insensitive). */
export async function createSavedSearch(knex: Knex, s: NewSavedSearch): Promise<SavedSearchRow | null> {
  try {
    const [row] = await knex('saved_searches').insert({ ...s, filters: JSON.stringify(s.filters) }).returning(COLUMNS);
    return row as SavedSearchRow;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export async function findSavedSearch(knex: Knex, id: string): Promise<SavedSearchWithShares | null> {
  const row = (await knex('saved_searches').select(COLUMNS).where({ id }).first()) as SavedSearchRow | undefined;
  if (!row) return null;
  const shares = await knex('saved_search_shares').select('grantee_kind', 'grantee', 'permission', 'shared_by', 'shared_at').where({ saved_search_id: id }).orderBy(['grantee_kind', 'grantee']);
  return { ...row, shares };
}

export interface Caller {
  email: string;
  roles: readonly Role[];
}

function visibleTo(knex: Knex, q: Knex.QueryBuilder, caller: Caller): Knex.QueryBuilder {
  if (caller.roles.includes('admin')) return q;
  return q.where((w) => {
    w.where('s.owner', caller.email)
      .orWhere('s.visibility', 'public')
      .orWhereExists(
        knex('saved_search_shares as sh')
          .whereRaw('sh.saved_search_id = s.id')
          .where((g) => g.where({ 'sh.grantee_kind': 'user', 'sh.grantee': caller.email }).orWhere((r) => r.where('sh.grantee_kind', 'role').whereIn('sh.grantee', [...caller.roles]))),
      );
  });
}

export async function listSavedSearches(
  knex: Knex,
  caller: Caller,
  f: { tag?: string; owner?: string; limit: number; after?: Keyset },
): Promise<KeysetPage<SavedSearchRow>> {
  let q = knex('saved_searches as s').select(COLUMNS.map((c) => `s.${c}`));
  q = visibleTo(knex, q, caller);
  if (f.tag) q.whereRaw('? = ANY(s.tags)', [f.tag]);
  if (f.owner) q.where('s.owner', f.owner);
  return keysetPage<SavedSearchRow>(knex, q, { tsColumn: 's.created_at', idColumn: 's.id', limit: f.limit, after: f.after });
}

export type SavedSearchPatch = Partial<Pick<SavedSearchRow, 'name' | 'query' | 'types' | 'filters' | 'sort' | 'tags' | 'visibility'>>;

/** 'conflict' when the new name is taken by another of the owner's searches. */
export async function updateSavedSearch(knex: Knex, id: string, patch: SavedSearchPatch): Promise<SavedSearchRow | 'conflict' | null> {
  const changes: Record<string, unknown> = { ...patch, updated_at: knex.fn.now() };
  if (patch.filters) changes.filters = JSON.stringify(patch.filters);
  try {
    const [row] = await knex('saved_searches').where({ id }).update(changes).returning(COLUMNS);
    return (row as SavedSearchRow | undefined) ?? null;
  } catch (err) {
    if (isUniqueViolation(err)) return 'conflict';
    throw err;
  }
}

export async function deleteSavedSearch(knex: Knex, id: string): Promise<boolean> {
  return (await knex('saved_searches').where({ id }).delete()) > 0;
}

/** Adds or changes shares (one per grantee); `remove` grantees lose theirs. */
export async function shareSavedSearch(
  knex: Knex,
  id: string,
  grant: ReadonlyArray<{ grantee_kind: 'user' | 'role'; grantee: string; permission: SharePermission }>,
  remove: ReadonlyArray<{ grantee_kind: 'user' | 'role'; grantee: string }>,
  by: string,
): Promise<void> {
  // One row per grantee: a grantee named twice keeps its last permission (a second row in one
  // INSERT ... ON CONFLICT would be an error).
  const unique = [...new Map(grant.map((g) => [`${g.grantee_kind}:${g.grantee}`, g])).values()];
  await knex.transaction(async (trx) => {
    for (const r of remove) await trx('saved_search_shares').where({ saved_search_id: id, grantee_kind: r.grantee_kind, grantee: r.grantee }).delete();
    if (unique.length > 0) {
      await trx('saved_search_shares')
        .insert(unique.map((g) => ({ saved_search_id: id, ...g, shared_by: by })))
        .onConflict(['saved_search_id', 'grantee_kind', 'grantee'])
        .merge(['permission', 'shared_by', 'shared_at']);
    }
    await trx('saved_searches').where({ id }).update({ updated_at: trx.fn.now() });
  });
}

/** Names of the owner's saved searches (for renaming on import). */
export async function savedSearchNames(knex: Knex, owner: string): Promise<Set<string>> {
  const rows = (await knex('saved_searches').select('name').where({ owner })) as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

export async function savedSearchesByIds(knex: Knex, ids: readonly string[]): Promise<SavedSearchWithShares[]> {
  if (ids.length === 0) return [];
  const rows = (await knex('saved_searches').select(COLUMNS).whereIn('id', [...ids])) as SavedSearchRow[];
  const shares = (await knex('saved_search_shares').select('saved_search_id', 'grantee_kind', 'grantee', 'permission', 'shared_by', 'shared_at').whereIn('saved_search_id', [...ids])) as Array<SavedSearchWithShares['shares'][number] & { saved_search_id: string }>;
  // Grouped by search; the join key itself stays out of each share (the answer's schema has none).
  const bySearch = new Map<string, SavedSearchWithShares['shares']>();
  for (const { saved_search_id: searchId, ...share } of shares) {
    const list = bySearch.get(searchId) ?? [];
    list.push(share);
    bySearch.set(searchId, list);
  }
  return rows.map((r) => ({ ...r, shares: bySearch.get(r.id) ?? [] }));
}

/** Adds then removes tags on the given searches (tags kept sorted and distinct). */
export async function changeTags(knex: Knex, ids: readonly string[], add: readonly string[], remove: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await knex('saved_searches')
    .whereIn('id', [...ids])
    .update({
      tags: knex.raw('ARRAY(SELECT DISTINCT t FROM unnest(tags || ?::text[]) AS t WHERE NOT (t = ANY(?::text[])) ORDER BY t)', [[...add], [...remove]]),
      updated_at: knex.fn.now(),
    });
}

/** Tags in use on the saved searches the caller can see, with counts, most used first. */
export async function tagCounts(knex: Knex, caller: Caller): Promise<Array<{ tag: string; count: number }>> {
  const visible = visibleTo(knex, knex('saved_searches as s').select(knex.raw('unnest(s.tags) AS tag')), caller);
  const rows = await knex.select('v.tag').count<Array<{ tag: string; count: string }>>('* as count').from(visible.as('v')).groupBy('v.tag').orderBy([{ column: 'count', order: 'desc' }, { column: 'v.tag' }]).limit(500);
  return rows.map((r) => ({ tag: r.tag, count: Number(r.count) }));
}
