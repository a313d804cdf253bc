// Reads behind the exports (indicators, their edges and campaigns, researcher aggregates).
// Every stream reads keyset batches (never the whole table in memory): each batch is one query of
// `batchSize` rows after the last key of the previous one, so a million-row export holds one batch.
// Entities are read through the entity list's own stream (intel-entity-repository.ts streamIntelEntities).
import type { Knex } from 'knex';
import { CASE_VICTIMS_SQL } from '../analytics/victim-repository';
import type { GraphEntityType } from '../../../domain/intelligence/entity-types';
import type { TlpLabel } from '../../../domain/intelligence/indicators';
import type { CampaignRow } from '../campaigns/campaign-repository';
import { CAMPAIGN_MEMBERSHIP_SQL } from './subject-entities-repository';

/** Rows per keyset batch: 5,000-row batches outlived V8's young generation (~100 MB more peak RSS at a million rows). */
export const EXPORT_BATCH_SIZE = 1000;

/** Batches fetched ahead of the reader (each holds `batchSize` rows: memory stays a few batches). */
const READ_AHEAD_BATCHES = 2;

/**
 * Keyset batches, each batch one array, read ahead: as soon as a batch arrives the next one is
 * requested (its start is the last key just read), up to READ_AHEAD_BATCHES waiting, so PostgreSQL
 * reads while the caller turns earlier batches into output. One query runs at a time.
 */
async function* keysetPages<T>(fetch: (after: string | null) => Promise<T[]>, keyOf: (row: T) => string, batchSize: number): AsyncGenerator<T[]> {
  const queue: Array<Promise<T[]>> = [];
  let after: string | null = null;
  let last = false;
  let fetching = false;
  const pump = (): void => {
    if (last || fetching || queue.length >= READ_AHEAD_BATCHES) return;
    fetching = true;
    const batch = fetch(after).then(
      (rows) => {
        fetching = false;
        if (rows.length < batchSize) last = true;
        else after = keyOf(rows[rows.length - 1]!);
        pump();
        return rows;
      },
      (err: unknown) => {
        fetching = false;
        last = true;
        throw err;
      },
    );
    // A read-ahead that fails while the caller is busy must not be an unhandled rejection: the
    // failure reaches the caller when it takes that batch.
    batch.catch(() => undefined);
    queue.push(batch);
  };
  try {
    pump();
    while (queue.length) {
      const rows = await queue.shift()!;
      pump();
      if (rows.length) yield rows;
    }
  } finally {
    // The caller stopped early (an aborted download): let the read-ahead finish, so its connection
    // goes back to the pool and nothing runs against a destroyed pool.
    last = true;
    await Promise.allSettled(queue);
  }
}

async function* keysetBatches<T>(fetch: (after: string | null) => Promise<T[]>, keyOf: (row: T) => string, batchSize: number): AsyncGenerator<T> {
  for await (const rows of keysetPages(fetch, keyOf, batchSize)) yield* rows;
}

export interface IndicatorExportFilter {
  category?: string;
  min_confidence?: number;
  /** Indicators changed (updated_at) at or after this time. */
  since?: Date;
  /** Only the indicators of this campaign's entities: its own and its cases' (subject-entities-repository.ts). */
  campaign_id?: string;
}

/** Every (campaign, entity) membership once: a campaign's own entities and its cases' (with when each joined). */
const MEMBERSHIP = `(${CAMPAIGN_MEMBERSHIP_SQL}) AS ce`;

export interface IndicatorExportRow {
  entity_id: string;
  type: 'url' | 'domain' | 'ip' | 'email' | 'wallet';
  value: string;
  display_value: string;
  attributes: Record<string, unknown>;
  category: string;
  confidence: number;
  tlp: TlpLabel;
  valid_from: Date;
  created_at: Date;
  updated_at: Date;
}

/** The columns of an indicator row (indicators joined to their entity), for exports and the feed. */
export const INDICATOR_COLUMNS = [
  'i.entity_id',
  'e.type',
  'e.value',
  'e.display_value',
  'e.attributes',
  'i.category',
  'i.confidence',
  'i.tlp',
  'i.valid_from',
  'i.created_at',
  'i.updated_at',
];

/** What the indicator exports write (spreadsheets, STIX): no display value, no attributes (a jsonb to parse per row). */
export type ExportedIndicatorRow = Omit<IndicatorExportRow, 'display_value' | 'attributes'>;

/**
 * The three timestamps as milliseconds since the epoch (float8, exact below 2^53), floored: the
 * same instant pg's own timestamptz parser gives a Date (it truncates the microseconds), at a
 * fraction of its cost (a regular expression per timestamp: a tenth of a million-row export's CPU).
 */
const TIMESTAMPS_AS_EPOCH_MS = ['valid_from', 'created_at', 'updated_at'].map((c) => `floor(extract(epoch from i.${c}) * 1000)::float8 AS ${c}`).join(', ');
interface EpochMs {
  valid_from: number;
  created_at: number;
  updated_at: number;
}

