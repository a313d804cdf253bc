// The export use cases: which rows an export reads, how they are shaped (masking, STIX mapping),
// and the download itself: streamed into the HTTP response with back-pressure, and audited when the
// stream ends (who, what, filters, rows, outcome). An aborted download (the client closed the
// connection before the end) stops reading and is recorded with outcome `aborted` and the rows
// handed to the connection until then; an export that failed midway is recorded as `failed`.
import { randomUUID } from 'node:crypto';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type Koa from 'koa';
import type { Knex } from 'knex';
import { recordAuditEvent } from '../../db/repositories/audit/audit-event-repository';
import {
  campaignsOfIndicators,
  streamCampaignMembers,
  streamIndicatorEdges,
  streamIndicatorPages,
  streamIndicators,
  type ExportedIndicatorRow,
  type IndicatorExportFilter,
  type IndicatorExportRow,
} from '../../db/repositories/exports/export-repository';
import { streamIntelEntities, type IntelEntityFilters, type IntelEntityRow } from '../../db/repositories/intelligence/intel-entity-repository';
import type { FeedRow } from '../../db/repositories/exports/feed-repository';
import {
  ENTITY_EXPORT_COLUMNS,
  INDICATOR_EXPORT_COLUMNS,
  csvCells,
  entityExportRecord,
  indicatorExportRecord,
  type ExportRecord,
} from '../../domain/exports/export-rows';
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
import { ExportAbortedError, mapRows, writeCsv, writeXlsx, type TabularColumn, type TabularFormat } from '../../infra/tabular-writer';
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
export function indicatorStixObjects(row: IndicatorExportRow | FeedRow): StixObject[] {
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

export interface DownloadSpec {
  actor: string;
  /** Audit action, e.g. `export.entities`. */
  action: string;
  format: string;
  filters: Record<string, unknown>;
  contentType: string;
  fileName: string;
  /** Writes the export; answers the row count (XLSX writers end `out`, the others leave it open). */
  write: (out: Writable, signal: AbortSignal) => Promise<number>;
  /** Called with the audit outcome once it is recorded (tests wait on the audit row instead). */
  onAudited?: (outcome: ExportOutcome, rows: number) => void;
}

/**
 * Streams an export into the response and audits it when the stream ends. The handler returns at
 * once; the body is a PassThrough the writer fills while the client reads.
 */
export function streamDownload(ctx: Koa.Context, knex: Knex, spec: DownloadSpec, log: { error: (obj: unknown, msg: string) => void }): void {
  const exportId = randomUUID();
  const out = new PassThrough();
  const abort = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) abort.abort();
  });
  ctx.type = spec.contentType;
  ctx.attachment(spec.fileName);
  ctx.set('X-Export-Id', exportId);
  ctx.status = 200;
  ctx.body = out;
  void (async () => {
    let rows = 0;
    let outcome: ExportOutcome = 'complete';
    try {
      rows = await spec.write(out, abort.signal);
      if (!out.writableEnded) out.end();
      await finished(ctx.res).catch(() => undefined);
      if (!ctx.res.writableFinished) outcome = 'aborted';
    } catch (err) {
      if (err instanceof ExportAbortedError || abort.signal.aborted) {
        outcome = 'aborted';
        rows = err instanceof ExportAbortedError ? err.rows : rows;
      } else {
        outcome = 'failed';
        log.error({ err, export_id: exportId }, 'export failed midway');
      }
      out.destroy();
    }
    try {
      await recordAuditEvent(knex, {
        actor: spec.actor,
        action: spec.action,
        target_type: 'export',
        target_id: exportId,
        details: { format: spec.format, filters: spec.filters, rows, outcome },
      });
    } catch (err) {
      log.error({ err, export_id: exportId }, 'could not record the export audit event');
    }
    spec.onAudited?.(outcome, rows);
  })();
}
