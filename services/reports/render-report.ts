// Renders report content into the bytes of one output format: PDF (Chromium prints the HTML of
// domain/reports/report-html.ts), CSV, XLSX (exceljs) or JSON. Text that ends up in a CSV field goes
// through safeCell so that no value can be taken as a formula; XLSX string cells are typed text,
// never formulas, and keep their exact value.
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { truncationNote, type CellValue, type ReportContent, type ReportFormat, type ReportSection } from '../../domain/reports/report-content';
import { cellOf, escapeHtml, REPORT_PAGE_MARGINS, renderReportHtml } from '../../domain/reports/report-html';
import { safeCell } from '../../domain/spreadsheet-safety';
import type { BrowserProvider } from '../../infra/browser-pool';

export interface RenderReportDeps {
  browser: BrowserProvider;
}

export async function renderReport(
  content: ReportContent,
  format: ReportFormat,
  deps: RenderReportDeps,
): Promise<Buffer> {
  switch (format) {
    case 'pdf':
      return renderPdf(content, deps.browser);
    case 'csv':
      return renderCsv(content);
    case 'xlsx':
      return renderXlsx(content);
    case 'json':
      return renderJson(content);
  }
}

// ---------------------------------------------------------------------------------------- PDF

const PAGE_CHROME_STYLE =
  'font-family: "DejaVu Sans", Arial, sans-serif; font-size: 7pt; color: #666; width: 100%; ' +
  `padding: 0 ${REPORT_PAGE_MARGINS.left}; display: flex; justify-content: space-between;`;

export async function renderPdf(content: ReportContent, browser: BrowserProvider): Promise<Buffer> {
  const html = renderReportHtml(content);
  // Chromium fills .title (the document title, escaped by Chromium), .pageNumber and .totalPages.
  const headerTemplate = `<div style='${PAGE_CHROME_STYLE}'><span class="title"></span><span>As of ${escapeHtml(content.asOf)}</span></div>`;
  const footerTemplate = `<div style='${PAGE_CHROME_STYLE}'><span>Generated ${escapeHtml(content.generatedAt)}</span><span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`;
  return browser.withPage(async (page) => {
    await page.setContent(html, { waitUntil: 'load' });
    await page.emulateMedia({ media: 'print' });
    return page.pdf({
      // The CSS @page rule chooses A4 portrait or landscape (report-html.ts).
      preferCSSPageSize: true,
      format: 'A4',
      printBackground: true,
      margin: { ...REPORT_PAGE_MARGINS },
      displayHeaderFooter: true,
      headerTemplate,
      footerTemplate,
      tagged: true,
      outline: true,
    });
  });
}

// ---------------------------------------------------------------------------------------- CSV

const UTF8_BOM = '\uFEFF';

/**
 * One CSV file holding every section as a block, in order:
 *
 *   <section title>
 *   <column label>,<column label>,...
 *   <value>,<value>,...            (one line per row; none for an empty section)
 *   <truncation note>              (only when the section was cut at its row cap)
 *   <empty line>
 *
 * The file starts with a UTF-8 byte order mark so Excel reads it as UTF-8; lines end with CRLF
 * (RFC 4180). Every text cell, titles and labels included, goes through safeCell; null is an
 * empty field and booleans are `true`/`false`.
 */
export function renderCsv(content: ReportContent): Buffer {
  const records: Array<Array<string | number | null>> = [];
  for (const section of content.sections) {
    records.push([safeCell(section.title)]);
    records.push(section.columns.map((c) => safeCell(c.label)));
    for (const row of section.rows) records.push(section.columns.map((c) => csvCell(cellOf(row, c.key))));
    const note = truncationNote(section);
    if (note) records.push([safeCell(note)]);
    records.push([]);
  }
  const text = stringify(records, {
    record_delimiter: 'windows',
    // csv-stringify only quotes a line break that matches the record delimiter; quote lone CR/LF too.
    quoted_match: /[\r\n]/,
  });
  return Buffer.from(UTF8_BOM + text, 'utf8');
}

function csvCell(value: CellValue): string | number | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return safeCell(value);
}

// ---------------------------------------------------------------------------------------- XLSX

const SUMMARY_SHEET = 'Summary';
const SHEET_NAME_MAX = 31;
const XLSX_CELL_MAX = 32_767;
const COLUMN_WIDTH_MIN = 8;
const COLUMN_WIDTH_MAX = 60;

/**
 * Sheet names valid for Excel: 1-31 characters, none of [ ] : * ? / \, not starting or ending
 * with an apostrophe, not the reserved "History", and unique without regard to case (`taken`
 * holds the lowercased names already used and is updated).
 */
