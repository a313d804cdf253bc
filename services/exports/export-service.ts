// The export use cases (researchers may use only the aggregate export):
// - exportEntities: the entity list as a CSV or XLSX download (bank details as the caller may see them)
// - exportIndicators: the indicators as a CSV, XLSX or STIX 2.1 download
// - exportResearcherAggregate: the anonymized aggregate of the entities (groups of few victims suppressed), audited
// - writeEntityExport, writeIndicatorSpreadsheet, writeIndicatorStix: the writers behind the downloads
//   (also measured by bench/exports.bench.ts); indicatorStixObjects: the STIX objects of one indicator row
// A download is described here (what it writes, its id, its audit) and streamed by the API
// (api/routes/exports/export-download.ts), which audits it when the stream ends with the outcome:
// `complete`, `aborted` (the client closed the connection before the end: the rows handed to the
// connection until then) or `failed` (midway). Each export is audited: who, what, filters, rows.
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { Knex } from 'knex';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import {
  campaignsOfIndicators,
  researcherAggregate,
  streamCampaignMembers,
  streamIndicatorEdges,
  streamIndicatorPages,
  streamIndicators,
  type ExportedIndicatorRow,
  type IndicatorExportFilter,
  type IndicatorExportRow,
} from '../../db/repositories/exports/export-repository';
import { streamIntelEntities, type IntelEntityFilters, type IntelEntityRow } from '../../db/repositories/intelligence/intel-entity-repository';
import type { IntelEntityOrder } from '../../domain/intelligence/entity-explorer';
import { principalName } from '../../domain/accounts/principal-name';
import { showsFigure, suppressSmallGroups } from '../../domain/analytics/small-group-suppression';
import type { Principal } from '../../domain/accounts/roles';
import { ENTITY_EXPORT_COLUMNS, INDICATOR_EXPORT_COLUMNS, csvCells, type ExportRecord } from '../../domain/exports/export-rows';
import {
  bundleHeadObjects,
  observable,
  observableJson,
  stixCampaign,
  stixIndicatesCampaign,
  stixIndicator,
  stixIndicatorJson,
  stixRelationship,
  type StixObject,
} from '../../domain/exports/stix-objects';
import type { GraphEntityType } from '../../domain/intelligence/entity-types';
import { mapRows, writeCsv, writeXlsx, type TabularColumn, type TabularFormat } from '../../infra/tabular-writer';
import type { ServiceDeps } from '../service-deps';
import { entityExportRecord, indicatorExportRecord, seesClearBankDetails } from './export-records';
import { writeStixBundle } from './export-writers';

export type ExportOutcome = 'complete' | 'aborted' | 'failed';

export interface EntityExportFilter extends IntelEntityFilters {
  /** Entities seen (last_seen_at) at or after this time. */
  since?: Date;
}

/**
 * The entity list's rows (its filters and order: db/repositories/intelligence/intel-entity-repository.ts), keyset
 * batches of 1,000, `since` applied on the way. Batches of 5,000 lived long enough to be promoted
 * out of V8's young generation: the heap, and the XLSX export's peak RSS, grew by ~100 MB.
 */
async function* exportedEntities(knex: Knex, filter: EntityExportFilter): AsyncGenerator<IntelEntityRow> {
  for await (const e of streamIntelEntities(knex, filter, 1000)) {
    if (!filter.since || e.last_seen_at >= filter.since) yield e;
  }
}

/** XLSX widths: the value columns are wide. */
const spreadsheetColumns = (columns: readonly string[]): TabularColumn[] =>
  columns.map((c) => ({ key: c, width: c === 'value' || c === 'display_value' ? 50 : 20 }));

/** One sheet of export records: CSV cells formula-neutralized, XLSX cells exact (a string cell is text). */
function writeSpreadsheet<C extends string>(format: TabularFormat, sheet: string, columns: readonly C[], records: AsyncIterable<ExportRecord<C>>, out: Writable, signal?: AbortSignal): Promise<number> {
  return format === 'csv'
    ? writeCsv(columns, mapRows(records, csvCells), out, signal)
    : writeXlsx(sheet, spreadsheetColumns(columns), records, out, signal);
}

