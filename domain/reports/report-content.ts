// What a generated report contains, independent of its output format.

export const REPORT_FORMATS = ['pdf', 'csv', 'xlsx', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_CONTENT_TYPES: Record<ReportFormat, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
};

export type CellValue = string | number | boolean | null;

export interface ReportSection {
  /** Entity kind of the rows, e.g. `wallet`. */
  entityType: string;
  title: string;
  columns: Array<{ key: string; label: string }>;
  rows: Array<Record<string, CellValue>>;
  /** Shown when rows is empty, e.g. "No wallets in this period." */
  emptyNote: string;
  /** Set when the section was cut at its row cap: rows holds the first rowCap of totalRows. */
  truncation?: { rowCap: number; totalRows: number };
}

/** The note a section cut at its row cap carries in every format. */
export function truncationNote(section: ReportSection): string | null {
  const t = section.truncation;
  if (!t) return null;
  return `Truncated: showing the first ${t.rowCap} of ${t.totalRows} rows (row cap ${t.rowCap}).`;
}

export interface ReportContent {
  template: string;
  title: string;
  /** ISO 8601 UTC: the due time for scheduled reports, the request time otherwise. */
  asOf: string;
  generatedAt: string;
  scopeSummary: string;
  sections: ReportSection[];
}
