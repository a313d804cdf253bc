// Watchlist use cases (the API's /watchlists): a watchlist belongs to the person who made it (403
// for service callers; another person's is a 404).
// - createWatchlist: watch an entity, a saved search (one the caller can see) or a campaign with
//   rules; the current figures become the baseline; a webhook gets a fresh secret, answered once
// - listWatchlists / getWatchlist: the caller's own (never the secret)
// - updateWatchlist: name, rules, channels; a new webhook URL gets a new secret (answered once)
// - deleteWatchlist: with its alerts
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import {
  deleteWatchlist as deleteRow,
  findWatchlist,
  insertWatchlist,
  listWatchlists as listRows,
  updateWatchlist as updateRow,
  type WatchlistRow,
} from '../../db/repositories/alerts/watchlist-repository';
import type { Principal, Role } from '../../domain/accounts/roles';
import { newWebhookSecret } from '../../domain/alerts/webhook-signature';
import type { WatchRule, WatchTargetKind } from '../../domain/alerts/watch-rules';
import type { Keyset, KeysetPage } from '../../domain/keyset';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { watchFigures } from './watch-figures';
import { dropWebhookSecret, sealWebhookSecret } from './webhook-secret-store';

export type { WatchlistRow } from '../../db/repositories/alerts/watchlist-repository';

export interface WatchlistInput {
  name: string;
  target: { kind: WatchTargetKind; id: string };
  rules: WatchRule[];
  email: boolean;
  webhook_url?: string | null;
}

export type WatchlistChange = Partial<Pick<WatchlistInput, 'name' | 'rules' | 'email' | 'webhook_url'>>;

interface Watcher {
  email: string;
  roles: readonly Role[];
}

function watcher(principal: Principal | null): Watcher {
  if (!principal || principal.kind !== 'user') throw new ForbiddenError('watchlists belong to people');
  return { email: principal.email, roles: principal.roles };
}

function checkWebhookUrl(url: string | null | undefined) {
  if (!url) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError('body.webhook_url: not an absolute URL', [{ path: 'body.webhook_url', message: 'not an absolute URL' }]);
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || parsed.username || parsed.password) {
    throw new ValidationError('body.webhook_url: an http(s) URL without credentials', [{ path: 'body.webhook_url', message: 'an http(s) URL without credentials' }]);
  }
}

async function own(deps: Pick<ServiceDeps, 'knex'>, w: Watcher, id: string): Promise<WatchlistRow> {
  const row = await findWatchlist(deps.knex, id);
  if (!row || row.owner !== w.email) throw new NotFoundError(`no watchlist ${id}`);
  return row;
}

/** The watchlist, and its webhook secret when this call made one (shown this once). */
export async function createWatchlist(deps: Pick<ServiceDeps, 'knex' | 'config'>, principal: Principal | null, input: WatchlistInput): Promise<{ watchlist: WatchlistRow; secret: string | null }> {
  const w = watcher(principal);
  checkWebhookUrl(input.webhook_url);
  const now = await watchFigures(deps.knex, input.target, w);
  if (!now) throw new ValidationError(`body.target.id: no ${input.target.kind} ${input.target.id} (or not visible to you)`, [{ path: 'body.target.id', message: `no such ${input.target.kind}` }]);
  const secret = input.webhook_url ? newWebhookSecret() : null;
  return deps.knex.transaction(async (trx) => {
    const row = await insertWatchlist(trx, {
      owner: w.email,
      name: input.name,
      target_kind: input.target.kind,
      target_id: input.target.id,
      rules: input.rules,
      email: input.email,
      webhook_url: input.webhook_url ?? null,
      webhook_secret: null,
      baseline: now.figures,
    });
    if (!row) throw new ConflictError(`you already have a watchlist named "${input.name}"`);
    if (secret) await sealWebhookSecret(trx, deps.config, row.id, secret);
    await recordAuditEvent(trx, { actor: w.email, action: 'watchlist.create', target_type: 'watchlist', target_id: row.id, details: { target: input.target, rules: input.rules.map((r) => r.kind), webhook: Boolean(input.webhook_url) } });
    return { watchlist: row, secret };
  });
}

export async function listWatchlists(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, page: { limit: number; after?: Keyset }): Promise<KeysetPage<WatchlistRow>> {
  return listRows(deps.knex, watcher(principal).email, page);
}

export async function getWatchlist(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string): Promise<WatchlistRow> {
  return own(deps, watcher(principal), id);
}

export async function updateWatchlist(deps: Pick<ServiceDeps, 'knex' | 'config'>, principal: Principal | null, id: string, change: WatchlistChange): Promise<{ watchlist: WatchlistRow; secret: string | null }> {
  const w = watcher(principal);
  checkWebhookUrl(change.webhook_url);
  const current = await own(deps, w, id);
  const urlChanged = change.webhook_url !== undefined && change.webhook_url !== current.webhook_url;
  const secret = urlChanged && change.webhook_url ? newWebhookSecret() : null;
  return deps.knex.transaction(async (trx) => {
    const row = await updateRow(trx, id, {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.rules !== undefined ? { rules: change.rules } : {}),
      ...(change.email !== undefined ? { email: change.email } : {}),
      ...(urlChanged ? { webhook_url: change.webhook_url ?? null, webhook_secret: null } : {}),
    });
    if (!row) throw new ConflictError(`you already have a watchlist named "${change.name}"`);
    if (secret) await sealWebhookSecret(trx, deps.config, id, secret);
    else if (urlChanged) await dropWebhookSecret(trx, id);
    await recordAuditEvent(trx, { actor: w.email, action: 'watchlist.update', target_type: 'watchlist', target_id: id, details: { fields: Object.keys(change), new_secret: Boolean(secret) } });
    return { watchlist: row, secret };
  });
}

export async function deleteWatchlist(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, id: string): Promise<void> {
  const w = watcher(principal);
  await own(deps, w, id);
  await deps.knex.transaction(async (trx) => {
    await deleteRow(trx, id);
    await dropWebhookSecret(trx, id);
    await recordAuditEvent(trx, { actor: w.email, action: 'watchlist.delete', target_type: 'watchlist', target_id: id });
  });
}
