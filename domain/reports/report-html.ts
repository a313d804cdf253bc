// A report as one printable HTML document: the source Chromium prints to PDF.
// Pure: no I/O. Every value that comes from data is HTML-escaped; the document also carries a
// Content-Security-Policy that forbids any fetch, so a value that slipped through could still not
// reach the network (the browser side blocks requests as well; see activities/reports).
import { truncationNote, type CellValue, type ReportContent, type ReportSection } from './report-content';

export type PageOrientation = 'portrait' | 'landscape';

/** Page margins shared by the CSS `@page` rule and the PDF renderer (header/footer live in them). */
export const REPORT_PAGE_MARGINS = { top: '18mm', right: '12mm', bottom: '16mm', left: '12mm' } as const;

/** A word this long (an address, a hash, a URL) may break anywhere; shorter words never do. */
const LONG_TOKEN = /\S{25}/;

/** Sections wider than this many columns are printed on landscape pages. */
const MAX_PORTRAIT_COLUMNS = 6;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for use in HTML element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

/** Landscape when any section has more columns than fit readably on a portrait A4 page. */
export function reportPageOrientation(content: ReportContent): PageOrientation {
  const widest = Math.max(0, ...content.sections.map((s) => s.columns.length));
  return widest > MAX_PORTRAIT_COLUMNS ? 'landscape' : 'portrait';
}

/** The value of a row's column; an absent key (never an inherited property) is null. */
export function cellOf(row: Record<string, CellValue>, key: string): CellValue {
  return Object.hasOwn(row, key) ? (row[key] ?? null) : null;
}

/** How a cell reads in the HTML/PDF rendering (the data formats keep the raw value). */
export function displayCell(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function rowCountLabel(count: number): string {
  return count === 1 ? '1 row' : `${count} rows`;
}

function renderCell(value: CellValue): string {
  if (value === null) return '<td class="empty">—</td>';
  const text = displayCell(value);
  const cls = typeof value === 'number' ? ' class="num"' : LONG_TOKEN.test(text) ? ' class="long"' : '';
  return `<td${cls}>${escapeHtml(text)}</td>`;
}

function renderSection(section: ReportSection, index: number): string {
  const id = `section-${index + 1}`;
  const head = `<h2 id="${id}">${escapeHtml(section.title)}</h2>
<p class="count">${escapeHtml(rowCountLabel(section.rows.length))}</p>`;
  if (section.rows.length === 0) {
    return `<section aria-labelledby="${id}">
${head}
<p class="empty-note">${escapeHtml(section.emptyNote)}</p>
</section>`;
  }
  const headerCells = section.columns.map((c) => `<th scope="col">${escapeHtml(c.label)}</th>`).join('');
  const note = truncationNote(section);
  const truncated = note ? `\n<p class="truncated-note" role="note">${escapeHtml(note)}</p>` : '';
  const bodyRows = section.rows
    .map((row) => `<tr>${section.columns.map((c) => renderCell(cellOf(row, c.key))).join('')}</tr>`)
    .join('\n');
  return `<section aria-labelledby="${id}">
${head}${truncated}
<table>
<thead><tr>${headerCells}</tr></thead>
<tbody>
${bodyRows}
</tbody>
</table>
</section>`;
}

function stylesheet(orientation: PageOrientation): string {
  const m = REPORT_PAGE_MARGINS;
  return `@page { size: A4 ${orientation}; margin: ${m.top} ${m.right} ${m.bottom} ${m.left}; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 9pt;
  line-height: 1.35; color: #1a1a1a; }
header.report { border-bottom: 2px solid #1f3a5f; padding-bottom: 6pt; margin-bottom: 10pt; }
header.report h1 { font-size: 16pt; margin: 0 0 4pt; color: #1f3a5f; }
header.report dl { display: grid; grid-template-columns: max-content 1fr; gap: 1pt 8pt; margin: 0; }
header.report dt { font-weight: bold; color: #555; }
header.report dd { margin: 0; overflow-wrap: anywhere; }
section { margin-top: 12pt; }
h2 { font-size: 12pt; margin: 0; color: #1f3a5f; break-after: avoid; page-break-after: avoid; }
p.count { margin: 1pt 0 4pt; color: #666; font-size: 8pt; break-after: avoid; page-break-after: avoid; }
p.empty-note { margin: 4pt 0; padding: 6pt 8pt; background: #f4f6f8; border-left: 3px solid #9aa8b8;
  font-style: italic; color: #444; }
table { width: 100%; border-collapse: collapse; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
th, td { border: 0.5pt solid #c8cfd8; padding: 2pt 4pt; text-align: left; vertical-align: top;
  overflow-wrap: break-word; }
td.long { overflow-wrap: anywhere; word-break: break-all; }
th { background: #e8edf3; font-weight: bold; }
tbody tr:nth-child(even) td { background: #f8f9fb; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.empty { color: #999; }
p.truncated-note { margin: 2pt 0 4pt; padding: 4pt 8pt; background: #fff4e5; border-left: 3px solid #d97706;
  font-weight: bold; color: #7a3e00; break-after: avoid; page-break-after: avoid; }`;
}

/** A complete, self-contained HTML document for the report (inline CSS, no external resources). */
export function renderReportHtml(content: ReportContent): string {
  const orientation = reportPageOrientation(content);
  const meta: Array<[string, string]> = [
    ['As of', content.asOf],
    ['Generated at', content.generatedAt],
    ['Scope', content.scopeSummary],
  ];
  const metaList = meta.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n');
  const sections = content.sections.map(renderSection).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">
<meta name="generator" content="fraud-intelligence-platform">
<title>${escapeHtml(content.title)}</title>
<style>
${stylesheet(orientation)}
</style>
</head>
<body>
<header class="report">
<h1>${escapeHtml(content.title)}</h1>
<dl>
${metaList}
</dl>
</header>
<main>
${sections}
</main>
</body>
</html>
`;
}
