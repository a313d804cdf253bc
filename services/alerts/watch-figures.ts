// The figures of a watched target now (domain/alerts/watch-rules.ts): an entity or a campaign from
// the graph; a saved search by how many records it matches for its watcher (`sightings`).
import type { Knex } from 'knex';
import { campaignFigures, entityFigures, entityLabel } from '../../db/repositories/alerts/watch-figures-repository';
import { findCampaign } from '../../db/repositories/campaigns/campaign-repository';
import type { Role } from '../../domain/accounts/roles';
import { EMPTY_FIGURES, type WatchFigures, type WatchTargetKind } from '../../domain/alerts/watch-rules';
import { savedSearchFor } from '../search/saved-search-service';
import { runSearch } from '../search/search-service';
import type { SearchRecordType } from '../../domain/search/search-fields';

export interface WatchTarget {
  kind: WatchTargetKind;
  id: string;
}

/** The target's figures and a short label, or null when the target is gone (or no longer visible to the watcher). */
export async function watchFigures(knex: Knex, target: WatchTarget, watcher: { email: string; roles: readonly Role[] }): Promise<{ figures: WatchFigures; label: string } | null> {
  if (target.kind === 'entity') {
    const figures = await entityFigures(knex, target.id);
    return figures ? { figures, label: (await entityLabel(knex, target.id)) ?? target.id } : null;
  }
  if (target.kind === 'campaign') {
    const figures = await campaignFigures(knex, target.id);
    const campaign = figures ? await findCampaign(knex, target.id) : undefined;
    return figures && campaign ? { figures, label: `campaign ${campaign.name}` } : null;
  }
  const saved = await savedSearchFor(knex, target.id, watcher);
  if (!saved) return null;
  const s = saved.search;
  const result = await runSearch(knex, { name: watcher.email, roles: watcher.roles }, { query: s.query, types: s.types as SearchRecordType[], filters: s.filters, limit: 1 });
  return { figures: { ...EMPTY_FIGURES, sightings: result.total_estimate }, label: `saved search ${s.name}` };
}
