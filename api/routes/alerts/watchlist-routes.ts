// Watchlists: a person watches an entity, a saved search or a campaign with alert rules (new
// sightings, new linked sites, a loss threshold, a risk change), delivered by e-mail and by signed
// webhook. Use cases: services/alerts/watchlist-service.ts; docs/alerts.md.
import type { z } from 'zod';
import type { Principal } from '../../../domain/accounts/roles';
import { maskingFor } from '../../../domain/masking/masking-policy';
import type { Keyset } from '../../../domain/keyset';
import { createWatchlist, deleteWatchlist, getWatchlist, listWatchlists, updateWatchlist, type WatchlistRow } from '../../../services/alerts/watchlist-service';
import { ErrorSchema, UuidParam } from '../../common-schemas';
import { encodeCursor, pageSchema } from '../../pagination';
import { defineRoute } from '../../route-definition';
import { WatchlistInputSchema, WatchlistListQuery, WatchlistPatchSchema, WatchlistSchema, watchlistView } from './alert-schemas';

/** The answer for the caller: free text masked as in every answer, the secret (shown once) left whole. */
function maskedView(principal: Principal | null, watchlist: WatchlistRow, secret: string | null) {
  return { ...maskingFor(principal).json(watchlistView(watchlist)), ...(secret ? { webhook_secret: secret } : {}) };
}

export const ALERT_ROLES = ['admin', 'analyst', 'reviewer'] as const;

const notFound = { 404: { description: 'No such watchlist of yours', schema: ErrorSchema } };

export const watchlistRoutes = [
  defineRoute<Record<string, never>, Record<string, never>, z.infer<typeof WatchlistInputSchema>>({
    method: 'post',
    path: '/watchlists',
    summary: 'Watch an entity, a saved search or a campaign; the answer carries the webhook secret, once',
    tags: ['alerts'],
    access: { roles: ALERT_ROLES },
    request: { body: WatchlistInputSchema },
    responses: {
      201: { description: 'The watchlist (with webhook_secret when it has a webhook)', schema: WatchlistSchema },
      409: { description: 'You already have a watchlist of that name', schema: ErrorSchema },
    },
    handler: async ({ body, principal, deps }) => {
      const { watchlist, secret } = await createWatchlist(deps, principal, body);
      return { status: 201, body: maskedView(principal, watchlist, secret) };
    },
  }),
  defineRoute<Record<string, never>, z.infer<typeof WatchlistListQuery> & { cursor?: Keyset }>({
    method: 'get',
    path: '/watchlists',
    summary: 'Your watchlists, newest first',
    tags: ['alerts'],
    access: { roles: ALERT_ROLES },
    request: { query: WatchlistListQuery },
    responses: { 200: { description: 'A page of watchlists', schema: pageSchema(WatchlistSchema, 'WatchlistPage') } },
    handler: async ({ query, principal, deps }) => {
      const page = await listWatchlists(deps, principal, { limit: query.limit, after: query.cursor });
      // A name is free text (bank details in it are masked for the caller, as in every answer).
      const masking = maskingFor(principal);
      return { body: { items: page.rows.map((w) => masking.json(watchlistView(w))), next_cursor: encodeCursor(page.next) } };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'get',
    path: '/watchlists/{id}',
    summary: 'One of your watchlists (never its secret)',
    tags: ['alerts'],
    access: { roles: ALERT_ROLES },
    request: { params: UuidParam },
    responses: { 200: { description: 'The watchlist', schema: WatchlistSchema }, ...notFound },
    handler: async ({ params, principal, deps }) => ({ body: maskingFor(principal).json(watchlistView(await getWatchlist(deps, principal, params.id))) }),
  }),
  defineRoute<z.infer<typeof UuidParam>, Record<string, never>, z.infer<typeof WatchlistPatchSchema>>({
    method: 'patch',
    path: '/watchlists/{id}',
    summary: 'Change name, rules or channels; a new webhook URL gets a new secret (answered once)',
    tags: ['alerts'],
    access: { roles: ALERT_ROLES },
    request: { params: UuidParam, body: WatchlistPatchSchema },
    responses: { 200: { description: 'The watchlist', schema: WatchlistSchema }, 409: { description: 'Name taken', schema: ErrorSchema }, ...notFound },
    handler: async ({ params, body, principal, deps }) => {
      const { watchlist, secret } = await updateWatchlist(deps, principal, params.id, body);
      return { body: maskedView(principal, watchlist, secret) };
    },
  }),
  defineRoute<z.infer<typeof UuidParam>>({
    method: 'delete',
    path: '/watchlists/{id}',
    summary: 'Delete one of your watchlists and its alerts',
    tags: ['alerts'],
    access: { roles: ALERT_ROLES },
    request: { params: UuidParam },
    responses: { 204: { description: 'Deleted' }, ...notFound },
    handler: async ({ params, principal, deps }) => {
      await deleteWatchlist(deps, principal, params.id);
      return { status: 204 };
    },
  }),
];
