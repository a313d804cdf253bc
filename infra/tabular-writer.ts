// The platform's one streaming writer of tables: CSV (csv-stringify) and XLSX (exceljs' streaming
// WorkbookWriter), plus a JSON array beside them, used by every export (entities, indicators,
// wallets of a scan, the LEA package's wallet list). Rows come from async iterables (keyset batches
// of a repository, a DB stream) and go to any Writable (HTTP response, file, stdout, a ZIP entry),
// honouring back-pressure, so a million-row export holds one batch in memory. An AbortSignal (the
// client went away) stops the reading between rows.
//
// The writer writes cells as it gets them: making a CSV cell safe against formula injection is the
// caller's row mapping (domain/spreadsheet-safety.ts), because only the caller knows which cells are
// text. XLSX string cells are typed text and never formulas, so they stay exact.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';

export type TabularFormat = 'csv' | 'xlsx';

export const TABULAR_CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
} as const;

/** A column by its name (the header and, for object rows, the key), with a width in XLSX characters. */
export type TabularColumn = string | { key: string; width: number };

/** A row: values in column order, or an object keyed by column name. */
export type TabularRow = readonly unknown[] | Readonly<Record<string, unknown>>;

const DEFAULT_XLSX_WIDTH = 20;

export class ExportAbortedError extends Error {
  constructor(readonly rows: number) {
    super('the export was aborted');
  }
}

/** Throws ExportAbortedError (with the rows written so far) once the signal has fired. */
export function checkAbort(signal: AbortSignal | undefined, rows: number): void {
  if (signal?.aborted) throw new ExportAbortedError(rows);
}

const keyOf = (c: TabularColumn) => (typeof c === 'string' ? c : c.key);

/** Writes a chunk, waiting for `drain` when `out` asks to. */
export async function writeChunk(out: Writable, chunk: string | Buffer, signal?: AbortSignal): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain', signal ? { signal } : undefined);
}

/** CSV with a header row (UTF-8). Leaves `out` open. */
export async function writeCsv(columns: readonly TabularColumn[], rows: AsyncIterable<TabularRow>, out: Writable, signal?: AbortSignal): Promise<number> {
  const csv = stringify({ header: true, columns: columns.map(keyOf) });
  csv.on('data', (d: Buffer) => {
    if (!out.write(d)) {
      csv.pause();
      out.once('drain', () => csv.resume());
    }
  });
  const done = once(csv, 'end');
  let n = 0;
  try {
    for await (const r of rows) {
      checkAbort(signal, n);
      if (!csv.write(r)) await once(csv, 'drain', signal ? { signal } : undefined);
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
 * XLSX through the streaming workbook writer, one sheet with a header row. No shared strings and
 * no styles (both would be kept in memory for the whole sheet); each row is committed, and the
 * writer waits while the zip has more than a few chunks of the sheet unread, so memory stays flat
 * and a slow client slows the reading. Ends `out` (the zip stream is piped into it).
 */
export async function writeXlsx(sheetName: string, columns: readonly TabularColumn[], rows: AsyncIterable<TabularRow>, out: Writable, signal?: AbortSignal): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: keyOf(c), key: keyOf(c), width: typeof c === 'string' ? DEFAULT_XLSX_WIDTH : c.width }));
  let n = 0;
  for await (const r of rows) {
    checkAbort(signal, n);
    sheet.addRow(r as unknown[]).commit();
    n++;
    for (const consumer of sheetConsumers(sheet)) {
      if (bufferedBytes(consumer) > XLSX_SHEET_BUFFER_BYTES) await once(consumer, 'drain', signal ? { signal } : undefined);
    }
  }
  sheet.commit();
  await workbook.commit();
  return n;
}

/** A JSON array, one value per line. Leaves `out` open. */
export async function writeJsonArray(rows: AsyncIterable<unknown>, out: Writable, signal?: AbortSignal): Promise<number> {
  let n = 0;
  await writeChunk(out, '[', signal);
  for await (const r of rows) {
    checkAbort(signal, n);
    await writeChunk(out, `${n ? ',' : ''}\n  ${JSON.stringify(r)}`, signal);
    n++;
  }
  await writeChunk(out, n ? '\n]\n' : ']\n', signal);
  return n;
}

/** Maps an async iterable (lazily). */
export async function* mapRows<T, U>(rows: AsyncIterable<T>, fn: (row: T) => U): AsyncGenerator<U> {
  for await (const r of rows) yield fn(r);
}
