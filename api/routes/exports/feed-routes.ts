// The partner indicator feed (spec "Intelligence and analytics": GET /feeds/indicators): pages of
// indicator changes in a stable order that never skips or repeats a change while writers add
// indicators (services/exports/feed-service.ts). Start with `since` (or nothing: from the
// beginning), continue with `cursor` = the previous page's next_cursor.
// The feed is for machines: its values go out exactly as stored in every format. The spreadsheet
// formula guard (an apostrophe before = + - @) belongs to the CSV downloads for people
// (/exports/*), never here: it would turn +442079460123 into '+442079460123 for every consumer.
import { randomUUID } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import type { z } from 'zod';
import { INDICATOR_EXPORT_COLUMNS } from '../../../domain/exports/export-rows';
import { encodeFeedCursor } from '../../../domain/exports/feed-position';
import { EXPORT_CONTENT_TYPES } from '../../../services/exports/export-writers';
import { indicatorFeedPage } from '../../../services/exports/feed-service';
import { defineRoute } from '../../route-definition';
import { FeedPageSchema, FeedQuery } from './export-schemas';

export const feedRoutes = [
  defineRoute<Record<string, never>, z.infer<typeof FeedQuery>>({
    method: 'get',
    path: '/feeds/indicators',
    summary: 'Partner indicator feed: pages of indicator changes (json, csv or a STIX 2.1 bundle) with a cursor stable under concurrent writes',
    tags: ['feeds'],
    access: { roles: ['admin', 'analyst'], scopes: ['taxii:read'] },
    request: { query: FeedQuery },
    responses: {
      200: {
        description: 'A page. For csv and stix the cursor and completeness travel in X-Next-Cursor, X-More and X-Complete-Until headers',
        schema: FeedPageSchema,
        otherContentTypes: [EXPORT_CONTENT_TYPES.csv, EXPORT_CONTENT_TYPES.stix],
      },
    },
    handler: async ({ query, principal, deps, ctx }) => {
      const page = await indicatorFeedPage(deps, principal, query);
      const nextCursor = encodeFeedCursor(page.next);
      const completeUntil = page.complete_until?.toISOString() ?? null;
      if (page.format === 'json') {
        return { body: { items: page.items, next_cursor: nextCursor, more: page.more, complete_until: completeUntil } };
      }
      if (nextCursor) ctx.set('X-Next-Cursor', nextCursor);
      ctx.set('X-More', String(page.more));
      if (completeUntil) ctx.set('X-Complete-Until', completeUntil);
      if (page.format === 'csv') {
        ctx.type = EXPORT_CONTENT_TYPES.csv;
        return { body: stringify(page.items, { header: true, columns: [...INDICATOR_EXPORT_COLUMNS, 'revision'] }) };
      }
      ctx.type = EXPORT_CONTENT_TYPES.stix;
      return { body: JSON.stringify({ type: 'bundle', id: `bundle--${randomUUID()}`, objects: page.objects }) };
    },
  }),
];