export async function writeEntityExport(knex: Knex, format: TabularFormat, filter: EntityExportFilter, clearBankDetails: boolean, out: Writable, signal?: AbortSignal): Promise<number> {
  const records = mapRows(exportedEntities(knex, filter), (e) => entityExportRecord(e, clearBankDetails));
  return writeSpreadsheet(format, 'entities', ENTITY_EXPORT_COLUMNS, records, out, signal);
}

export async function writeIndicatorSpreadsheet(knex: Knex, format: TabularFormat, filter: IndicatorExportFilter, clearBankDetails: boolean, out: Writable, signal?: AbortSignal): Promise<number> {
  const records = mapRows(streamIndicators(knex, filter), (i) => indicatorExportRecord(i, clearBankDetails));
  return writeSpreadsheet(format, 'indicators', INDICATOR_EXPORT_COLUMNS, records, out, signal);
}

/** The observable and the indicator of one indicator row. */
export function indicatorStixObjects(row: IndicatorExportRow): StixObject[] {
  return [observable(row.type, row.value), stixIndicator({ ...row, entity_id: row.entity_id })];
}

/**
 * The observable and the indicator of each row as JSON text, made as the writer asks for them
 * (written directly: building and walking two objects per row cost more than the text).
 */
function* indicatorPageJson(rows: readonly ExportedIndicatorRow[]): Generator<string> {
  for (const row of rows) {
    yield observableJson(row.type, row.value);
    yield stixIndicatorJson(row);
  }
}

/**
 * Every STIX object of an indicator export, in order, a batch at a time (one keyset batch of
 * indicators is one synchronous iterable: an await per object cost more than the object): the
 * bundle head (producer, TLP markings, the wallet SCO's extension-definition), each indicator with
 * its observable (as JSON text), the graph's edges between exported observables, the campaigns
 * they belong to, and `indicates` relationships to them. `counted.indicators` counts the indicators.
 */
export async function* indicatorBundleObjects(knex: Knex, filter: IndicatorExportFilter, counted = { indicators: 0 }): AsyncGenerator<StixObject | Iterable<StixObject | string>> {
  yield bundleHeadObjects();
  for await (const rows of streamIndicatorPages(knex, filter)) {
    counted.indicators += rows.length;
    yield indicatorPageJson(rows);
  }
  for await (const e of streamIndicatorEdges(knex, filter)) {
    yield stixRelationship({ id: e.id, kind: e.kind, src: { type: e.src_type, value: e.src_value }, dst: { type: e.dst_type, value: e.dst_value }, first_seen_at: e.first_seen_at, last_seen_at: e.last_seen_at });
  }
  yield (await campaignsOfIndicators(knex, filter)).map(stixCampaign);
  for await (const m of streamCampaignMembers(knex, filter)) yield stixIndicatesCampaign(m.entity_id, m.campaign_id, m.added_at);
}

/** Writes a STIX bundle of the indicator export; answers the number of indicators (not objects). */
export async function writeIndicatorStix(knex: Knex, filter: IndicatorExportFilter, out: Writable, signal?: AbortSignal): Promise<{ indicators: number; objects: number }> {
  const counted = { indicators: 0 };
  const n = await writeStixBundle(`bundle--${randomUUID()}`, indicatorBundleObjects(knex, filter, counted), out, signal);
  return { indicators: counted.indicators, objects: n };
}

/** A download: its id (X-Export-Id, the audit event's target), what it writes, and its audit. */
export interface ExportDownload {
  id: string;
  /** Writes the export; answers the row count (XLSX writers end `out`, the others leave it open). */
  write: (out: Writable, signal: AbortSignal) => Promise<number>;
  /** Records the download in the audit log, once its stream ended. */
  audit: (outcome: ExportOutcome, rows: number) => Promise<void>;
}

function auditedDownload(
  knex: Knex,
  principal: Principal | null,
  what: { action: string; format: string; filters: Record<string, unknown> },
  write: ExportDownload['write'],
): ExportDownload {
  const id = randomUUID();
  const actor = principalName(principal);
  return {
    id,
    write,
    audit: async (outcome, rows) => {
      await recordAuditEvent(knex, {
        actor,
        action: what.action,
        target_type: 'export',
        target_id: id,
        details: { format: what.format, filters: what.filters, rows, outcome },
      });
    },
  };
}

