// Columns of the entity and indicator spreadsheets (CSV and XLSX). Bank details are masked for every
// role but analyst (`DE89 **** **** **** 3000`) by the one masking rule of domain/intelligence/entity-masking.ts.
import { maskBankAccount } from '../intelligence/entity-masking';
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

export interface EntityForExport {
  id: string;
  type: string;
  value: string;
  display_value: string;
  attributes: Record<string, unknown>;
  first_seen_at: Date;
  last_seen_at: Date;
  sighting_count: number;
  risk_score: number | null;
  /** {"EUR": "1200.00"} (the entity list's loss per currency). */
  loss_by_currency?: Record<string, string>;
  victim_count?: number;
}

/** `EUR 1200.00; USD 15.00` (currencies in order), empty when none. */
export function lossCell(loss: Record<string, string> | undefined): string {
  return Object.entries(loss ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, amount]) => `${currency} ${amount}`)
    .join('; ');
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function entityExportRecord(e: EntityForExport, clearBankDetails: boolean): ExportRecord<EntityExportColumn> {
  const masked = e.type === 'bank_account' && !clearBankDetails;
  return {
    id: e.id,
    type: e.type,
    value: masked ? maskBankAccount(e.value) : e.value,
    display_value: masked ? maskBankAccount(e.value) : e.display_value,
    network: text(e.attributes.network),
    token: text(e.attributes.token),
    country: text(e.attributes.country),
    first_seen_at: e.first_seen_at.toISOString(),
    last_seen_at: e.last_seen_at.toISOString(),
    sighting_count: e.sighting_count,
    risk_score: e.risk_score,
    loss: lossCell(e.loss_by_currency),
    victim_count: e.victim_count ?? 0,
  };
}

export interface IndicatorForExport {
  entity_id: string;
  type: string;
  value: string;
  category: string;
  confidence: number;
  tlp: string;
  valid_from: Date;
  created_at: Date;
  updated_at: Date;
}

export function indicatorExportRecord(i: IndicatorForExport, clearBankDetails: boolean): ExportRecord<IndicatorExportColumn> {
  // Indicator types never include bank accounts today; the mask follows the type should they one day.
  const masked = i.type === 'bank_account' && !clearBankDetails;
  return {
    id: i.entity_id,
    type: i.type,
    value: masked ? maskBankAccount(i.value) : i.value,
    category: i.category,
    confidence: i.confidence,
    tlp: i.tlp,
    valid_from: i.valid_from.toISOString(),
    created_at: i.created_at.toISOString(),
    updated_at: i.updated_at.toISOString(),
  };
}

/** A CSV row: every text cell formula-neutralized (domain/spreadsheet-safety.ts). */
export function csvCells<C extends string>(record: ExportRecord<C>): ExportRecord<C> {
  const out = {} as ExportRecord<C>;
  for (const [k, v] of Object.entries(record) as Array<[C, string | number | null]>) out[k] = safeCell(v);
  return out;
}