export function sanitizeSheetName(wanted: string, taken: Set<string>): string {
  let base = wanted
    .replace(/[[\]:*?/\\\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^'+|'+$/g, '')
    .trim();
  if (base === '' || base.toLowerCase() === 'history') base = base === '' ? 'Sheet' : `${base} sheet`;
  base = truncate(base, SHEET_NAME_MAX);
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    name = truncate(base, SHEET_NAME_MAX - suffix.length).trimEnd() + suffix;
  }
  taken.add(name.toLowerCase());
  return name;
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * Text for a cell, written as a string cell (exceljs never makes a formula of a plain string, so
 * `=1+1` or `-1:…` stay exactly that): line breaks as LF, the only one a cell holds (XML turns a
 * raw CR into LF on reading anyway), cut at Excel's limit.
 */
function xlsxText(value: string): string {
  return truncate(value.replace(/\r\n?/g, '\n'), XLSX_CELL_MAX);
}

function xlsxCell(value: CellValue): string | number | boolean | null {
  if (value === null) return null;
  return typeof value === 'string' ? xlsxText(value) : value;
}

function widthOf(value: string | number | boolean | null): number {
  if (value === null) return 0;
  return Math.max(...String(value).split('\n').map((line) => [...line].length));
}

function fitColumns(sheet: ExcelJS.Worksheet, rows: Array<Array<string | number | boolean | null>>): void {
  const count = Math.max(0, ...rows.map((r) => r.length));
  for (let i = 0; i < count; i++) {
    const widest = Math.max(0, ...rows.map((r) => widthOf(r[i] ?? null)));
    const width = Math.min(COLUMN_WIDTH_MAX, Math.max(COLUMN_WIDTH_MIN, widest + 2));
    const column = sheet.getColumn(i + 1);
    column.width = width;
    if (widest + 2 > COLUMN_WIDTH_MAX) column.alignment = { wrapText: true, vertical: 'top' };
  }
}

function boldFrozenHeader(sheet: ExcelJS.Worksheet, headerRow: number): void {
  sheet.getRow(headerRow).font = { bold: true };
  sheet.views = [{ state: 'frozen', xSplit: 0, ySplit: headerRow }];
}

function addSectionSheet(workbook: ExcelJS.Workbook, section: ReportSection, name: string): void {
  const sheet = workbook.addWorksheet(name);
  const header = section.columns.map((c) => xlsxText(c.label));
  const body = section.rows.map((row) => section.columns.map((c) => xlsxCell(cellOf(row, c.key))));
  sheet.addRow(header);
  for (const values of body) sheet.addRow(values);
  boldFrozenHeader(sheet, 1);
  if (section.rows.length > 0 && section.columns.length > 0) {
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1 + body.length, column: section.columns.length } };
  }
  const note = truncationNote(section);
  if (note) {
    sheet.addRow([]);
    sheet.addRow([xlsxText(note)]).font = { bold: true, color: { argb: 'FF7A3E00' } };
  }
  fitColumns(sheet, [header, ...body]);
}

function addSummarySheet(workbook: ExcelJS.Workbook, content: ReportContent, sheetNames: string[]): void {
  const sheet = workbook.addWorksheet(SUMMARY_SHEET);
  const facts: Array<[string, string]> = [
    ['Title', content.title],
    ['Template', content.template],
    ['As of', content.asOf],
    ['Generated at', content.generatedAt],
    ['Scope', content.scopeSummary],
  ];
  const rows = facts.map(([k, v]) => [k, xlsxText(v)]);
  for (const row of rows) sheet.addRow(row).getCell(1).font = { bold: true };
  sheet.addRow([]);
  const tableHeader = ['Section', 'Sheet', 'Rows', 'Note'];
  const headerRow = sheet.addRow(tableHeader);
  headerRow.font = { bold: true };
  const tableRows = content.sections.map((s, i) => [
    xlsxText(s.title),
    sheetNames[i],
    s.rows.length,
    s.rows.length === 0 ? xlsxText(s.emptyNote) : truncationNote(s) === null ? null : xlsxText(truncationNote(s)!),
  ]);
  for (const row of tableRows) sheet.addRow(row);
  fitColumns(sheet, [...rows, tableHeader, ...tableRows]);
}

export async function renderXlsx(content: ReportContent): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  // Metadata from the content, not the clock: the same content gives the same document properties.
  const generatedAt = new Date(content.generatedAt);
  workbook.creator = 'Fraud Intelligence Platform';
  workbook.lastModifiedBy = 'Fraud Intelligence Platform';
  workbook.title = content.title;
  workbook.created = generatedAt;
  workbook.modified = generatedAt;

  const taken = new Set<string>([SUMMARY_SHEET.toLowerCase()]);
  const sheetNames = content.sections.map((s) => sanitizeSheetName(s.title, taken));
  addSummarySheet(workbook, content, sheetNames);
  content.sections.forEach((section, i) => addSectionSheet(workbook, section, sheetNames[i]));

  const bytes = await workbook.xlsx.writeBuffer();
  return Buffer.from(bytes);
}

// ---------------------------------------------------------------------------------------- JSON

/**
 * `{ template, title, as_of, generated_at, scope_summary, sections: [{ entity_type, title,
 * columns: [{ key, label }], rows, row_count, truncated, row_cap?, total_rows? }] }`: a section cut
 * at its row cap has truncated: true, row_cap and total_rows (row_count is then row_cap). Rows keep their column keys and hold exactly
 * the section's columns, in column order (a key the row lacks is null).
 */
export function renderJson(content: ReportContent): Buffer {
  const document = {
    template: content.template,
    title: content.title,
    as_of: content.asOf,
    generated_at: content.generatedAt,
    scope_summary: content.scopeSummary,
    sections: content.sections.map((s) => ({
      entity_type: s.entityType,
      title: s.title,
      columns: s.columns.map((c) => ({ key: c.key, label: c.label })),
      rows: s.rows.map((row) => Object.fromEntries(s.columns.map((c) => [c.key, cellOf(row, c.key)]))),
      row_count: s.rows.length,
      truncated: s.truncation !== undefined,
      ...(s.truncation ? { row_cap: s.truncation.rowCap, total_rows: s.truncation.totalRows } : {}),
    })),
  };
  return Buffer.from(`${JSON.stringify(document, null, 2)}\n`, 'utf8');
}
