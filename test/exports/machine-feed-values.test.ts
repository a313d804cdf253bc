// Machine feeds never alter values; spreadsheet downloads for people keep the formula guard.
// Values that a spreadsheet would run as a formula (`+442079460123`, `-payout@example.test`) go out
// unchanged in the indicator feed (json, csv, stix) and over TAXII, and with a leading apostrophe
// in the CSV export (XLSX cells are typed text, unchanged).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { recordSourceEntities } from '../../db/repositories/intelligence/entity-repository';
import { TAXII_COLLECTIONS, TAXII_MEDIA_TYPE } from '../../domain/exports/taxii';
import { asUser, http } from '../support/http';
import { createTestApiKey, usersForEveryRole } from '../support/identities';
import { startTestApi, testKnex } from '../support/platform';

const INDICATORS = TAXII_COLLECTIONS.find((c) => c.key === 'indicators')!.id;

/** The cells of a CSV text (RFC 4180 quoting), row by row. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
    } else if (ch !== '\r') cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe('machine feeds keep values; spreadsheet exports guard formulas', function () {
  this.timeout(120_000);
  let url: string;
  let key: Record<string, string>;
  let analyst: Record<string, string>;
  const tag = randomUUID().slice(0, 8);
  const payout = `-payout-${tag}@example.test`;
  const plus = `+442079460123-${tag}@example.test`;
  const phone = '+442079460123';
  let since: string;

  before(async () => {
    analyst = asUser((await usersForEveryRole()).analyst);
    url = (await startTestApi({ SVC_AUTH__TRUST_PROXY_HEADER: 'true' })).url;
    key = { 'X-API-KEY': await createTestApiKey(['taxii:read']) };
    since = new Date(Date.now() - 1000).toISOString();
    await recordSourceEntities(testKnex(), { kind: 'manual', id: `values-${tag}` }, [
      { type: 'email', value: payout },
      { type: 'email', value: plus },
      { type: 'phone', value: phone },
    ]);
  });

  it('the feed (json, csv, stix) and TAXII carry the values unchanged', async () => {
    const json = await http(`${url}/feeds/indicators?since=${encodeURIComponent(since)}&limit=1000`, { headers: key });
    assert.equal(json.status, 200, json.text);
    const values = (json.body.items as Array<{ value: string }>).map((i) => i.value);
    assert.ok(values.includes(payout) && values.includes(plus), values.join(' | '));

    const csv = await http(`${url}/feeds/indicators?since=${encodeURIComponent(since)}&limit=1000&format=csv`, { headers: key });
    assert.equal(csv.status, 200);
    const rows = csvRows(csv.text);
    const col = rows[0]!.indexOf('value');
    const cells = rows.slice(1).map((r) => r[col]);
    assert.ok(cells.includes(payout), `csv feed: ${cells.join(' | ')}`);
    assert.ok(cells.includes(plus), `csv feed: ${cells.join(' | ')}`);
    assert.ok(!csv.text.includes(`'${payout}`) && !csv.text.includes(`'${plus}`), 'no apostrophe in the machine feed');

    const stix = await http(`${url}/feeds/indicators?since=${encodeURIComponent(since)}&limit=1000&format=stix`, { headers: key });
    assert.ok(stix.text.includes(`[email-addr:value = '${payout}']`), 'stix pattern keeps the value');

    const taxii = await http(`${url}/taxii2/api/collections/${INDICATORS}/objects/?added_after=${encodeURIComponent(since)}&limit=1000`, { headers: { ...key, Accept: TAXII_MEDIA_TYPE } });
    assert.equal(taxii.status, 200, taxii.text);
    const patterns = (taxii.body.objects as Array<{ pattern?: string }>).map((o) => o.pattern);
    assert.ok(patterns.includes(`[email-addr:value = '${plus}']`), patterns.join(' | '));
  });

  it('the CSV exports for people guard the same values with an apostrophe; XLSX keeps them as text', async () => {
    const indicators = await http(`${url}/exports/indicators?fmt=csv&since=${encodeURIComponent(since)}`, { headers: analyst });
    assert.equal(indicators.status, 200);
    const cells = csvRows(indicators.text).map((r) => r[2]);
    assert.ok(cells.includes(`'${payout}`) && cells.includes(`'${plus}`), cells.join(' | '));
    const entities = await http(`${url}/exports/entities?fmt=csv&entity_type=phone`, { headers: analyst });
    assert.ok(csvRows(entities.text).some((r) => r[2] === `'${phone}`), 'the phone is guarded in the entity CSV');

    const xlsx = await fetch(`${url}/exports/indicators?fmt=xlsx&since=${encodeURIComponent(since)}`, { headers: analyst });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const values: unknown[] = [];
    wb.worksheets[0]!.eachRow((r) => values.push(r.getCell(3).value));
    assert.ok(values.includes(payout) && values.includes(plus), values.join(' | '));
  });
});