function applyIndicatorFilter(q: Knex.QueryBuilder, filter: IndicatorExportFilter, alias: string): Knex.QueryBuilder {
  if (filter.category) q.where(`${alias}.category`, filter.category);
  if (filter.min_confidence !== undefined) q.where(`${alias}.confidence`, '>=', filter.min_confidence);
  if (filter.since) q.where(`${alias}.updated_at`, '>=', filter.since);
  if (filter.campaign_id) {
    const campaignId = filter.campaign_id;
    q.whereIn(`${alias}.entity_id`, (sub) => sub.select('ce.entity_id').fromRaw(MEMBERSHIP).where('ce.campaign_id', campaignId));
  }
  return q;
}

/**
 * The exported indicators with their entities, in entity id order, one keyset batch per array.
 * Each batch takes the next `batchSize` indicators from the primary key (with the filter), then
 * joins the entities whose ids lie between the previous batch's last key and this batch's last one:
 * the work of a batch stays one batch wherever it starts. (Joined before the limit, PostgreSQL
 * merge-joined the entities index from its start for every batch: a million indicators went quadratic.)
 */
export function streamIndicatorPages(knex: Knex, filter: IndicatorExportFilter, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<ExportedIndicatorRow[]> {
  return keysetPages<ExportedIndicatorRow>(
    async (after) => {
      const batch = knex('indicators as i').select('i.entity_id', 'i.category', 'i.confidence', 'i.tlp', 'i.valid_from', 'i.created_at', 'i.updated_at').orderBy('i.entity_id').limit(batchSize);
      applyIndicatorFilter(batch, filter, 'i');
      if (after) batch.where('i.entity_id', '>', after);
      // Every indicator has its entity (foreign key, NOT NULL), so the inner join drops no row.
      const q = knex
        .with('batch', batch)
        .from('batch as i')
        .join('entities as e', 'e.id', 'i.entity_id')
        .select('i.entity_id', 'e.type', 'e.value', 'i.category', 'i.confidence', 'i.tlp')
        .select(knex.raw(TIMESTAMPS_AS_EPOCH_MS))
        .whereRaw('e.id <= (SELECT entity_id FROM batch ORDER BY entity_id DESC LIMIT 1)')
        .orderBy('i.entity_id');
      if (after) q.where('e.id', '>', after);
      const rows = (await q) as Array<Omit<ExportedIndicatorRow, keyof EpochMs> & EpochMs>;
      return rows.map((r) => ({ ...r, valid_from: new Date(r.valid_from), created_at: new Date(r.created_at), updated_at: new Date(r.updated_at) }));
    },
    (r) => r.entity_id,
    batchSize,
  );
}

export async function* streamIndicators(knex: Knex, filter: IndicatorExportFilter, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<ExportedIndicatorRow> {
  for await (const rows of streamIndicatorPages(knex, filter, batchSize)) yield* rows;
}

export interface ExportEdgeRow {
  id: string;
  kind: string;
  src_type: IndicatorExportRow['type'];
  src_value: string;
  dst_type: IndicatorExportRow['type'];
  dst_value: string;
  first_seen_at: Date;
  last_seen_at: Date;
}

/** Graph edges whose both ends are indicators the same filter exports. */
export function streamIndicatorEdges(knex: Knex, filter: IndicatorExportFilter, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<ExportEdgeRow> {
  return keysetBatches<ExportEdgeRow>(
    async (after) => {
      const q = knex('relationships as r')
        .join('indicators as si', 'si.entity_id', 'r.src_entity_id')
        .join('indicators as di', 'di.entity_id', 'r.dst_entity_id')
        .join('entities as s', 's.id', 'r.src_entity_id')
        .join('entities as d', 'd.id', 'r.dst_entity_id')
        .select('r.id', 'r.kind', 's.type as src_type', 's.value as src_value', 'd.type as dst_type', 'd.value as dst_value', 'r.first_seen_at', 'r.last_seen_at')
        .orderBy('r.id')
        .limit(batchSize);
      applyIndicatorFilter(q, filter, 'si');
      applyIndicatorFilter(q, filter, 'di');
      if (after) q.where('r.id', '>', after);
      return (await q) as ExportEdgeRow[];
    },
    (r) => r.id,
    batchSize,
  );
}

/** The columns of a campaign row (the campaigns table's CampaignRow) that its STIX object states. */
export type CampaignExportRow = Pick<CampaignRow, 'id' | 'name' | 'description' | 'taxonomy' | 'created_at' | 'updated_at'>;

/** Campaigns with at least one member (their own entity or one of their cases') among the exported indicators (few: read at once). */
export async function campaignsOfIndicators(knex: Knex, filter: IndicatorExportFilter): Promise<CampaignExportRow[]> {
  const members = knex.fromRaw(MEMBERSHIP).join('indicators as i', 'i.entity_id', 'ce.entity_id').whereRaw('ce.campaign_id = c.id').select(knex.raw('1'));
  applyIndicatorFilter(members, filter, 'i');
  return (await knex('campaigns as c').select('c.id', 'c.name', 'c.description', 'c.taxonomy', 'c.created_at', 'c.updated_at').whereExists(members).orderBy('c.id')) as CampaignExportRow[];
}

export interface CampaignMemberRow {
  campaign_id: string;
  entity_id: string;
  added_at: Date;
}

/**
 * (campaign, indicator) memberships among the exported indicators, in keyset batches, each pair
 * once: a campaign's own entities and its cases' (linked, sighted in the case, its intakes and
 * investigations, the wallets those found), so a campaign reaches STIX through its cases too.
 */
export function streamCampaignMembers(knex: Knex, filter: IndicatorExportFilter, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<CampaignMemberRow> {
  return keysetBatches<CampaignMemberRow>(
    async (after) => {
      const q = knex
        .fromRaw(MEMBERSHIP)
        .join('indicators as i', 'i.entity_id', 'ce.entity_id')
        .select('ce.campaign_id', 'ce.entity_id', 'ce.added_at')
        .orderByRaw('ce.campaign_id, ce.entity_id')
        .limit(batchSize);
      applyIndicatorFilter(q, filter, 'i');
      if (after) {
        const [c, e] = after.split('/');
        q.whereRaw('(ce.campaign_id, ce.entity_id) > (?::uuid, ?::uuid)', [c, e]);
      }
      return (await q) as CampaignMemberRow[];
    },
    (r) => `${r.campaign_id}/${r.entity_id}`,
    batchSize,
  );
}

export interface ResearcherGroup {
  entity_type: string;
  network: string;
  taxonomy: string;
  country: string;
  month: string;
  entity_count: number;
  /** Distinct victims behind the group (domain/analytics/small-group-suppression.ts says who counts). */
  victim_count: number;
  /** Per currency, with the distinct victims behind that currency's losses. */
  losses: Array<{ currency: string; amount: string; victims: number }>;
}

/**
 * Entities counted by type, wallet network, case taxonomy, country and month first seen, with the
 * distinct victims behind them and the losses reported by the intakes and cases that mention them
 * (each source's loss counted once per group, per currency). No entity value leaves. Every group is
 * returned, each loss with the victims behind it: suppression is the caller's (by victims).
 */
export async function researcherAggregate(knex: Knex, opts: { entityType?: GraphEntityType }): Promise<ResearcherGroup[]> {
  const { rows } = (await knex.raw(
    `
    WITH src AS (
      SELECT s.entity_id, 'intake' AS kind, i.id::text AS source_id, i.loss_amount AS amount, i.loss_currency::text AS currency, c.taxonomy,
             'intake:' || i.id::text AS victim
        FROM sightings s JOIN intakes i ON s.source_kind = 'intake' AND i.id::text = s.source_id
        LEFT JOIN cases c ON c.id = i.case_id
      UNION ALL
      SELECT s.entity_id, 'case', c.id::text, c.loss_amount, c.loss_currency::text, c.taxonomy, v.victim
        FROM sightings s JOIN cases c ON s.source_kind = 'case' AND c.id::text = s.source_id
        CROSS JOIN LATERAL ${CASE_VICTIMS_SQL('c')} v
    ),
    rows AS (
      SELECT e.id, e.type AS entity_type, COALESCE(e.attributes->>'network', '') AS network,
             COALESCE(src.taxonomy, '') AS taxonomy, COALESCE(upper(e.attributes->>'country'), '') AS country,
             to_char(e.first_seen_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month,
             src.kind, src.source_id, src.amount, src.currency, src.victim
        FROM entities e LEFT JOIN src ON src.entity_id = e.id
       WHERE (?::text IS NULL OR e.type = ?::text)
    ),
    grp AS (
      SELECT entity_type, network, taxonomy, country, month, count(DISTINCT id)::int AS entity_count, count(DISTINCT victim)::int AS victim_count
        FROM rows GROUP BY entity_type, network, taxonomy, country, month
    ),
    loss AS (
      SELECT entity_type, network, taxonomy, country, month, currency, sum(amount)::text AS amount
        FROM (SELECT DISTINCT entity_type, network, taxonomy, country, month, kind, source_id, amount, currency FROM rows WHERE amount IS NOT NULL AND currency IS NOT NULL) d
        GROUP BY entity_type, network, taxonomy, country, month, currency
    ),
    loss_victims AS (
      SELECT entity_type, network, taxonomy, country, month, currency, count(DISTINCT victim)::int AS victims
        FROM rows WHERE amount IS NOT NULL AND currency IS NOT NULL
        GROUP BY entity_type, network, taxonomy, country, month, currency
    )
    SELECT g.*, COALESCE(jsonb_agg(jsonb_build_object('currency', l.currency, 'amount', l.amount, 'victims', lv.victims) ORDER BY l.currency) FILTER (WHERE l.currency IS NOT NULL), '[]') AS losses
      FROM grp g LEFT JOIN loss l USING (entity_type, network, taxonomy, country, month)
      LEFT JOIN loss_victims lv USING (entity_type, network, taxonomy, country, month, currency)
     GROUP BY g.entity_type, g.network, g.taxonomy, g.country, g.month, g.entity_count, g.victim_count
     ORDER BY g.month, g.entity_type, g.network, g.taxonomy, g.country`,
    [opts.entityType ?? null, opts.entityType ?? null],
  )) as { rows: ResearcherGroup[] };
  return rows;
}
