// The partner indicator feed's use case:
// - indicatorFeedPage: one page of indicator changes after a position (or from a time), as records
//   (json, csv; bank details as the caller may see them) or STIX objects, audited
// Pages never skip or repeat a change while writers add indicators
// (db/repositories/exports/feed-repository.ts explains the position).
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import { readIndicatorFeed } from '../../db/repositories/exports/feed-repository';
import { principalName } from '../../domain/accounts/principal-name';
import type { Principal } from '../../domain/accounts/roles';
import type { ExportRecord, IndicatorExportColumn } from '../../domain/exports/export-rows';
import type { FeedPosition } from '../../domain/exports/feed-position';
import { bundleHeadObjects, type StixObject } from '../../domain/exports/stix-objects';
import { BadRequestError } from '../errors';
import type { ServiceDeps } from '../service-deps';
import { indicatorExportRecord, seesClearBankDetails } from './export-records';
import { indicatorStixObjects } from './export-service';

export interface IndicatorFeedInput {
  /** First page: changes at or after this time (ISO 8601). */
  since?: string;
  /** Next pages: the position the previous page ended at. */
  cursor?: FeedPosition;
  limit: number;
  format: 'json' | 'csv' | 'stix';
  category?: string;
  min_confidence?: number;
}

/** An indicator's record and the change it is. */
export type FeedItem = ExportRecord<IndicatorExportColumn> & { revision: string };

export type IndicatorFeedPage = {
  /** Position after this page (pass back as the cursor, also to poll for later changes). */
  next: FeedPosition | null;
  /** The next page already has changes. */
  more: boolean;
  /** When not more: every change made before this time is in the pages read so far. */
  complete_until: Date | null;
} & ({ format: 'json'; items: FeedItem[] } | { format: 'csv'; items: FeedItem[] } | { format: 'stix'; objects: StixObject[] });

export async function indicatorFeedPage(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, input: IndicatorFeedInput): Promise<IndicatorFeedPage> {
  if (input.since && input.cursor) throw new BadRequestError('invalid_query', 'give since (first page) or cursor (next pages), not both', [{ path: 'query.cursor', message: 'not with since' }]);
  const page = await readIndicatorFeed(deps.knex, {
    after: input.cursor,
    since: input.since ? new Date(input.since) : undefined,
    limit: input.limit,
    category: input.category,
    min_confidence: input.min_confidence,
  });
  await recordAuditEvent(deps.knex, {
    actor: principalName(principal),
    action: 'feed.indicators',
    target_type: 'feed',
    target_id: 'indicators',
    details: { format: input.format, filters: { since: input.since ?? null, category: input.category ?? null, min_confidence: input.min_confidence ?? null }, cursor: input.cursor ?? null, rows: page.rows.length, outcome: 'complete' },
  });
  const paging = { next: page.next, more: page.more, complete_until: page.complete_until };
  if (input.format === 'stix') return { ...paging, format: 'stix', objects: [...bundleHeadObjects(), ...page.rows.flatMap((r) => indicatorStixObjects(r))] };
  const clear = seesClearBankDetails(principal);
  return { ...paging, format: input.format, items: page.rows.map((r) => ({ ...indicatorExportRecord(r, clear), revision: r.revision })) };
}
