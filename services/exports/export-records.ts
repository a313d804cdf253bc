// The spreadsheet record of an entity row and of an indicator row (the columns of
// domain/exports/export-rows.ts), for the exports and the partner feed. Bank details are masked for
// every role but analyst (`DE89 **** **** **** 3000`) by the one masking policy of
// domain/masking/masking-policy.ts; the caller says whether this caller sees them clear.
import type { ExportedIndicatorRow } from '../../db/repositories/exports/export-repository';
import type { IntelEntityRow } from '../../db/repositories/intelligence/intel-entity-repository';
import type { Principal } from '../../domain/accounts/roles';
import { lossCell, type EntityExportColumn, type ExportRecord, type IndicatorExportColumn } from '../../domain/exports/export-rows';
import { maskBankAccount, maskingFor } from '../../domain/masking/masking-policy';

/** Service keys hold no role: they get the non-analyst view (bank details masked). */
export function seesClearBankDetails(principal: Principal | null): boolean {
  return maskingFor(principal).sees('bank_account');
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function entityExportRecord(e: IntelEntityRow, clearBankDetails: boolean): ExportRecord<EntityExportColumn> {
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
    victim_count: e.victim_count,
  };
}

export function indicatorExportRecord(i: ExportedIndicatorRow, clearBankDetails: boolean): ExportRecord<IndicatorExportColumn> {
  // Indicator types never include bank accounts today; the mask follows the type should they one day.
  const masked = (i.type as string) === 'bank_account' && !clearBankDetails;
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
