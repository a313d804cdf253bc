// Streaming writers of an investigation's wallets as CSV (csv-stringify), XLSX (exceljs streaming
// workbook writer) or JSON. Shared by `fip ssi wallet export` and the API download routes; rows
// come from any async iterable (a DB stream) and go to any Writable (file, stdout, HTTP response).
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { EXPORT_COLUMNS, toCsvRow, toJsonRow, toXlsxRow, type WalletRecord } from '../../domain/wallets/wallet-export-rows';

export type WalletExportFormat = 'csv' | 'xlsx' | 'json';
export const WALLET_EXPORT_FORMATS: readonly WalletExportFormat[] = ['csv', 'xlsx', 'json'];

export const WALLET_EXPORT_CONTENT_TYPES: Record<WalletExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
};

async function write(out: Writable, chunk: string | Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

async function writeCsv(rows: AsyncIterable<WalletRecord>, out: Writable): Promise<number> {
  const csv = stringify({ header: true, columns: [...EXPORT_COLUMNS] });
  csv.on('data', (d: Buffer) => {
    if (!out.write(d)) {
      csv.pause();
      out.once('drain', () => csv.resume());
    }
  });
  const done = once(csv, 'end');
  let n = 0;
  for await (const r of rows) {
    if (!csv.write(toCsvRow(r))) await once(csv, 'drain');
    n++;
  }
  csv.end();
  await done;
  return n;
}

async function writeXlsx(rows: AsyncIterable<WalletRecord>, out: Writable): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('wallets');
  sheet.columns = EXPORT_COLUMNS.map((c) => ({ header: c, key: c, width: c === 'context' ? 80 : c === 'address' ? 50 : 16 }));
  let n = 0;
  for await (const r of rows) {
    sheet.addRow(toXlsxRow(r)).commit();
    n++;
  }
  sheet.commit();
  await workbook.commit();
  return n;
}

async function writeJson(rows: AsyncIterable<WalletRecord>, out: Writable): Promise<number> {
  let n = 0;
  await write(out, '[');
  for await (const r of rows) {
    await write(out, `${n ? ',' : ''}\n  ${JSON.stringify(toJsonRow(r))}`);
    n++;
  }
  await write(out, n ? '\n]\n' : ']\n');
  return n;
}

/**
 * Writes every row to `out`; returns the row count. CSV and JSON leave `out` open; the XLSX writer
 * ends it (the zip stream is piped into it).
 */
export async function writeWalletExport(format: WalletExportFormat, rows: AsyncIterable<WalletRecord>, out: Writable): Promise<number> {
  if (format === 'csv') return writeCsv(rows, out);
  if (format === 'xlsx') return writeXlsx(rows, out);
  return writeJson(rows, out);
}
