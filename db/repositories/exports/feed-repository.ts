// Paging through indicators while writers add and change them (the partner feed and the TAXII
// collections): a page never skips or repeats a change.
//
// A revision from a sequence is allocated when a row is written but becomes visible only when its
// transaction commits, so "revision > cursor" would skip a revision that commits after a later one
// was read. Rows therefore carry the id of the transaction that wrote them (indicators.write_xid,
// set by a trigger), and a page reads, in (write_xid, revision) order, only rows written by
// transactions older than the oldest transaction still running (pg_snapshot_xmin of the statement's
// snapshot): those transactions are over, so nothing can appear below that watermark later, and
// every transaction still to commit has a larger id than anything already read. A change in flight
// is therefore delivered after it commits, never lost; a long transaction delays the feed, it never
// makes it skip.
import type { Knex } from 'knex';
import type { FeedPosition } from '../../../domain/exports/feed-position';
import { INDICATOR_COLUMNS, type CampaignExportRow, type IndicatorExportRow } from './export-repository';

export interface FeedRow extends IndicatorExportRow {
  revision: string;
  write_xid: string;
}

export interface FeedPage {
  rows: FeedRow[];
  /** Position after the last row (pass back as `after`); null when no row was read and no position was given. */
  next: FeedPosition | null;
  /** More safe rows exist beyond this page. */
  more: boolean;
  /**
   * When the page reaches the end: every indicator change made before this time is at or before
   * `next` (the start of the oldest transaction still writing or the oldest change held back above
   * the watermark, else the read time). Null when more.
   */
  complete_until: Date | null;
}

export interface FeedQuery {
  after?: FeedPosition;
  limit: number;
  /** Only indicators of these entity types. */
  types?: readonly string[];
  category?: string;
  min_confidence?: number;
  /** Only changes at or after this time (indicators.updated_at). */
  since?: Date;
  /**
   * Only changes strictly after this time at millisecond precision (TAXII added_after: the objects'
   * date_added is updated_at in milliseconds, so a client passing the last date_added it saw gets
   * nothing of what it already has).
   */
  changed_after?: Date;
  /** Only these entities. */
  entity_ids?: readonly string[];
  /**
   * TAXII match[version]: only objects whose version (in milliseconds) is one of these; `modified`
   * is an indicator's (the later of created_at and updated_at), `updated_at` a wallet SCO's.
   */
  versions?: { of: 'modified' | 'updated_at'; at: readonly Date[] };
}

/** `updated_at` strictly after `at` at millisecond precision (timestamptz keeps microseconds). */
function afterMillisecond(q: Knex.QueryBuilder, column: string, at: Date): void {
  q.whereRaw(`${column} >= date_trunc('milliseconds', ?::timestamptz) + interval '1 millisecond'`, [at.toISOString()]);
}

/** The version filter: the column truncated to milliseconds is one of the times (none: no row). */
function versionIn(q: Knex.QueryBuilder, expression: string, at: readonly Date[]): void {
  if (!at.length) q.whereRaw('false');
  else q.whereRaw(`date_trunc('milliseconds', ${expression}) = ANY(?::timestamptz[])`, [at.map((d) => d.toISOString())]);
}

export async function readIndicatorFeed(knex: Knex, query: FeedQuery): Promise<FeedPage> {
  const q = knex
    .with('w', knex.raw('SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin'))
    .from('indicators as i')
    .join('entities as e', 'e.id', 'i.entity_id')
    .crossJoin(knex.raw('w'))
    .select(
      ...INDICATOR_COLUMNS,
      knex.raw('i.revision::text AS revision'),
      knex.raw('i.write_xid::text AS write_xid'),
    )
    .whereRaw('i.write_xid < w.xmin')
    .orderByRaw('i.write_xid, i.revision')
    .limit(query.limit + 1);
  if (query.after) q.whereRaw('(i.write_xid, i.revision) > (?::xid8, ?::bigint)', [query.after.xid, query.after.revision]);
  if (query.types) q.whereIn('e.type', [...query.types]);
  if (query.category) q.where('i.category', query.category);
  if (query.min_confidence !== undefined) q.where('i.confidence', '>=', query.min_confidence);
  if (query.since) q.where('i.updated_at', '>=', query.since);
  if (query.changed_after) afterMillisecond(q, 'i.updated_at', query.changed_after);
  if (query.entity_ids) q.whereIn('i.entity_id', [...query.entity_ids]);
  if (query.versions) versionIn(q, query.versions.of === 'modified' ? 'GREATEST(i.created_at, i.updated_at)' : 'i.updated_at', query.versions.at);
  const raw = (await q) as FeedRow[];
  const more = raw.length > query.limit;
  const rows = raw.slice(0, query.limit);
  const last = rows[rows.length - 1];
  const next = last ? { xid: last.write_xid, revision: last.revision } : (query.after ?? null);
  let completeUntil: Date | null = null;
  if (!more) {
    // Transactions still writing may commit changes stamped with their start time, and changes
    // already committed above the watermark are held back until it passes them.
    const { rows: w } = (await knex.raw(
      `SELECT LEAST(clock_timestamp(),
                    (SELECT min(xact_start) FROM pg_stat_activity WHERE backend_xid IS NOT NULL),
                    (SELECT min(updated_at) FROM indicators WHERE write_xid >= pg_snapshot_xmin(pg_current_snapshot()))) AS at`,
    )) as { rows: Array<{ at: Date }> };
    completeUntil = w[0]!.at;
  }
  return { rows, next, more, complete_until: completeUntil };
}

/** A campaign row as the exports read it, with its position in the feed's order. */
export interface CampaignFeedRow extends CampaignExportRow {
  /** updated_at as text to the microsecond (a Date would lose them): the keyset of the next page. */
  keyset_ts: string;
}

/**
 * Campaigns in (updated_at, id) order after a position (the TAXII campaigns collection);
 * `changed_after` and `versions` (the later of created_at and updated_at) at millisecond precision.
 */
export async function readCampaignFeed(
  knex: Knex,
  opts: { after?: { ts: string; id: string }; limit: number; changed_after?: Date; ids?: readonly string[]; versions?: readonly Date[] },
): Promise<{ rows: CampaignFeedRow[]; more: boolean }> {
  const q = knex('campaigns')
    .select('id', 'name', 'description', 'taxonomy', 'created_at', 'updated_at', knex.raw(`to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS keyset_ts`))
    .orderBy([{ column: 'updated_at' }, { column: 'id' }])
    .limit(opts.limit + 1);
  if (opts.after) q.whereRaw('(updated_at, id) > (?::timestamptz, ?::uuid)', [opts.after.ts, opts.after.id]);
  if (opts.changed_after) afterMillisecond(q, 'updated_at', opts.changed_after);
  if (opts.ids) q.whereIn('id', [...opts.ids]);
  if (opts.versions) versionIn(q, 'GREATEST(created_at, updated_at)', opts.versions);
  const raw = (await q) as CampaignFeedRow[];
  return { rows: raw.slice(0, opts.limit), more: raw.length > opts.limit };
}
