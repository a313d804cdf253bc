// The periodic evaluation of every watchlist (run by the `watchlist-alerts` Schedule): each
// watchlist's target figures now against its baseline, an alert per rule that fires (raised once:
// dedupe keys), then the new baseline. A watchlist whose owner is no longer active, or whose
// target is gone, is skipped.
import { insertAlert } from '../../db/repositories/alerts/alert-repository';
import { saveBaseline, watchlistBatch, type WatchlistRow } from '../../db/repositories/alerts/watchlist-repository';
import { findActiveUserByEmail } from '../../db/repositories/accounts/user-repository';
import { EMPTY_FIGURES, evaluateRules, nextBaseline } from '../../domain/alerts/watch-rules';
import type { ServiceDeps } from '../service-deps';
import { deliveryChannels } from './alert-service';
import { watchFigures } from './watch-figures';

export interface WatchEvaluationResult {
  watchlists: number;
  alerts_raised: number;
  skipped: number;
}

async function evaluateOne(deps: Pick<ServiceDeps, 'knex'>, w: WatchlistRow): Promise<number | null> {
  const owner = await findActiveUserByEmail(deps.knex, w.owner);
  if (!owner) return null;
  const now = await watchFigures(deps.knex, { kind: w.target_kind, id: w.target_id }, { email: owner.email, roles: owner.roles });
  if (!now) return null;
  const before = { ...EMPTY_FIGURES, ...w.baseline };
  const hits = evaluateRules(w.rules, before, now.figures, now.label);
  return deps.knex.transaction(async (trx) => {
    let raised = 0;
    for (const hit of hits) {
      const row = await insertAlert(
        trx,
        { watchlist_id: w.id, recipient: w.owner, kind: hit.kind, dedupe_key: `${w.id}:${hit.dedupeKey}`, title: hit.title, detail: { ...hit.detail, target: { kind: w.target_kind, id: w.target_id }, watchlist: w.name } },
        deliveryChannels(w),
      );
      if (row) raised++;
    }
    await saveBaseline(trx, w.id, nextBaseline(w.rules, before, now.figures, hits));
    return raised;
  });
}

/** Evaluates every watchlist (or only `ids`); `onBatch` lets the caller heartbeat. */
export async function evaluateWatchlists(deps: Pick<ServiceDeps, 'knex'>, opts: { ids?: string[]; onBatch?: () => void } = {}): Promise<WatchEvaluationResult> {
  const result: WatchEvaluationResult = { watchlists: 0, alerts_raised: 0, skipped: 0 };
  let after: string | null = null;
  for (;;) {
    const batch = await watchlistBatch(deps.knex, after, 200);
    if (batch.length === 0) break;
    after = batch[batch.length - 1].id;
    for (const w of batch) {
      if (opts.ids && !opts.ids.includes(w.id)) continue;
      const raised = await evaluateOne(deps, w);
      result.watchlists++;
      if (raised === null) result.skipped++;
      else result.alerts_raised += raised;
    }
    opts.onBatch?.();
  }
  return result;
}
