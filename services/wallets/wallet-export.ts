// An investigation's wallets as CSV, XLSX or JSON, written by the platform's tabular writer
// (infra/tabular-writer.ts). Shared by `fip ssi wallet export`, the API download routes and the LEA
// package; rows come from any async iterable (a DB stream) and go to any Writable (file, stdout,
// HTTP response, ZIP entry).
import type { Writable } from 'node:stream';
import { EXPORT_COLUMNS, toCsvRow, toJsonRow, toXlsxRow, type WalletRecord } from '../../domain/wallets/wallet-export-rows';
import { TABULAR_CONTENT_TYPES, mapRows, writeCsv, writeJsonArray, writeXlsx } from '../../infra/tabular-writer';

export type WalletExportFormat = 'csv' | 'xlsx' | 'json';
export const WALLET_EXPORT_FORMATS: readonly WalletExportFormat[] = ['csv', 'xlsx', 'json'];

export const WALLET_EXPORT_CONTENT_TYPES: Record<WalletExportFormat, string> = TABULAR_CONTENT_TYPES;

/** XLSX widths: the context and the address are wide. */
const XLSX_COLUMNS = EXPORT_COLUMNS.map((c) => ({ key: c, width: c === 'context' ? 80 : c === 'address' ? 50 : 16 }));

/**
 * Writes every row to `out`; returns the row count. CSV and JSON leave `out` open; the XLSX writer
 * ends it (the zip stream is piped into it).
 */
export async function writeWalletExport(format: WalletExportFormat, rows: AsyncIterable<WalletRecord>, out: Writable): Promise<number> {
  if (format === 'csv') return writeCsv(EXPORT_COLUMNS, mapRows(rows, toCsvRow), out);
  if (format === 'xlsx') return writeXlsx('wallets', XLSX_COLUMNS, mapRows(rows, toXlsxRow), out);
  return writeJsonArray(mapRows(rows, toJsonRow), out);
}
