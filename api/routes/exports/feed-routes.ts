// The partner indicator feed (spec "Intelligence and analytics": GET /feeds/indicators): pages of
// indicator changes in a stable order that never skips or repeats a change while writers add
// indicators (db/repositories/exports/feed-repository.ts). Start with `since` (or nothing: from the
// beginning), continue with `cursor` = the previous page's next_cursor.
import { randomUUID } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { recordAuditEvent } from '../../../db/repositories/audit/audit-event-repository';
import { FEED_POSITION_PATTERN, readIndicatorFeed, type FeedPosition } from '../../../db/repositories/exports/feed-repository';
import { INDICATOR_EXPORT_COLUMNS, csvCells, indicatorExportRecord } from '../../../domain/exports/export-rows';
import { seesBankDetails } from '../../../domain/intelligence/entity-masking';
import { bundleHeadObjects } from '../../../domain/exports/stix-objects';
import { EXPORT_CONTENT_TYPES } from '../../../services/exports/export-writers';
import { indicatorStixObjects } from '../../../services/exports/export-service';
import { BadRequestError } from '../../errors';
import { cursorParam } from '../../pagination';
import { principalName } from '../../../domain/accounts/principal-name';
import { defineRoute } from '../../route-definition';

export function encodeFeedCursor(p: FeedPosition | null): string | null {
  return p ? Buffer.from(JSON.stringify([p.xid, p.revision]), 'utf8').toString('base64url') : null;
}

export function decodeFeedCursor(cursor: string): FeedPosition | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string' && FEED_POSITION_PATTERN.test(x))) {
      return { xid: v[0] as string, revision: v[1] as string };
    }
  } catch {
    // fall through
  }
  return null;
}

const FeedQuery = z.object({
  since: z.iso.datetime({ offset: true }).optional().describe('First page: indicator changes at or after this time (default: from the beginning)'),
  cursor: cursorParam(decodeFeedCursor),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Indicators per page (1-1000, default 100)'),
  format: z.enum(['json', 'csv', 'stix']).default('json'),
  category: z.string().min(1).max(100).optional(),
  min_confidence: z.coerce.number().int().min(0).max(100).optional(),
});
type FeedQueryT = z.infer<typeof FeedQuery>;

const FeedItemSchema = z.object({
  id: z.string().describe('the indicator (its entity id)'),
  type: z.string(),
  value: z.string(),
  category: z.string(),
  confidence: z.number().int(),
  tlp: z.string(),
  valid_from: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  revision: z.string().describe('the change this row is (grows with every change of the indicator)'),
});

const FeedPageSchema = z
  .object({
    items: z.array(FeedItemSchema),
    next_cursor: z.string().nullable().describe('pass as cursor for the next page (also when more is false: poll it later for new changes)'),
    more: z.boolean().describe('true: the next page already has changes'),
    complete_until: z.string().nullable().describe('when more is false: every indicator change made before this time is in the pages read so far'),
  })
  .meta({ id: 'IndicatorFeedPage' });

export const feedRoutes = [
  defineRoute<Record<string, never>, FeedQueryT>({
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
      if (query.since && query.cursor) throw new BadRequestError('invalid_query', 'give since (first page) or cursor (next pages), not both', [{ path: 'query.cursor', message: 'not with since' }]);
      const page = await readIndicatorFeed(deps.knex, {
        after: query.cursor,
        since: query.since ? new Date(query.since) : undefined,
        limit: query.limit,
        category: query.category,
        min_confidence: query.min_confidence,
      });
      await recordAuditEvent(deps.knex, {
        actor: principalName(principal),
        action: 'feed.indicators',
        target_type: 'feed',
        target_id: 'indicators',
        details: { format: query.format, filters: { since: query.since ?? null, category: query.category ?? null, min_confidence: query.min_confidence ?? null }, cursor: query.cursor ?? null, rows: page.rows.length, outcome: 'complete' },
      });
      const nextCursor = encodeFeedCursor(page.next);
      const completeUntil = page.complete_until?.toISOString() ?? null;
      if (query.format === 'json') {
        const clear = seesBankDetails(principal?.kind === 'user' ? principal.roles : []);
        return {
          body: {
            items: page.rows.map((r) => ({ ...indicatorExportRecord(r, clear), revision: r.revision })),
            next_cursor: nextCursor,
            more: page.more,
            complete_until: completeUntil,
          },
        };
      }
      if (nextCursor) ctx.set('X-Next-Cursor', nextCursor);
      ctx.set('X-More', String(page.more));
      if (completeUntil) ctx.set('X-Complete-Until', completeUntil);
      if (query.format === 'csv') {
        ctx.type = EXPORT_CONTENT_TYPES.csv;
        const clear = seesBankDetails(principal?.kind === 'user' ? principal.roles : []);
        return { body: stringify(page.rows.map((r) => csvCells({ ...indicatorExportRecord(r, clear), revision: r.revision })), { header: true, columns: [...INDICATOR_EXPORT_COLUMNS, 'revision'] }) };
      }
      ctx.type = EXPORT_CONTENT_TYPES.stix;
      const objects = [...bundleHeadObjects(), ...page.rows.flatMap((r) => indicatorStixObjects(r))];
      return { body: JSON.stringify({ type: 'bundle', id: `bundle--${randomUUID()}`, objects }) };
    },
  }),
];
