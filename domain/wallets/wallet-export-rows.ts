// Rows of a wallet export (CSV, XLSX, JSON). CSV fields go through the platform's one
// formula-injection guard (domain/spreadsheet-safety.ts); XLSX string cells cannot be formulas and
// keep their exact value.
import { neutralizeFormula } from '../spreadsheet-safety';

/** A stored wallet record (one row of the wallets table). */
export interface WalletRecord {
  scan_id: string;
  address: string;
  token: string;
  network: string;
  confidence: string;
  source: string;
  context: string;
  page_url: string | null;
  found_at: Date | string;
  /** Memo / destination tag / comment (XRP, Stellar, TON, EOS, ...), when the page shows one. */
  memo?: string | null;
  /** How the network was chosen; `default` = nothing on the page named it. */
  network_basis?: string | null;
}

export const EXPORT_COLUMNS = ['address', 'token', 'network', 'confidence', 'source', 'context', 'page_url', 'found_at', 'memo', 'network_basis'] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

function iso(v: Date | string): string {
  return v instanceof Date ? v.toISOString() : new Date(v).toISOString();
}

/** XLSX row: every cell an exact string (a string cell is text, never a formula). */
export function toXlsxRow(r: WalletRecord): string[] {
  return [r.address, r.token, r.network, r.confidence, r.source, r.context, r.page_url ?? '', iso(r.found_at), r.memo ?? '', r.network_basis ?? ''];
}

/** CSV row: every field a neutralised string. */
export function toCsvRow(r: WalletRecord): string[] {
  return toXlsxRow(r).map((v) => neutralizeFormula(v));
}

/** JSON object: data is not interpreted by spreadsheets, so values stay exact. */
export function toJsonRow(r: WalletRecord): Record<ExportColumn, string | null> {
  return {
    address: r.address, token: r.token, network: r.network, confidence: r.confidence, source: r.source, context: r.context, page_url: r.page_url, found_at: iso(r.found_at),
    memo: r.memo ?? null, network_basis: r.network_basis ?? null,
  };
}
