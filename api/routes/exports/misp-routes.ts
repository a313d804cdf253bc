// MISP (services/exports/misp-service.ts): the MISP event of a case or a campaign, and a feed in the
// layout MISP's "Add feed" (format "MISP Feed") fetches: manifest.json, hashes.csv, <uuid>.json (one
// event per campaign). Access as the other exports: the event export for admin, analyst and reviewer;
// the feed as the other feeds (admin, analyst, API keys scoped taxii:read).
import type { z } from 'zod';
import { exportMispEvent, mispFeedEvent, mispFeedHashes, mispFeedManifest } from '../../../services/exports/misp-service';
import { ErrorSchema } from '../../common-schemas';
import { defineRoute } from '../../route-definition';
import { MispEventSchema, MispExportQuery, MispFeedEventParams, MispManifestSchema } from './misp-schemas';

const FEED_ACCESS = { roles: ['admin', 'analyst'], scopes: ['taxii:read'] } as const;
const notFound = { description: 'No such case, campaign or event', schema: ErrorSchema };

export const mispRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof MispExportQuery>>({
    method: 'get',
    path: '/exports/misp',
    summary: 'The MISP event (MISP JSON) of a case or a campaign: wallets as coin-address objects, one TLP tag, the scam taxonomy as tags (bank details masked for every role but analyst; audited)',
    tags: ['exports'],
    access: { roles: ['admin', 'analyst', 'reviewer'] },
    request: { query: MispExportQuery },
    responses: { 200: { description: 'The event, as a download', schema: MispEventSchema }, 404: notFound },
    handler: async ({ query, principal, deps, ctx }) => {
      const event = await exportMispEvent(deps, principal, query);
      ctx.attachment(`misp-${event.Event.uuid}.json`);
      return { body: event };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/feeds/misp/manifest.json',
    summary: 'MISP feed: the manifest (event uuid → info, date, tags, timestamp), one event per campaign',
    tags: ['feeds'],
    access: FEED_ACCESS,
    responses: { 200: { description: 'The manifest', schema: MispManifestSchema } },
    handler: async ({ principal, deps }) => ({ body: await mispFeedManifest(deps, principal) }),
  }),
  defineRoute({
    method: 'get',
    path: '/feeds/misp/hashes.csv',
    summary: 'MISP feed: md5 of every attribute value and its event (`value_md5,event_uuid` per line, no header)',
    tags: ['feeds'],
    access: FEED_ACCESS,
    responses: { 200: { description: 'The hashes', contentType: 'text/csv; charset=utf-8' } },
    handler: async ({ principal, deps, ctx }) => {
      const csv = await mispFeedHashes(deps, principal);
      ctx.type = 'text/csv; charset=utf-8';
      return { body: csv };
    },
  }),
  defineRoute<z.infer<typeof MispFeedEventParams>>({
    method: 'get',
    path: '/feeds/misp/{uuid}.json',
    summary: 'MISP feed: one event (a campaign) by its uuid',
    tags: ['feeds'],
    access: FEED_ACCESS,
    request: { params: MispFeedEventParams },
    responses: { 200: { description: 'The event', schema: MispEventSchema }, 404: notFound },
    handler: async ({ params, principal, deps }) => ({ body: await mispFeedEvent(deps, principal, params.uuid) }),
  }),
];
