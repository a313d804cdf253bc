// Columns and cells of the entity and indicator spreadsheets (CSV and XLSX). Which row goes into which
// column (and the masking of bank details) is services/exports/export-records.ts: it reads the
// repositories' rows.
import { safeCell } from '../spreadsheet-safety';

export const ENTITY_EXPORT_COLUMNS = [
  'id',
  'type',
  'value',
  'display_value',
  'network',
  'token',
  'country',
  'first_seen_at',
  'last_seen_at',
  'sighting_count',
  'risk_score',
  'loss',
  'victim_count',
] as const;

export const INDICATOR_EXPORT_COLUMNS = [
  'id',
  'type',
  'value',
  'category',
  'confidence',
  'tlp',
  'valid_from',
  'created_at',
  'updated_at',
] as const;

export type EntityExportColumn = (typeof ENTITY_EXPORT_COLUMNS)[number];
export type IndicatorExportColumn = (typeof INDICATOR_EXPORT_COLUMNS)[number];
export type ExportRecord<C extends string> = Record<C, string | number | null>;

/** `EUR 1200.00; USD 15.00` (currencies in order), empty when none. */
export function lossCell(loss: Record<string, string> | undefined): string {
  return Object.entries(loss ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, amount]) => `${currency} ${amount}`)
    .join('; ');
}

/** A CSV row: every text cell formula-neutralized (domain/spreadsheet-safety.ts). */
export function csvCells<C extends string>(record: ExportRecord<C>): ExportRecord<C> {
  const out = {} as ExportRecord<C>;
  for (const [k, v] of Object.entries(record) as Array<[C, string | number | null]>) out[k] = safeCell(v);
  return out;
}