export interface EntityExportInput {
  fmt: TabularFormat;
  entity_type?: GraphEntityType;
  /** As the entity list: the largest per-currency loss at least this (a decimal string). */
  min_loss?: string;
  order_by: IntelEntityOrder;
  /** ISO 8601: only entities seen at or after it. */
  since?: string;
}

export function exportEntities(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, input: EntityExportInput): ExportDownload {
  const filter = { entityType: input.entity_type, minLoss: input.min_loss, orderBy: input.order_by, since: input.since ? new Date(input.since) : undefined };
  const clear = seesClearBankDetails(principal);
  return auditedDownload(
    deps.knex,
    principal,
    {
      action: 'export.entities',
      format: input.fmt,
      filters: { entity_type: input.entity_type ?? null, min_loss: input.min_loss ?? null, order_by: input.order_by, since: input.since ?? null, bank_details: clear ? 'clear' : 'masked' },
    },
    (out, signal) => writeEntityExport(deps.knex, input.fmt, filter, clear, out, signal),
  );
}

export interface IndicatorExportInput {
  fmt: TabularFormat | 'stix';
  category?: string;
  min_confidence?: number;
  /** ISO 8601: only indicators changed at or after it. */
  since?: string;
  /** Only this campaign's indicators (its own entities and its cases'). */
  campaign_id?: string;
}

export function exportIndicators(deps: Pick<ServiceDeps, 'knex'>, principal: Principal | null, input: IndicatorExportInput): ExportDownload {
  const filter = { category: input.category, min_confidence: input.min_confidence, since: input.since ? new Date(input.since) : undefined, campaign_id: input.campaign_id };
  const clear = seesClearBankDetails(principal);
  const fmt = input.fmt;
  return auditedDownload(
    deps.knex,
    principal,
    { action: 'export.indicators', format: fmt, filters: { category: input.category ?? null, min_confidence: input.min_confidence ?? null, since: input.since ?? null, campaign_id: input.campaign_id ?? null } },
    async (out, signal) => (fmt === 'stix' ? (await writeIndicatorStix(deps.knex, filter, out, signal)).indicators : writeIndicatorSpreadsheet(deps.knex, fmt, filter, clear, out, signal)),
  );
}

import type { ResearcherGroup } from '../../db/repositories/exports/export-repository';
/** A group as the export shows it: each currency's loss only when enough victims stand behind it. */
export type ResearcherExportGroup = Omit<ResearcherGroup, 'losses'> & { losses: Array<{ currency: string; amount: string }> };

export interface ResearcherAggregate {
  groups: ResearcherExportGroup[];
  /** Groups left out because fewer distinct victims than the threshold stand behind them. */
  suppressed_groups: number;
}

/**
 * Entities counted by type, wallet network, case taxonomy, country and month, with their victims
 * and losses; groups resting on fewer distinct victims than the configured minimum are left out
 * (counted in suppressed_groups; domain/analytics/small-group-suppression.ts). Audited (the format
 * the caller asked for included).
 */
export async function exportResearcherAggregate(
  deps: Pick<ServiceDeps, 'knex' | 'config'>,
  principal: Principal | null,
  input: { fmt: 'json' | 'csv'; entity_type?: GraphEntityType },
): Promise<{ min_group_size: number } & ResearcherAggregate> {
  const minGroupSize = deps.config.exports.min_group_size;
  const { kept, suppressed } = suppressSmallGroups(await researcherAggregate(deps.knex, { entityType: input.entity_type }), (g) => g.victim_count, minGroupSize);
  // A group of many victims can still owe a currency's loss to one of them: that currency is left out.
  const groups = kept.map((g) => ({ ...g, losses: g.losses.filter((l) => showsFigure(l.victims, minGroupSize)).map(({ currency, amount }) => ({ currency, amount })) }));
  const agg: ResearcherAggregate = { groups, suppressed_groups: suppressed };
  await recordAuditEvent(deps.knex, {
    actor: principalName(principal),
    action: 'export.researcher_entities',
    target_type: 'export',
    target_id: 'researcher/entities',
    details: { format: input.fmt, filters: { entity_type: input.entity_type ?? null }, rows: agg.groups.length, suppressed_groups: agg.suppressed_groups, min_group_size: minGroupSize, outcome: 'complete' },
  });
  return { min_group_size: minGroupSize, ...agg };
}
