// The caller's search history: one row per query run (first pages only), readable and deletable
// by its owner only (every query here is scoped by owner).
import type { Knex } from 'knex';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface SearchHistoryRow {
  id: string;
  owner: string;
  query: string;
  types: string[];
  filters: Record<string, unknown>;
  result_count: number;
  searched_at: Date;
}

export async function recordSearch(knex: Knex, row: Omit<SearchHistoryRow, 'id' | 'searched_at'>): Promise<void> {
  await knex('search_history').insert({ ...row, filters: JSON.stringify(row.filters) });
}

export async function listSearchHistory(knex: Knex, owner: string, page: { limit: number; after?: Keyset }): Promise<KeysetPage<SearchHistoryRow>> {
  const q = knex('search_history').select('id', 'owner', 'query', 'types', 'filters', 'result_count', 'searched_at').where({ owner });
  return keysetPage<SearchHistoryRow>(knex, q, { tsColumn: 'searched_at', idColumn: 'id', limit: page.limit, after: page.after });
}

/** Deletes one entry of the owner's history; false when the owner has no such entry. */
export async function deleteSearchHistoryEntry(knex: Knex, owner: string, id: string): Promise<boolean> {
  return (await knex('search_history').where({ owner, id }).delete()) > 0;
}

export async function clearSearchHistory(knex: Knex, owner: string): Promise<number> {
  return knex('search_history').where({ owner }).delete();
}
