// Streaming writers of the exports: CSV (csv-stringify), XLSX (exceljs' streaming WorkbookWriter)
// and STIX 2.1 bundles written object by object. Rows come from async iterables (keyset batches of
// db/repositories/exports/export-repository.ts) and go to any Writable, honouring back-pressure, so a
// million-row export holds one batch in memory. An AbortSignal (the client went away) stops the
// reading between rows.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { csvCells, type ExportRecord } from '../../domain/exports/export-rows';
import type { StixObject } from '../../domain/exports/stix-objects';

export type SpreadsheetFormat = 'csv' | 'xlsx';

export const EXPORT_CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  stix: 'application/stix+json;version=2.1',
  json: 'application/json; charset=utf-8',
} as const;

export class ExportAbortedError extends Error {
  constructor(readonly rows: number) {
    super('the export was aborted');
  }
}

function checkAbort(signal: AbortSignal | undefined, rows: number): void {
  if (signal?.aborted) throw new ExportAbortedError(rows);
}

async function write(out: Writable, chunk: string, signal?: AbortSignal): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain', signal ? { signal } : undefined);
}

/** CSV with a header row (UTF-8, every text cell formula-neutralized). Leaves `out` open. */
export async function writeCsv<C extends string>(columns: readonly C[], records: AsyncIterable<ExportRecord<C>>, out: Writable, signal?: AbortSignal): Promise<number> {
  const csv = stringify({ header: true, columns: [...columns] });
  csv.on('data', (d: Buffer) => {
    if (!out.write(d)) {
      csv.pause();
      out.once('drain', () => csv.resume());
    }
  });
  const done = once(csv, 'end');
  let n = 0;
  try {
    for await (const r of records) {
      checkAbort(signal, n);
      if (!csv.write(csvCells(r))) await once(csv, 'drain', signal ? { signal } : undefined);
      n++;
    }
  } catch (err) {
    csv.destroy();
    if (signal?.aborted) throw new ExportAbortedError(n);
    throw err;
  }
  csv.end();
  await done;
  return n;
}

/** Bytes a sheet stream's consumer may hold before the writer waits for it (a few of exceljs' 64 KB chunks). */
const XLSX_SHEET_BUFFER_BYTES = 256 * 1024;

/**
 * The streams exceljs hands a worksheet's XML to (on the way to the zip's deflate). exceljs writes
 * into them ignoring `write()`'s answer, so without this the whole sheet piles up in memory
 * whenever deflate or the client is slower than the rows (725 MB at a million rows). Internal to
 * exceljs 4 (`WorksheetWriter.stream`, a StreamBuf, and its `pipes`): test/exports/export-writers.test.ts
 * fails should an upgrade move them.
 */
function sheetConsumers(sheet: ExcelJS.Worksheet): Writable[] {
  const stream = (sheet as unknown as { stream?: { pipes?: unknown } }).stream;
  return Array.isArray(stream?.pipes) ? (stream.pipes as Writable[]) : [];
}

function bufferedBytes(w: Writable): number {
  return w.writableLength ?? (w as unknown as { _writableState?: { length?: number } })._writableState?.length ?? 0;
}

/**
 * XLSX through the streaming workbook writer, one sheet with a header row. Text cells are written
 * as XLSX strings, unchanged: a string cell is typed text and never a formula (`=1+1` stays text),
 * so no apostrophe is added. No shared strings and no styles (both would be kept in memory for the
 * whole sheet); each row is committed, and the writer waits while the zip has more than a few
 * chunks of the sheet unread, so memory stays flat and a slow client slows the reading. Ends `out`
 * (the zip stream is piped into it).
 */
export async function writeXlsx<C extends string>(sheetName: string, columns: readonly C[], records: AsyncIterable<ExportRecord<C>>, out: Writable, signal?: AbortSignal): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: c, key: c, width: c === 'value' || c === 'display_value' ? 50 : 20 }));
  let n = 0;
  for await (const r of records) {
    checkAbort(signal, n);
    sheet.addRow(r).commit();
    n++;
    for (const consumer of sheetConsumers(sheet)) {
      if (bufferedBytes(consumer) > XLSX_SHEET_BUFFER_BYTES) await once(consumer, 'drain', signal ? { signal } : undefined);
    }
  }
  sheet.commit();
  await workbook.commit();
  return n;
}

/**
 * A STIX 2.1 bundle written incrementally: `{"type":"bundle","id":...,"objects":[` object by object
 * `]}`. `objects` yields objects or batches of them (any iterable, walked synchronously: an await
 * per object costs more than the object); a string in a batch is an object already serialized
 * (JSON). Leaves `out` open.
 */
export async function writeStixBundle(bundleId: string, objects: AsyncIterable<StixObject | Iterable<StixObject | string>>, out: Writable, signal?: AbortSignal): Promise<number> {
  await write(out, `{"type":"bundle","id":${JSON.stringify(bundleId)},"objects":[`, signal);
  let n = 0;
  // Objects are joined into ~64 KB chunks: one write per object would cost more than the JSON.
  let buffer = '';
  for await (const item of objects) {
    checkAbort(signal, n);
    for (const o of isStixObject(item) ? [item] : item) {
      buffer += `${n ? ',' : ''}\n${typeof o === 'string' ? o : JSON.stringify(o)}`;
      n++;
      if (buffer.length > 65536) {
        await write(out, buffer, signal);
        checkAbort(signal, n);
        buffer = '';
      }
    }
  }
  await write(out, `${buffer}\n]}\n`, signal);
  return n;
}

function isStixObject(item: StixObject | Iterable<StixObject | string>): item is StixObject {
  return typeof (item as StixObject).type === 'string';
}

/** Maps an async iterable (lazily). */
export async function* mapRows<T, U>(rows: AsyncIterable<T>, fn: (row: T) => U): AsyncGenerator<U> {
  for await (const r of rows) yield fn(r);
}
