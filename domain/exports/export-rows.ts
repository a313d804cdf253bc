// Columns of the entity and indicator spreadsheets (CSV and XLSX), and the masking of bank details:
// every role but analyst sees an account number as `DE89 **** **** **** 3000` (country and check
// digits, then the last four; the middle is always three groups, so the mask does not reveal the length).
import type { Role } from '../auth/roles';
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

/** `DE89370400440532013000` -> `DE89 **** **** **** 3000`; short values keep nothing but stars. */
export function maskBankDetails(value: string): string {
  const compact = value.replace(/\s+/g, '');
  if (compact.length < 10) return '****';
  return `${compact.slice(0, 4)} **** **** **** ${compact.slice(-4)}`;
}

/** Who sees bank details in clear: only a person holding the analyst role. */
export function mayReadBankDetails(roles: readonly Role[] | null): boolean {
  return roles !== null && roles.includes('analyst');
}

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
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function entityExportRecord(e: EntityForExport, clearBankDetails: boolean): ExportRecord<EntityExportColumn> {
  const masked = e.type === 'bank_account' && !clearBankDetails;
  return {
    id: e.id,
    type: e.type,
    value: masked ? maskBankDetails(e.value) : e.value,
    display_value: masked ? maskBankDetails(e.value) : e.display_value,
    network: text(e.attributes.network),
    token: text(e.attributes.token),
    country: text(e.attributes.country),
    first_seen_at: e.first_seen_at.toISOString(),
    last_seen_at: e.last_seen_at.toISOString(),
    sighting_count: e.sighting_count,
    risk_score: e.risk_score,
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
    value: masked ? maskBankDetails(i.value) : i.value,
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
