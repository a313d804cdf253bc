// The entity explorer's list (GET /intelligence/entities) and its streaming variant for exports:
// one query, one definition of an entity's loss, keyset pagination on each order.
//
// An entity's loss (kept on the entity by refreshEntityLoss, called by the risk-score activity
// whenever the entity's sightings change):
// - loss_by_currency: per ISO 4217 currency, the sum of loss_amount of the DISTINCT cases and
//   intakes whose sightings (source_kind 'case' / 'intake') mention the entity. Each source counts
//   once however often it mentions the entity; investigations and manual sightings carry no loss.
// - loss_max: the largest of those per-currency totals (no currency conversion). It is the one
//   figure `min_loss` and `order_by=loss` compare.
// - victim_count: the distinct intakes (victim reports) that mention the entity.
import type { Knex } from 'knex';
import { textAsUuid } from '../../text-uuid';
import { CASE_VICTIMS_SQL } from '../analytics/victim-repository';
import type { GraphEntityType } from '../../../domain/intelligence/entity-types';
import type { IntelEntityCursor, IntelEntityOrder } from '../../../domain/intelligence/entity-explorer';
import { prepared } from '../../prepared-query';
import type { EntityRow } from './entity-repository';

// The orders are the explorer's vocabulary (domain/intelligence/entity-explorer.ts); still exported
// here for the export routes, which read them from this module.

export interface IntelEntityFilters {
  entityType?: GraphEntityType;
  /** Keeps entities whose loss_max (largest per-currency total) is at least this (a decimal string or number). */
  minLoss?: string | number;
  /** Default 'risk'. Every order is descending, ties broken by id descending. */
  orderBy?: IntelEntityOrder;
  /** Keeps entities that at least this many distinct intakes mention and whose every loss currency rests on as many victims. */
  minVictims?: number;
}

/** An entity row (the graph's EntityRow) with the loss and victim figures kept beside its risk score. */
export interface IntelEntityRow extends EntityRow {
  /** {"EUR": "1200.00"}: decimal strings, never floats. */
  loss_by_currency: Record<string, string>;
  /** Decimal string: the largest per-currency total. */
  loss_max: string;
  victim_count: number;
  /** The fewest distinct victims behind any one currency of the loss; null with no loss, or not refreshed since it was added. */
  loss_victims: number | null;
}

/** The SQL key of each order (descending) and how its value is written into a cursor. */
const ORDER_KEYS: Record<IntelEntityOrder, { expr: string; text: string; cast: string }> = {
  risk: { expr: 'COALESCE(e.risk_score, -1)', text: 'COALESCE(e.risk_score, -1)::text', cast: 'integer' },
  loss: { expr: 'e.loss_max', text: 'e.loss_max::text', cast: 'numeric' },
  last_seen: { expr: 'e.last_seen_at', text: `to_char(e.last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, cast: 'timestamptz' },
  sightings: { expr: 'e.sighting_count', text: 'e.sighting_count::text', cast: 'integer' },
};

/** The columns of an entity row in the explorer's answers (the detail adds its risk explanation). */
export const INTEL_ENTITY_COLUMNS = [
  'e.id',
  'e.type',
  'e.value',
  'e.display_value',
  'e.attributes',
  'e.first_seen_at',
  'e.last_seen_at',
  'e.sighting_count',
  'e.risk_score',
  'e.loss_by_currency',
  'e.loss_max',
  'e.victim_count',
  'e.loss_victims',
];

/**
 * The list's SQL of one shape (order, which filters, a cursor or not), written once per shape: the
 * list runs on every request of the explorer, and composing it with the query builder cost a
 * compilation per request (two with the statement's name).
 */
const listSqlByShape = new Map<string, string>();
function listSql(order: IntelEntityOrder, hasType: boolean, hasMinLoss: boolean, hasAfter: boolean, hasMinVictims = false): string {
  const shape = `${order}:${hasType}:${hasMinLoss}:${hasAfter}:${hasMinVictims}`;
  let sql = listSqlByShape.get(shape);
  if (sql === undefined) {
    const key = ORDER_KEYS[order];
    const where = [
      ...(hasType ? ['e.type = ?'] : []),
      ...(hasMinLoss ? ['e.loss_max >= ?::numeric'] : []),
      ...(hasMinVictims ? ['e.victim_count >= ?::integer AND e.loss_victims >= ?::integer'] : []),
      ...(hasAfter ? [`(${key.expr}, e.id) < (?::${key.cast}, ?::uuid)`] : []),
    ];
    sql =
      `SELECT ${INTEL_ENTITY_COLUMNS.join(', ')}, ${key.text} AS _key FROM entities e` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY ${key.expr} DESC, e.id DESC LIMIT ?`;
    listSqlByShape.set(shape, sql);
  }
  return sql;
}

/**
 * One page of the entity list, in `filters.orderBy` order (descending, then id descending).
 * `page.after` is the `next` of the previous page; a cursor of another order is ignored (first page).
 */
