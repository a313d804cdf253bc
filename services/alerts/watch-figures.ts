// The figures of a watched target now (domain/alerts/watch-rules.ts): an entity or a campaign from
// the graph; a saved search by how many records it matches for its watcher (`sightings`, counted up
// to the search page's cap of 1,000).
import type { Knex } from 'knex';
import { campaignFigures, entityFigures, entityLabel } from '../../db/repositories/alerts/watch-figures-repository';
import { findCampaign } from '../../db/repositories/campaigns/campaign-repository';
import type { Role } from '../../domain/accounts/roles';
import { EMPTY_FIGURES, type WatchFigures, type WatchTargetKind } from '../../domain/alerts/watch-rules';
import { savedSearchFor } from '../search/saved-search-service';
import { countMatches } from '../../db/repositories/search/search-repository';
import { maskingFor } from '../../domain/masking/masking-policy';
import { SEARCH_RECORD_TYPES, type SearchRecordType } from '../../domain/search/search-fields';
import { buildSearchExpr, SEARCH_COUNT_CAP } from '../search/search-service';

export interface WatchTarget {
  kind: WatchTargetKind;
  id: string;
}

/** The target's figures and a short label, or null when the target is gone (or no longer visible to the watcher). */
export async function watchFigures(knex: Knex, target: WatchTarget, watcher: { email: string; roles: readonly Role[] }): Promise<{ figures: WatchFigures; label: string } | null> {
  if (target.kind === 'entity') {
    const figures = await entityFigures(knex, target.id);
    // The label goes into the alert's title, its e-mail and its webhook: masked for the watcher's roles.
    if (!figures) return null;
    const e = await entityLabel(knex, target.id);
    return { figures, label: e ? `${e.type} ${maskingFor(watcher.roles).value(e.type, e.value)}` : target.id };
  }
  if (target.kind === 'campaign') {
    const figures = await campaignFigures(knex, target.id);
    const campaign = figures ? await findCampaign(knex, target.id) : undefined;
    return figures && campaign ? { figures, label: `campaign ${campaign.name}` } : null;
  }
  const saved = await savedSearchFor(knex, target.id, watcher);
  if (!saved) return null;
  const s = saved.search;
  // Counted as the search page counts (capped, masked per the watcher's roles), without adding to
  // the watcher's search history.
  const types = (s.types.length > 0 ? s.types : SEARCH_RECORD_TYPES) as readonly SearchRecordType[];
  const counts = await countMatches(knex, buildSearchExpr(s.query, s.filters), types, SEARCH_COUNT_CAP, !maskingFor(watcher.roles).sees('bank_account'));
  return { figures: { ...EMPTY_FIGURES, sightings: counts.reduce((n, c) => n + c.count, 0) }, label: `saved search ${s.name}` };
}
