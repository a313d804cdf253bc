// The spreadsheet writers in isolation (infra/tabular-writer.ts): the XLSX writer must
// stop reading rows while its output is not being read (exceljs itself ignores back-pressure: the
// whole sheet then piles up in memory, 725 MB at a million rows), and still write a workbook whose
// cells come back unchanged when the output flows.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ExportAbortedError, writeXlsx } from '../../infra/tabular-writer';
import { waitFor } from '../support/wait-for';

const COLUMNS = ['id', 'value', 'n'] as const;

describe('export writers', function () {
  this.timeout(60_000);

  it('XLSX: reads no further rows while nobody reads the workbook, and an abort ends the wait', async () => {
    let pulled = 0;
    async function* rows() {
      for (let i = 0; i < 200_000; i++) {
        pulled++;
        yield { id: randomUUID(), value: `=cmd-${randomUUID()}`, n: i };
      }
    }
    // A client that never reads: its buffer fills and it answers false from then on.
    const stalled = new Writable({ highWaterMark: 16 * 1024, write: () => undefined });
    const abort = new AbortController();
    const done = writeXlsx('rows', COLUMNS, rows(), stalled, abort.signal).then(
      () => 'finished',
      (err: unknown) => err,
    );
    // Wait until the count stops moving (the writer waits), then check where it stopped.
    let seen = -1;
    await waitFor(
      'the XLSX writer to stop reading rows',
      async () => {
        const now = pulled;
        const still = now === seen;
        seen = now;
        await new Promise((r) => setTimeout(r, 300));
        return still;
      },
      30_000,
      1,
    );
    assert.ok(pulled < 50_000, `${pulled} of 200,000 rows read with nobody reading the output`);
    abort.abort();
    const outcome = await done;
    assert.ok(outcome instanceof Error && (outcome.name === 'AbortError' || outcome instanceof ExportAbortedError), String(outcome));
    stalled.destroy();
  });

  it('XLSX: a workbook written through a consumer that reads has every row, text cells unchanged', async () => {
    async function* rows() {
      for (let i = 0; i < 20_000; i++) yield { id: `id-${i}`, value: i % 2 ? `=1+${i}` : `v${i}`, n: i };
    }
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const n = await writeXlsx('rows', COLUMNS, rows(), out);
    assert.equal(n, 20_000);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0]!;
    assert.equal(sheet.rowCount, 20_001);
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), ['id', 'value', 'n']);
    assert.deepEqual((sheet.getRow(20_001).values as unknown[]).slice(1), ['id-19999', '=1+19999', 19999]);
    assert.equal(sheet.getRow(20_001).getCell(2).type, ExcelJS.ValueType.String);
  });
});