export async function listIntelEntities(
  knex: Knex,
  filters: IntelEntityFilters,
  page: { limit: number; after?: IntelEntityCursor },
): Promise<{ rows: IntelEntityRow[]; next: IntelEntityCursor | null }> {
  const order = filters.orderBy ?? 'risk';
  const after = page.after && page.after.order === order ? page.after : undefined;
  const values: Array<string | number> = [];
  if (filters.entityType) values.push(filters.entityType);
  if (filters.minLoss !== undefined) values.push(String(filters.minLoss));
  if (filters.minVictims !== undefined) values.push(filters.minVictims, filters.minVictims);
  if (after) values.push(after.key, after.id);
  values.push(page.limit + 1);
  const sql = listSql(order, !!filters.entityType, filters.minLoss !== undefined, !!after, filters.minVictims !== undefined);
  const { rows: raw } = (await prepared(knex.raw(sql, values))) as { rows: Array<IntelEntityRow & { _key: string }> };
  const more = raw.length > page.limit;
  const rows = raw.slice(0, page.limit);
  const last = rows[rows.length - 1];
  return {
    rows: rows.map(({ _key: _k, ...row }) => row as IntelEntityRow),
    next: more && last ? { order, key: last._key, id: last.id } : null,
  };
}

/**
 * Every entity matching `filters`, in list order, read page by page (keyset, `batchSize` rows at a
 * time) so that an export of a million entities never holds more than one batch in memory.
 */
export async function* streamIntelEntities(knex: Knex, filters: IntelEntityFilters, batchSize = 1000): AsyncGenerator<IntelEntityRow> {
  let after: IntelEntityCursor | undefined;
  for (;;) {
    const { rows, next } = await listIntelEntities(knex, filters, { limit: batchSize, after });
    for (const row of rows) yield row;
    if (!next) return;
    after = next;
  }
}

/** Recomputes loss_by_currency, loss_max, victim_count and loss_victims of these entities (idempotent). */
export async function refreshEntityLoss(knex: Knex, entityIds: string[]): Promise<void> {
  if (entityIds.length === 0) return;
  await knex.raw(
    `WITH target AS (SELECT unnest(?::uuid[]) AS id),
     losses AS (
       SELECT s.entity_id, c.loss_currency::text AS currency, c.loss_amount AS amount
         FROM sightings s JOIN cases c ON s.source_kind = 'case' AND c.id = ${textAsUuid('s.source_id')}
        WHERE s.entity_id IN (SELECT id FROM target) AND c.loss_amount IS NOT NULL
       UNION ALL
       SELECT s.entity_id, i.loss_currency::text, i.loss_amount
         FROM sightings s JOIN intakes i ON s.source_kind = 'intake' AND i.id = ${textAsUuid('s.source_id')}
        WHERE s.entity_id IN (SELECT id FROM target) AND i.loss_amount IS NOT NULL AND i.loss_currency IS NOT NULL
     ),
     per_currency AS (SELECT entity_id, currency, SUM(amount) AS total FROM losses GROUP BY entity_id, currency),
     per_entity AS (
       SELECT t.id,
              COALESCE(jsonb_object_agg(p.currency, p.total::text) FILTER (WHERE p.currency IS NOT NULL), '{}'::jsonb) AS by_currency,
              COALESCE(MAX(p.total), 0) AS max_total
         FROM target t LEFT JOIN per_currency p ON p.entity_id = t.id
        GROUP BY t.id
     ),
     victims AS (
       SELECT t.id, COUNT(s.entity_id)::int AS n
         FROM target t LEFT JOIN sightings s ON s.entity_id = t.id AND s.source_kind = 'intake'
        GROUP BY t.id
     ),
     loss_victims AS (
       SELECT entity_id, currency, COUNT(DISTINCT victim)::int AS n FROM (
         SELECT s.entity_id, c.loss_currency::text AS currency, cv.victim
           FROM sightings s JOIN cases c ON s.source_kind = 'case' AND c.id = ${textAsUuid('s.source_id')}
           CROSS JOIN LATERAL ${CASE_VICTIMS_SQL('c')} cv
          WHERE s.entity_id IN (SELECT id FROM target) AND c.loss_amount IS NOT NULL
         UNION ALL
         SELECT s.entity_id, i.loss_currency::text, 'intake:' || i.id::text
           FROM sightings s JOIN intakes i ON s.source_kind = 'intake' AND i.id = ${textAsUuid('s.source_id')}
          WHERE s.entity_id IN (SELECT id FROM target) AND i.loss_amount IS NOT NULL AND i.loss_currency IS NOT NULL
       ) x GROUP BY entity_id, currency
     ),
     fewest AS (SELECT t.id, MIN(lv.n)::int AS n FROM target t LEFT JOIN loss_victims lv ON lv.entity_id = t.id GROUP BY t.id)
     UPDATE entities e
        SET loss_by_currency = p.by_currency, loss_max = p.max_total, victim_count = v.n, loss_victims = f.n
       FROM per_entity p JOIN victims v ON v.id = p.id JOIN fewest f ON f.id = p.id
      WHERE e.id = p.id`,
    [entityIds],
  );
}
