// Watchlists: a person's watch on an entity, a saved search or a campaign, its rules, its delivery
// channels and the figures it last saw (baseline).
import type { Knex } from 'knex';
import type { WatchFigures, WatchRule, WatchTargetKind } from '../../../domain/alerts/watch-rules';
import { keysetPage, type Keyset, type KeysetPage } from '../../keyset-page';

export interface WatchlistRow {
  id: string;
  owner: string;
  name: string;
  target_kind: WatchTargetKind;
  target_id: string;
  rules: WatchRule[];
  email: boolean;
  webhook_url: string | null;
  webhook_secret: string | null;
  baseline: WatchFigures;
  evaluated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewWatchlist = Pick<WatchlistRow, 'owner' | 'name' | 'target_kind' | 'target_id' | 'rules' | 'email' | 'webhook_url' | 'webhook_secret' | 'baseline'>;
export type WatchlistPatch = Partial<Pick<WatchlistRow, 'name' | 'rules' | 'email' | 'webhook_url' | 'webhook_secret'>>;

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/** null when the owner already has a watchlist of that name. */
export async function insertWatchlist(knex: Knex | Knex.Transaction, w: NewWatchlist): Promise<WatchlistRow | null> {
  try {
    const [row] = await knex('watchlists').insert({ ...w, rules: JSON.stringify(w.rules), baseline: JSON.stringify(w.baseline) }).returning('*');
    return row as WatchlistRow;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export async function findWatchlist(knex: Knex | Knex.Transaction, id: string): Promise<WatchlistRow | undefined> {
  return (await knex('watchlists').where({ id }).first()) as WatchlistRow | undefined;
}

export async function listWatchlists(knex: Knex, owner: string, page: { limit: number; after?: Keyset }): Promise<KeysetPage<WatchlistRow>> {
  const q = knex('watchlists as w').select('w.*').where('w.owner', owner);
  return keysetPage<WatchlistRow>(knex, q, { tsColumn: 'w.created_at', idColumn: 'w.id', limit: page.limit, after: page.after });
}

/** null when the new name clashes with another of the owner's watchlists. */
export async function updateWatchlist(knex: Knex | Knex.Transaction, id: string, patch: WatchlistPatch): Promise<WatchlistRow | null> {
  const change: Record<string, unknown> = { ...patch, updated_at: knex.fn.now() };
  if (patch.rules) change.rules = JSON.stringify(patch.rules);
  try {
    const [row] = await knex('watchlists').where({ id }).update(change).returning('*');
    return row as WatchlistRow;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export async function deleteWatchlist(knex: Knex | Knex.Transaction, id: string): Promise<void> {
  await knex('watchlists').where({ id }).delete();
}

/** Watchlists in id order after `afterId` (the evaluation walks them in batches). */
export async function watchlistBatch(knex: Knex, afterId: string | null, limit: number): Promise<WatchlistRow[]> {
  const q = knex('watchlists').orderBy('id').limit(limit);
  if (afterId) q.where('id', '>', afterId);
  return (await q) as WatchlistRow[];
}

export async function saveBaseline(knex: Knex | Knex.Transaction, id: string, baseline: WatchFigures): Promise<void> {
  await knex('watchlists').where({ id }).update({ baseline: JSON.stringify(baseline), evaluated_at: knex.fn.now() });
}

/** Owners of watchlists on any of these targets (for alerts raised without a watch). */
export async function watchlistsOnTargets(knex: Knex, targets: Array<{ kind: WatchTargetKind; id: string }>): Promise<WatchlistRow[]> {
  if (targets.length === 0) return [];
  return (await knex('watchlists').where((w) => {
    for (const t of targets) w.orWhere({ target_kind: t.kind, target_id: t.id });
  })) as WatchlistRow[];
}
